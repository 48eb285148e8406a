import { availabilityOf, type Availability } from '../core/records/availability';
import type { CatalogRecord } from '../schemas/record';
import type { PipelineContext } from './pipelineContext';
import { killStoreOf } from './kills/itemKills';

export type PresentedRecord = CatalogRecord & { availability: Availability };

/**
 * Records as readers return them (API, export, desk): the kill status stored beside the catalog
 * merged in (a kill applied after a record was stored), and whether it may be published now.
 */
export async function presentRecords(ctx: Pick<PipelineContext, 'redis' | 'config'>, records: CatalogRecord[], now = Date.now()): Promise<PresentedRecord[]> {
  const status = await killStoreOf(ctx).statusOf(records.map((r) => r.id));
  return records.map((r) => {
    const s = status.get(r.id);
    const merged: CatalogRecord = s
      ? { ...r, status: s.status, killedAt: s.killedAt, reason: s.reason, notice: s.notice, supersededBy: s.supersededBy }
      : { ...r, status: r.status ?? 'active', killedAt: r.killedAt ?? null, reason: r.reason ?? null, notice: r.notice ?? null, supersededBy: r.supersededBy ?? null };
    return { ...merged, availability: availabilityOf(merged, now) };
  });
}
