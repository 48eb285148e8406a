import ms, { type StringValue } from 'ms';
import { killIdOf, type KillEvent, type KillItemInfo } from '../../adapters/redis/killStore';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { NoticeRef } from '../../schemas/notice';
import type { PipelineContext } from '../pipelineContext';
import { killStoreOf } from './itemKills';
import { queueKillWebhook, type WebhookQueued } from '../killWebhook';

type Ctx = Pick<PipelineContext, 'redis' | 'config'> & { logger?: Logger; config: Config };

export interface ManualKillResult {
  event: KillEvent;
  /** item: the target was an item id photowire knows; agency: an agency id (guid, transmission reference). */
  targetKind: 'item' | 'agency';
  /** The webhook job (delivered and retried by the workers), or why none was queued; null when no webhook is set. */
  webhook: WebhookQueued | null;
}

/**
 * A kill typed by a person (photowire kill, the desk): by item id when photowire knows it, else by
 * agency id. Stored once, applied to every record it reaches; items that arrive later with that
 * id are killed on arrival. The webhook is queued (a job the workers deliver and retry), or refused with the reason.
 */
export async function manualKill(ctx: Ctx, target: string, reason: string, opts: { kind?: 'kill' | 'withdraw'; now?: Date } = {}): Promise<ManualKillResult> {
  const store = killStoreOf(ctx);
  const now = opts.now ?? new Date();
  const kind = opts.kind ?? 'kill';
  const isItem = await store.hasItem(target);
  const notice: NoticeRef = { itemId: isItem ? target : '', batchId: '', kind: 'manual', source: 'manual', text: reason, targets: [target], receivedAt: now.toISOString() };
  const event = await store.apply({
    id: killIdOf(['manual', kind, target, reason, now.toISOString()]),
    kind,
    targets: isItem ? { agencyIds: [], itemIds: [target] } : { agencyIds: [target], itemIds: [] },
    reason,
    notice,
    now,
  });
  const webhook = ctx.config.killWebhook ? await queueKillWebhook(ctx, event) : null;
  return { event, targetKind: isItem ? 'item' : 'agency', webhook };
}

export interface KillReport extends KillEvent {
  /** Every record it reached, with where it is stored. */
  copies: Array<KillItemInfo | { itemId: string; batchId: null }>;
  /** Near-identical captions to look at, with where they are. */
  reviewCopies: Array<KillItemInfo | { itemId: string; batchId: null }>;
}

/** Kills, withdrawals and corrections since `sinceMs`, newest first, each with every copy it reached. */
export async function listKills(ctx: Pick<PipelineContext, 'redis' | 'config'>, sinceMs: number, limit = 200): Promise<KillReport[]> {
  const store = killStoreOf(ctx);
  const events = await store.list(sinceMs, limit);
  const info = await store.itemInfo([...new Set(events.flatMap((e) => [...e.items, ...e.review]))]);
  const where = (id: string) => info.get(id) ?? { itemId: id, batchId: null };
  return events.map((e) => ({ ...e, copies: e.items.map(where), reviewCopies: e.review.map(where) }));
}

/** "3d", "12h", "90m" (any `ms` duration with a unit: "2 weeks"), or an ISO date: the start of a `--since` window. */
export function parseSince(raw: string | undefined, now = Date.now()): number | null {
  if (raw === undefined) return now - 3 * 86_400_000;
  // A unit is required: a bare number such as 2026 is a date (the year), not milliseconds.
  const text = raw.trim();
  if (/^\d+(?:\.\d+)?\s*[a-z]+$/i.test(text)) {
    const span = ms(text as StringValue) as number | undefined;
    if (typeof span === 'number' && Number.isFinite(span)) return now - span;
  }
  const t = Date.parse(raw);
  return Number.isNaN(t) ? null : t;
}
