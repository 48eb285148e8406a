import { presentRecords, type PresentedRecord } from '../presentRecords';
import type { PipelineContext } from '../pipelineContext';
import { archivedBatches } from '../retention/retentionRuntime';
import type { ArchivedSummary } from '../retention/archivedBatches';
import type { CatalogRecord } from '../../schemas/record';

export type LeftOut = Record<'killed' | 'withdrawn' | 'embargoed', number>;

export interface RecordExport {
  /** The archived batch's summary when the batch was removed from Redis by retention (read from storage), else null. */
  archived: ArchivedSummary | null;
  /** The records to write, in feed order, each with its kill status and availability now; `onPage` runs between pages. */
  records(onPage?: () => void): AsyncIterable<PresentedRecord>;
  /** How many were left out so far, by reason. */
  leftOut: LeftOut;
}

/**
 * A batch's records for export (`photowire export`, a CMS import): killed and withdrawn ones left
 * out, embargoed ones too unless `includeEmbargoed`, counted in `leftOut`. A live batch is read
 * 500 records at a time (a 100,000-item batch is never held whole); an archived one streams from
 * its records.ndjson in storage. Null when there is no such batch.
 */
export async function openRecordExport(
  ctx: PipelineContext,
  batchId: string,
  opts: { includeEmbargoed?: boolean },
): Promise<RecordExport | null> {
  let pages: AsyncIterable<CatalogRecord[]>;
  let archivedSummary: ArchivedSummary | null = null;
  const ledger = await ctx.catalog.getBatch(batchId);
  if (ledger) {
    pages = ctx.catalog.recordPages(batchId, ledger.expected);
  } else {
    const archive = archivedBatches(ctx);
    const [archived, records] = await Promise.all([archive.open(batchId), archive.records(batchId)]);
    if (!archived || !records) return null;
    archivedSummary = archived;
    pages = inPages(records, 500);
  }
  const leftOut: LeftOut = { killed: 0, withdrawn: 0, embargoed: 0 };
  return {
    archived: archivedSummary,
    leftOut,
    async *records(onPage) {
      for await (const page of pages) {
        onPage?.();
        for (const r of await presentRecords(ctx, page)) {
          const state = r.availability.state;
          if (state === 'killed' || state === 'withdrawn' || (state === 'embargoed' && !opts.includeEmbargoed)) {
            leftOut[state]++;
            continue;
          }
          yield r;
        }
      }
    },
  };
}

/** A stream of records as pages of `size` (the kill status is read a page at a time). */
async function* inPages(records: AsyncIterable<CatalogRecord>, size: number): AsyncIterable<CatalogRecord[]> {
  let page: CatalogRecord[] = [];
  for await (const r of records) {
    page.push(r);
    if (page.length >= size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}
