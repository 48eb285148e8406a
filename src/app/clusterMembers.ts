import type { CatalogRecord } from '../schemas/record';
import { splitItemId } from '../core/ids';

/** What reading members needs of the catalog (CatalogStore has it). */
export interface RecordsAtPort {
  recordsAt(batchId: string, indexes: number[]): Promise<Array<CatalogRecord | null>>;
}

/**
 * The records of these items (cluster members, from any batch), by item id: each
 * item id names its batch and batch index (`itemIdFor`), so each batch is read once, at those
 * indexes only (one HMGET), never as a whole. Items without a record (in flight, or an id that
 * names none) are left out.
 */
export async function recordsOfItems(
  catalog: RecordsAtPort,
  itemIds: readonly string[],
): Promise<Map<string, CatalogRecord>> {
  const byBatch = new Map<string, Map<number, string>>();
  for (const itemId of itemIds) {
    const id = splitItemId(itemId);
    if (!id) continue;
    const at = byBatch.get(id.batchId) ?? new Map<number, string>();
    at.set(id.index, itemId);
    byBatch.set(id.batchId, at);
  }
  const out = new Map<string, CatalogRecord>();
  for (const [batchId, at] of byBatch) {
    const indexes = [...at.keys()];
    const records = await catalog.recordsAt(batchId, indexes);
    // An id like `a-b-0001` may be read as batch `a-b`: only a record whose id is the member's counts.
    records.forEach((r, i) => {
      if (r && r.id === at.get(indexes[i])) out.set(r.id, r);
    });
  }
  return out;
}
