import { createInterface } from 'node:readline';
import type { CatalogRecord } from '../../schemas/record';
import type { BatchExportStore, ExportFile } from './batchExports';

export const EXPORT_FILES: readonly ExportFile[] = ['records.ndjson', 'summary.json'];

/**
 * An archived batch read from its export in storage (Retention): once the retention pass
 * has removed a batch from Redis, its records.ndjson and summary.json (`batches/<id>/...`, with local
 * storage under PHOTOWIRE_DATA_DIR) are the batch. Read-only; records a page at a time from the
 * ndjson stream, never the whole file in memory.
 */
export class BatchArchive {
  constructor(private readonly exports: BatchExportStore) {}

  /** The export files missing in storage ([] when both are there). */
  async missing(batchId: string): Promise<string[]> {
    const out: string[] = [];
    for (const name of EXPORT_FILES) {
      const s = await this.exports.read(batchId, name);
      if (s) s.destroy();
      else out.push(name);
    }
    return out;
  }

  async summary(batchId: string): Promise<unknown | null> {
    const s = await this.exports.read(batchId, 'summary.json');
    if (!s) return null;
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(Buffer.from(c as Buffer));
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  }

  /** Every record, in file order (export of an archived batch). Null when there is no export. */
  async records(batchId: string): Promise<AsyncIterable<CatalogRecord> | null> {
    const stream = await this.exports.read(batchId, 'records.ndjson');
    if (!stream) return null;
    return (async function* () {
      const lines = createInterface({ input: stream, crlfDelay: Infinity });
      try {
        for await (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as CatalogRecord;
      } finally {
        lines.close();
        stream.destroy();
      }
    })();
  }

  /**
   * One page of records (`offset`, `limit`), read from the stream up to the page's end; `total` is
   * the summary's item count when known. Null when there is no export.
   */
  async recordsPage(
    batchId: string,
    page: { offset: number; limit: number },
  ): Promise<{ records: CatalogRecord[]; total: number | null } | null> {
    const all = await this.records(batchId);
    if (!all) return null;
    const out: CatalogRecord[] = [];
    let i = 0;
    for await (const r of all) {
      if (i >= page.offset + page.limit) break;
      if (i >= page.offset) out.push(r);
      i++;
    }
    const s = (await this.summary(batchId)) as { items?: number; expected?: number } | null;
    const total = typeof s?.items === 'number' ? s.items : typeof s?.expected === 'number' ? s.expected : null;
    return { records: out, total };
  }
}
