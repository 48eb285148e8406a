/** Retry policy for downloads: which answers are worth another try, and how long to wait. */

export type StatusClass = 'ok' | 'redirect' | 'retry' | 'permanent';

const RETRY_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export function classifyStatus(status: number): StatusClass {
  if (status >= 200 && status < 300) return 'ok';
  if ([301, 302, 303, 307, 308].includes(status)) return 'redirect';
  if (RETRY_STATUS.has(status)) return 'retry';
  return 'permanent';
}

/** Exponential backoff: 500 ms, 1 s, 2 s... capped. `attempt` counts from 1 (the first retry). */
export function backoffMs(attempt: number, baseMs = 500, capMs = 30_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** A server's Retry-After (seconds or an HTTP date), honoured up to the cap; null when absent or unusable. */
export function retryAfterMs(header: string | null, now: number, capMs = 30_000): number | null {
  if (!header) return null;
  const t = header.trim();
  if (/^\d+$/.test(t)) return Math.min(capMs, Number(t) * 1000);
  const at = Date.parse(t);
  if (Number.isNaN(at)) return null;
  return Math.min(capMs, Math.max(0, at - now));
}
