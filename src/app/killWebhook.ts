import { UnrecoverableError } from 'bullmq';
import type { KillEvent } from '../adapters/redis/killStore';
import type { Config } from '../config';
import { JOBS, jobIds, killWebhookJobOptions } from '../queues/definitions';
import type { Queues } from '../queues/queues';
import { checkFetchAllowed } from '../adapters/http/allowList';

type WebhookConfig = Pick<Config, 'killWebhook' | 'fetchAllow' | 'fetchRetries' | 'fetchTimeoutMs'>;

export interface WebhookQueued {
  /** queued: a job will POST it (and retry); refused: the host is not allowed, nothing is sent; off: no webhook set. */
  state: 'queued' | 'refused' | 'off';
  jobId: string | null;
  error: string | null;
}

/** The allow-list check, before any job or connection: the reason when the webhook may not be sent. */
export function webhookRefusal(config: WebhookConfig): string | null {
  if (!config.killWebhook) return 'PHOTOWIRE_KILL_WEBHOOK is not set';
  try {
    checkFetchAllowed(config.killWebhook, config.fetchAllow);
    return null;
  } catch (err) {
    return `kill webhook refused: ${(err as Error).message}`;
  }
}

/**
 * Queue the kill's webhook POST (PHOTOWIRE_KILL_WEBHOOK) as a BullMQ job: durable across restarts,
 * retried PHOTOWIRE_FETCH_RETRIES times with exponential backoff, its id from the kill's, so a notice
 * read twice sends once. A host not in PHOTOWIRE_FETCH_ALLOW is refused here, logged, never queued.
 */
export async function queueKillWebhook(
  ctx: { queues: Queues; config: WebhookConfig; logger?: { warn(obj: object, msg: string): void } },
  event: KillEvent,
): Promise<WebhookQueued> {
  if (!ctx.config.killWebhook) return { state: 'off', jobId: null, error: null };
  const refused = webhookRefusal(ctx.config);
  if (refused) {
    ctx.logger?.warn({ killId: event.id, code: 'FETCH_REFUSED' }, refused);
    return { state: 'refused', jobId: null, error: refused };
  }
  const jobId = jobIds.killWebhook(event.id);
  await ctx.queues
    .queue('killWebhook')
    .add(JOBS.killWebhook, { killId: event.id }, { ...killWebhookJobOptions(ctx.config.fetchRetries + 1), jobId });
  return { state: 'queued', jobId, error: null };
}

/**
 * One POST attempt of a kill's webhook (the job retries): `{"type":"photowire.kill","kill":{...}}`.
 * The host is checked against PHOTOWIRE_FETCH_ALLOW before connecting; a refusal or a 4xx other
 * than 429 is not retried (UnrecoverableError); a network error, a timeout, a 5xx or 429 throws to be retried.
 */
export async function postKillWebhook(config: WebhookConfig, event: KillEvent): Promise<{ status: number }> {
  const refused = webhookRefusal(config);
  if (refused) throw new UnrecoverableError(refused);
  const url = checkFetchAllowed(config.killWebhook!, config.fetchAllow);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-photowire-kill': event.id },
    body: JSON.stringify({ type: `photowire.${event.kind}`, kill: event }),
    redirect: 'manual',
    signal: AbortSignal.timeout(config.fetchTimeoutMs),
  });
  await res.arrayBuffer().catch(() => undefined);
  if (res.ok) return { status: res.status };
  const why = `kill webhook ${url.host} answered HTTP ${res.status}`;
  // the CMS refused it: sending again will not help
  if (res.status < 500 && res.status !== 429) throw new UnrecoverableError(why);
  throw new Error(why);
}
