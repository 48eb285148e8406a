import { killIdOf, recordProvider, type KillEvent, type StoredStatus } from '../../adapters/redis/killStore';
import { cleanId, isFeedProvider, isGlobalAgencyId } from '../../core/kills/identity';
import { queueKillWebhook } from '../killWebhook';
import type { Notice, NoticeRef } from '../../schemas/notice';
import type { CatalogRecord } from '../../schemas/record';
import type { ContextServices } from '../pipelineContext';

export function noticeRefOf(record: CatalogRecord, notice: Notice): NoticeRef {
  return {
    itemId: record.id,
    batchId: record.batchId,
    kind: notice.kind,
    source: notice.source,
    text: notice.text,
    targets: notice.targets,
    receivedAt: new Date().toISOString(),
  };
}

/**
 * The groups a notice carried by `record` starts from: each id it names in the id space of the
 * record's own provider (an AP notice kills AP's NYPS101, not another agency's), or alone when the
 * id is unique by itself. A notice whose item names no provider (a bare text advisory) cannot say
 * whose id it means: it names the bare id, any provider's.
 */
export function noticeGroups(record: CatalogRecord, targets: readonly string[]): string[] {
  const provider = recordProvider(record);
  const out = new Set<string>();
  for (const raw of targets) {
    const id = cleanId(raw);
    if (!id) continue;
    if (isGlobalAgencyId(id)) out.add(`a:${id}`);
    else if (isFeedProvider(provider)) out.add(`b:${id}`);
    else out.add(`a:${provider}/${id}`);
  }
  return [...out];
}

/**
 * The kill side of one record: index it (agency ids, photo id, resend, cluster); kill it
 * on arrival if one of those was killed; apply the kill, withdrawal or correction it carries to
 * every record that notice reaches. Returns the record with its status as it is now.
 */
export async function settleKills(
  ctx: ContextServices,
  record: CatalogRecord,
  notice: Notice | null,
): Promise<CatalogRecord> {
  const store = ctx.kills;
  const onArrival = await store.register(record);
  let status = onArrival;
  if (notice && (notice.kind === 'kill' || notice.kind === 'withdraw') && notice.targets.length > 0) {
    const event = await store.apply({
      id: killIdOf(['notice', record.id, notice.kind, ...notice.targets]),
      kind: notice.kind,
      targets: notice.targets,
      groups: noticeGroups(record, notice.targets),
      reason: notice.reason,
      notice: noticeRefOf(record, notice),
      by: `notice ${record.id}`,
    });
    await notify(ctx, event);
    status = (await store.statusOf([record.id])).get(record.id) ?? status;
  } else if (notice && notice.kind === 'correction') {
    // the versions it corrects: the ids it names, else the earlier items of its own guid
    const targets =
      notice.selfTargeted || notice.targets.length === 0
        ? [record.agencyId].filter((x): x is string => !!x)
        : notice.targets;
    if (targets.length > 0) {
      await store.apply({
        id: killIdOf(['correction', record.id, ...targets]),
        kind: 'correction',
        targets,
        groups: noticeGroups(record, targets),
        by: `notice ${record.id}`,
        reason: notice.reason,
        notice: noticeRefOf(record, notice),
        supersededBy: record.id,
      });
    }
    return { ...record, notice: noticeRefOf(record, notice) };
  }
  return withStatus(record, status);
}

/** The record with the kill status it has now (none: as built). */
function withStatus(record: CatalogRecord, status: StoredStatus | null): CatalogRecord {
  if (!status) return record;
  return {
    ...record,
    status: status.status,
    killedAt: status.killedAt,
    reason: status.reason,
    notice: status.notice,
    supersededBy: status.supersededBy,
  };
}

/** Whether settling a record applies its notice (a kill, withdrawal or correction it carries). */
function appliesNotice(notice: Notice | null): boolean {
  return (
    !!notice &&
    (((notice.kind === 'kill' || notice.kind === 'withdraw') && notice.targets.length > 0) ||
      notice.kind === 'correction')
  );
}

/**
 * `settleKills` of a chunk's records: those that carry no notice to apply are indexed
 * in one pipeline (KillStore.registerMany, one round trip for the chunk); the few that do are
 * settled one by one after them. Records in the order given.
 */
export async function settleKillsMany(
  ctx: ContextServices,
  entries: ReadonlyArray<{ record: CatalogRecord; notice: Notice | null }>,
): Promise<CatalogRecord[]> {
  const out: CatalogRecord[] = entries.map((e) => e.record);
  const plain = entries.flatMap((e, i) => (appliesNotice(e.notice) ? [] : [i]));
  const statuses = await ctx.kills.registerMany(plain.map((i) => entries[i].record));
  plain.forEach((i, j) => (out[i] = withStatus(entries[i].record, statuses[j])));
  for (let i = 0; i < entries.length; i++) {
    if (appliesNotice(entries[i].notice)) out[i] = await settleKills(ctx, entries[i].record, entries[i].notice);
  }
  return out;
}

/** The webhook (PHOTOWIRE_KILL_WEBHOOK) as a job: a slow CMS must not hold the item stage, a failing one is retried. */
async function notify(ctx: ContextServices, event: KillEvent): Promise<void> {
  if (!ctx.config.killWebhook || (event.itemCount ?? event.items.length) === 0) return;
  await queueKillWebhook(ctx, event);
}
