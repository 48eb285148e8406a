import type { KillEvent } from '../adapters/redis/killStore';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { checkFetchAllowed } from '../sources/http/allowList';

export interface WebhookOutcome {
  ok: boolean;
  attempts: number;
  status: number | null;
  error: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One JSON POST per kill to PHOTOWIRE_KILL_WEBHOOK so a CMS can unpublish: the host must be in
 * PHOTOWIRE_FETCH_ALLOW (refused otherwise, without a connection), retried on a network error or
 * a 5xx/429 with backoff (`baseMs` doubled each time), PHOTOWIRE_FETCH_RETRIES more times.
 */
export async function sendKillWebhook(
  config: Pick<Config, 'killWebhook' | 'fetchAllow' | 'fetchRetries' | 'fetchTimeoutMs'>,
  event: KillEvent,
  logger?: Pick<Logger, 'warn' | 'info'>,
  opts: { baseMs?: number } = {},
): Promise<WebhookOutcome> {
  if (!config.killWebhook) return { ok: false, attempts: 0, status: null, error: 'PHOTOWIRE_KILL_WEBHOOK is not set' };
  let url: URL;
  try {
    url = checkFetchAllowed(config.killWebhook, config.fetchAllow);
  } catch (err) {
    const error = `kill webhook refused: ${(err as Error).message}`;
    logger?.warn({ killId: event.id, code: 'FETCH_REFUSED' }, error);
    return { ok: false, attempts: 0, status: null, error };
  }
  const body = JSON.stringify({ type: `photowire.${event.kind}`, kill: event });
  const base = opts.baseMs ?? 500;
  let last: WebhookOutcome = { ok: false, attempts: 0, status: null, error: null };
  for (let attempt = 1; attempt <= config.fetchRetries + 1; attempt++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-photowire-kill': event.id },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(config.fetchTimeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      last = { ok: res.ok, attempts: attempt, status: res.status, error: res.ok ? null : `HTTP ${res.status}` };
      if (res.ok) {
        logger?.info({ killId: event.id, status: res.status, attempts: attempt }, 'kill webhook delivered');
        return last;
      }
      if (res.status < 500 && res.status !== 429) break; // the CMS refused it: sending again will not help
    } catch (err) {
      last = { ok: false, attempts: attempt, status: null, error: (err as Error).message };
    }
    if (attempt <= config.fetchRetries) await sleep(base * 2 ** (attempt - 1));
  }
  logger?.warn({ killId: event.id, attempts: last.attempts, status: last.status, err: last.error }, `kill webhook ${url.host} failed: ${last.error}`);
  return last;
}
