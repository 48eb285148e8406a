import { availabilityOf, type Availability } from '../core/records/availability';
import type { CatalogRecord } from '../schemas/record';
import type { PipelineContext } from './pipelineContext';

export type PresentedRecord = CatalogRecord & { availability: Availability };

/** What availability is computed from: a whole record, or what the renditions route keeps of one. */
export type StatusFields = Pick<
  CatalogRecord,
  'id' | 'status' | 'killedAt' | 'reason' | 'notice' | 'supersededBy' | 'release'
>;

/**
 * Records as readers return them (API, export, desk, the renditions route): the kill status stored
 * beside the catalog merged in (a kill applied after a record was stored), and whether it may be
 * published now.
 */
export async function presentRecords<T extends StatusFields = CatalogRecord>(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'kills'>,
  records: T[],
  now = Date.now(),
): Promise<Array<T & { availability: Availability }>> {
  const status = await ctx.kills.statusOf(records.map((r) => r.id));
  return records.map((r) => {
    const s = status.get(r.id);
    const merged: T = s
      ? {
          ...r,
          status: s.status,
          killedAt: s.killedAt,
          reason: s.reason,
          notice: s.notice,
          supersededBy: s.supersededBy,
        }
      : {
          ...r,
          status: r.status ?? 'active',
          killedAt: r.killedAt ?? null,
          reason: r.reason ?? null,
          notice: r.notice ?? null,
          supersededBy: r.supersededBy ?? null,
        };
    return { ...merged, availability: availabilityOf(merged, now) };
  });
}
