import * as os from 'node:os';
import ms, { type StringValue } from 'ms';
import { killIdOf, type KillEvent, type KillItemInfo, type KillStore } from '../../adapters/redis/killStore';
import type { Config } from '../../config';
import { PhotowireError } from '../../core/errors';
import { isGlobalAgencyId, killTargetKind, providerKey, type KillTargetKind } from '../../core/kills/identity';
import type { Logger } from '../../logger';
import type { NoticeRef } from '../../schemas/notice';
import type { PipelineContext } from '../pipelineContext';
import { queueKillWebhook, type WebhookQueued } from '../killWebhook';

type Ctx = Pick<PipelineContext, 'redis' | 'config' | 'queues' | 'kills'> & { logger?: Logger; config: Config };

/** Who is acting, for the audit trail: PHOTOWIRE_OPERATOR (config.operator), else the login of the process. */
export function operatorName(config: Pick<Config, 'operator'>): string {
  if (config.operator !== undefined) return config.operator;
  try {
    return os.userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** What a typed target stands for: its kind and the kill groups it starts from. */
export interface ResolvedTarget {
  kind: KillTargetKind;
  groups: string[];
  /** For a bare agency id: the provider it was scoped to ('' when none: any provider's id). */
  provider: string | null;
}

/**
 * A target typed by a person, read by its grammar (src/core/kills/identity.ts), never by whether
 * photowire has seen it yet: an item id is an item id while the item is still queued. A bare
 * agency id is scoped to the one provider it was seen from, to `agency` when given; seen from
 * several, it is refused with the candidates (two agencies' "1" are two photos); seen from none,
 * it stands for any provider's later arrival of that id.
 */
export async function resolveKillTarget(
  store: Pick<KillStore, 'providersOf'>,
  target: string,
  agency?: string,
): Promise<ResolvedTarget> {
  const t = target.trim();
  const kind = killTargetKind(t);
  if (kind === 'item') return { kind, groups: [`i:${t}`], provider: null };
  if (kind === 'photo') return { kind, groups: [`p:${t}`], provider: null };
  if (kind === 'original') return { kind, groups: [`o:${t}`], provider: null };
  if (isGlobalAgencyId(t)) return { kind, groups: [`a:${t}`], provider: null };
  if (agency && agency.trim()) {
    const p = providerKey(agency);
    if (!p)
      throw new PhotowireError(
        'USAGE',
        `--agency ${JSON.stringify(agency)}: give the agency's name or rules id (AP, DPA, "Getty Images")`,
      );
    const legacy = (await store.providersOf(t)).filter((g) => g === `a:${t}`);
    return { kind, groups: [`a:${p}/${t}`, ...legacy], provider: p };
  }
  const found = await store.providersOf(t);
  // `a:<id>` with no provider: indexed before ids were scoped; it goes with whichever provider is meant
  const legacy = found.filter((g) => g === `a:${t}`);
  const seen = found.filter((g) => g !== `a:${t}`);
  if (seen.length === 0 && legacy.length > 0) return { kind, groups: legacy, provider: '' };
  if (seen.length === 1)
    return { kind, groups: [seen[0], ...legacy], provider: seen[0].slice(2, seen[0].length - t.length - 1) };
  if (seen.length > 1) {
    const names = seen.map((g) => g.slice(2, g.length - t.length - 1));
    throw new PhotowireError(
      'KILL_TARGET_AMBIGUOUS',
      `${t} is an id of more than one provider: ${names.join(', ')}. Name the one meant: --agency ${names.find((n) => !n.startsWith('feed:')) ?? names[0]}`,
    );
  }
  return { kind, groups: [`b:${t}`], provider: '' };
}

export interface ManualKillResult {
  event: KillEvent;
  /** What the target was read as: photowire's item id, a photo id, a stored original, or an agency id. */
  targetKind: KillTargetKind;
  /** The provider a bare agency id was scoped to ('' none: any provider; null: not an agency id). */
  provider: string | null;
  /** Whether it reached any record now; if not it stands for later arrivals of that id only. */
  matched: boolean;
  /** The webhook job (delivered and retried by the workers), or why none was queued; null when no webhook is set. */
  webhook: WebhookQueued | null;
}

/**
 * A kill typed by a person (photowire kill, the desk): stored once, with who placed it, applied to
 * every record it reaches now, and standing for records that arrive later with that id. The
 * webhook is queued (a job the workers deliver and retry), or refused with the reason.
 */
export async function manualKill(
  ctx: Ctx,
  target: string,
  reason: string,
  opts: { kind?: 'kill' | 'withdraw'; agency?: string; by?: string; now?: Date } = {},
): Promise<ManualKillResult> {
  const store = ctx.kills;
  const now = opts.now ?? new Date();
  const kind = opts.kind ?? 'kill';
  const by = opts.by ?? operatorName(ctx.config);
  const t = target.trim();
  const resolved = await resolveKillTarget(store, t, opts.agency);
  const notice: NoticeRef = {
    itemId: resolved.kind === 'item' ? t : '',
    batchId: '',
    kind: 'manual',
    source: 'manual',
    text: reason,
    targets: [t],
    receivedAt: now.toISOString(),
  };
  const id = killIdOf(['manual', kind, ...resolved.groups, reason, now.toISOString()]);
  const event = await store.apply({ id, kind, targets: [t], groups: resolved.groups, reason, notice, by, now });
  await store.audit({ action: 'kill', killId: id, at: now.toISOString(), by, reason });
  const matched = (event.itemCount ?? event.items.length) > 0;
  const webhook = ctx.config.killWebhook && matched ? await queueKillWebhook(ctx, event) : null;
  return { event, targetKind: resolved.kind, provider: resolved.provider, matched, webhook };
}

/**
 * Lift a kill (a person's undo): kept with who, when and why; the records it had killed get the
 * status the other live kills give them (usually active again). NOT_FOUND when there is no such kill.
 */
export async function liftKill(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'kills'>,
  killId: string,
  reason: string,
  opts: { by?: string; now?: Date } = {},
) {
  const out = await ctx.kills.lift(killId.trim(), {
    by: opts.by ?? operatorName(ctx.config),
    reason,
    now: opts.now,
  });
  if (!out)
    throw new PhotowireError('NOT_FOUND', `no kill ${killId}: \`photowire kills --all\` lists them with their ids`);
  return out;
}

type Copy = KillItemInfo | { itemId: string; batchId: null };

export interface KillReport extends KillEvent {
  /** The records it reached (the first page), with where each is stored. */
  copies: Copy[];
  /** Near-identical captions to look at (first page), with where they are. */
  reviewCopies: Copy[];
}

async function withCopies(store: KillStore, events: KillEvent[]): Promise<KillReport[]> {
  const info = await store.itemInfo([...new Set(events.flatMap((e) => [...e.items, ...e.review]))]);
  const where = (id: string): Copy => info.get(id) ?? { itemId: id, batchId: null };
  return events.map((e) => ({ ...e, copies: e.items.map(where), reviewCopies: e.review.map(where) }));
}

/** Kills, withdrawals and corrections since `sinceMs`, newest first, each with its first copies; lifted ones with `all`. */
export async function listKills(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'kills'>,
  sinceMs: number,
  opts: { limit?: number; all?: boolean; copies?: number } = {},
): Promise<KillReport[]> {
  const store = ctx.kills;
  return withCopies(
    store,
    await store.list(sinceMs, { limit: opts.limit ?? 200, all: opts.all, itemsLimit: opts.copies ?? 200 }),
  );
}

/** A kill as the API and the desk show it: with where its first copies are. */
export async function killReport(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'kills'>,
  event: KillEvent,
): Promise<KillReport> {
  return (await withCopies(ctx.kills, [event]))[0];
}

/** A page of the records a kill reached (or listed for review), after an item id. */
export async function killCopiesPage(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'kills'>,
  killId: string,
  opts: { after?: string; limit?: number; review?: boolean },
): Promise<{ copies: Copy[]; total: number; next: string | null }> {
  const store = ctx.kills;
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 1000);
  const page = await store.reachedPage(killId, { after: opts.after, limit, review: opts.review });
  const info = await store.itemInfo(page.items);
  return {
    copies: page.items.map((id) => info.get(id) ?? { itemId: id, batchId: null }),
    total: page.total,
    next: page.items.length === limit ? page.items[page.items.length - 1] : null,
  };
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

/**
 * A kill placed from the desk (`POST /api/kills`), as the API answers it: the kill as stored with
 * the first records it reached, and how its target was read.
 */
export async function placeKillReport(
  ctx: Ctx,
  target: string,
  reason: string,
  opts: { kind?: 'kill' | 'withdraw'; agency?: string; by?: string },
) {
  const out = await manualKill(ctx, target, reason, opts);
  return {
    kill: await killReport(ctx, out.event),
    targetKind: out.targetKind,
    provider: out.provider,
    matched: out.matched,
    webhook: out.webhook,
  };
}

/** A kill lifted from the desk (`POST /api/kills/:id/lift`), as the API answers it. */
export async function liftKillReport(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'kills'>,
  killId: string,
  reason: string,
  opts: { by?: string } = {},
) {
  const out = await liftKill(ctx, killId, reason, opts);
  return { kill: await killReport(ctx, out.event), state: out.state, restored: out.restored };
}
