import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../config';
import { InputError } from '../../core/errors';
import { checkFetchAllowed } from './allowList';
import { backoffMs, classifyStatus, retryAfterMs } from './retry';

export interface FetchLimits {
  allow: string[];
  /** For one attempt, body included. */
  timeoutMs: number;
  /**
   * Further attempts after the first, for timeouts, network errors and 408/429/5xx. Feeds use
   * PHOTOWIRE_FETCH_RETRIES; an item's photo uses 0: its job is retried by BullMQ instead
   * (PHOTOWIRE_ATTEMPTS, exponential backoff), so a download is never retried by two loops.
   */
  retries: number;
  maxBytes: number;
  /** What is fetched: chooses the size-cap error code and its message. */
  what: 'feed' | 'image';
  /** First backoff delay; doubles per retry. */
  backoffBaseMs?: number;
}

export interface Fetched {
  bytes: Buffer;
  /** After redirects: what relative references in a feed resolve against. */
  url: string;
  contentType: string | null;
}

const MAX_REDIRECTS = 5;

/**
 * A download that failed: FETCH_FAILED naming the URL and why. `retryable` says whether another
 * try may succeed (a network error, a timeout, 408/425/429/5xx: the host may be back in a minute)
 * or not (another 4xx, a redirect loop): the item worker lets BullMQ retry the first kind and
 * fails the second for good. Still an InputError, so a feed's download fails as it did.
 */
export class FetchFailedError extends InputError {
  constructor(message: string, retryable: boolean) {
    super('FETCH_FAILED', message, { retryable });
    this.name = 'FetchFailedError';
  }
}

/** A failure worth another attempt (the server or the network, not the request). */
class Transient extends Error {
  constructor(
    message: string,
    readonly waitMs: number | null = null,
  ) {
    super(message);
  }
}

function tooLarge(url: string, bytes: number, limits: FetchLimits): InputError {
  const mb = (n: number) => (n / 1048576).toFixed(1);
  const cap = limits.what === 'image' ? 'PHOTOWIRE_MAX_FILE_MB' : 'PHOTOWIRE_MAX_FEED_MB';
  return new InputError(
    limits.what === 'image' ? 'IMAGE_TOO_LARGE' : 'FEED_TOO_LARGE',
    `${url}: ${mb(bytes)} MB or more is over the cap of ${mb(limits.maxBytes)} MB (${cap})`,
  );
}

/** One attempt: follow redirects (each hop checked against the allow-list), read the body under the cap. */
async function attempt(startUrl: string, limits: FetchLimits): Promise<Fetched> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = checkFetchAllowed(startUrl, limits.allow);
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'manual', signal, headers: { 'user-agent': 'photowire' } });
    } catch (err) {
      throw new Transient(describeNetworkError(err, limits.timeoutMs));
    }
    const kind = classifyStatus(res.status);
    if (kind === 'redirect') {
      await res.body?.cancel().catch(() => undefined);
      const location = res.headers.get('location');
      if (!location) throw new FetchFailedError(`${url.href}: HTTP ${res.status} without a Location header`, false);
      if (hop + 1 > MAX_REDIRECTS)
        throw new FetchFailedError(`${startUrl}: more than ${MAX_REDIRECTS} redirects`, false);
      url = checkFetchAllowed(new URL(location, url).href, limits.allow);
      continue;
    }
    if (kind !== 'ok') {
      await res.body?.cancel().catch(() => undefined);
      const why = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
      if (kind === 'retry') throw new Transient(why, retryAfterMs(res.headers.get('retry-after'), Date.now()));
      throw new FetchFailedError(`${url.href}: ${why}`, false);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw tooLarge(url.href, declared, limits);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      if (res.body) {
        for await (const chunk of res.body) {
          total += chunk.byteLength;
          if (total > limits.maxBytes) {
            await res.body.cancel().catch(() => undefined);
            throw tooLarge(url.href, total, limits);
          }
          chunks.push(Buffer.from(chunk));
        }
      }
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new Transient(describeNetworkError(err, limits.timeoutMs));
    }
    return { bytes: Buffer.concat(chunks), url: url.href, contentType: res.headers.get('content-type') };
  }
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return `no complete answer within ${timeoutMs} ms (PHOTOWIRE_FETCH_TIMEOUT_MS)`;
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/**
 * Download a URL with the limits: allow-listed hosts only (redirects included), a timeout per
 * attempt, a size cap enforced while reading, and `limits.retries` retries with exponential backoff
 * for timeouts, network errors and 408/429/5xx. Refusals and permanent failures are InputErrors
 * naming the URL; a transient failure after the last try is a FetchFailedError with `retryable`
 * (its message says how many attempts were made when there were retries).
 */
export async function fetchBytes(url: string, limits: FetchLimits): Promise<Fetched> {
  let last = '';
  for (let n = 0; n <= limits.retries; n++) {
    try {
      return await attempt(url, limits);
    } catch (err) {
      if (!(err instanceof Transient)) throw err;
      last = err.message;
      if (n < limits.retries) await sleep(err.waitMs ?? backoffMs(n + 1, limits.backoffBaseMs));
    }
  }
  const tries = limits.retries + 1;
  throw new FetchFailedError(limits.retries > 0 ? `${url}: ${last} (${tries} attempts)` : `${url}: ${last}`, true);
}

export function fetchLimits(config: Config, what: 'feed' | 'image'): FetchLimits {
  return {
    allow: config.fetchAllow,
    timeoutMs: config.fetchTimeoutMs,
    retries: config.fetchRetries,
    maxBytes: what === 'image' ? config.maxFileBytes : config.maxFeedBytes,
    what,
  };
}

const HTTP_URL = /^https?:\/\//i;
export const isHttpUrl = (s: string): boolean => HTTP_URL.test(s);

/**
 * The item stage's download of a photo named by URL in an HTTP feed: one try. A transient failure
 * is a retryable FetchFailedError and the item's job is retried by BullMQ (PHOTOWIRE_ATTEMPTS,
 * exponential backoff from 1 s), not by a second loop here.
 */
export async function fetchImageBytes(url: string, config: Config): Promise<Buffer> {
  return (await fetchBytes(url, { ...fetchLimits(config, 'image'), retries: 0 })).bytes;
}
