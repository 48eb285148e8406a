import { presentRecords, type PresentedRecord } from '../../app/presentRecords';
import { printable } from '../../core/terminalText';
import { Runtime } from '../../app/runtime';
import { heapBound } from '../heapBound';
import { archivedBatches } from '../../app/retention/retentionRuntime';
import { archivedSince } from '../../app/retention/archivedBatches';
import type { CatalogRecord } from '../../schemas/record';

export interface ExportOptions {
  /** Also write records still under embargo (each says so in `availability`). */
  includeEmbargoed?: boolean;
  /**
   * One JSON document instead of NDJSON: `{"batchId", "archived", "records": [...], "leftOut":
   * {"killed", "withdrawn", "embargoed"}}`, the records written as they are read (never held whole).
   */
  json?: boolean;
}

/**
 * The batch's records as NDJSON on stdout, in feed order (failed items included, with `error`),
 * each with its kill status and `availability` at this moment. Killed and withdrawn records are
 * left out, embargoed ones too unless `--include-embargoed`; stderr says how many.
 * An archived batch (removed from Redis by retention) streams from its records.ndjson
 * in storage, read-only, and stderr says so. `--json`: one JSON document (ExportOptions.json).
 */
export async function exportCommand(batchId: string, opts: ExportOptions = {}): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    let pages: AsyncIterable<CatalogRecord[]>;
    let archivedFrom: string | null = null;
    const ledger = await rt.ctx.catalog.getBatch(batchId);
    if (ledger) {
      // A page of 500 at a time: a 100,000-item batch is never held whole.
      pages = rt.ctx.catalog.recordPages(batchId, ledger.expected);
    } else {
      const archive = archivedBatches(rt.ctx);
      const [archived, records] = await Promise.all([archive.open(batchId), archive.records(batchId)]);
      if (!archived || !records) {
        process.stderr.write(printable`no batch ${batchId} (photowire status lists recent batches)\n`);
        return 1;
      }
      if (!opts.json)
        process.stderr.write(
          printable`batch ${batchId} is ${archivedSince(archived)}: read from storage (${archived.records}), read-only\n`,
        );
      archivedFrom = archived.records;
      pages = inPages(records, 500);
    }
    const left = { killed: 0, withdrawn: 0, embargoed: 0 };
    // The heap is kept near 80 MB between pages (src/cli/heapBound.ts: V8 alone let it reach ~160 MB).
    const heap = heapBound(80);
    if (opts.json)
      await write(
        `{"batchId":${JSON.stringify(batchId)},"archived":${archivedFrom === null ? 'null' : JSON.stringify(archivedFrom)},"records":[`,
      );
    let n = 0;
    for await (const page of pages) {
      heap.check();
      for (const r of await presentRecords(rt.ctx, page)) {
        if (!keep(r, opts, left)) continue;
        await write(opts.json ? `${n === 0 ? '\n' : ',\n'}${JSON.stringify(r)}` : JSON.stringify(r) + '\n');
        n++;
      }
    }
    if (opts.json) {
      await write(`\n],"leftOut":${JSON.stringify(left)}}\n`);
      return 0;
    }
    const parts = [
      left.killed ? `${left.killed} killed` : '',
      left.withdrawn ? `${left.withdrawn} withdrawn` : '',
      left.embargoed ? `${left.embargoed} embargoed (--include-embargoed writes them)` : '',
    ].filter(Boolean);
    if (parts.length) process.stderr.write(`left out: ${parts.join(', ')}\n`);
    return 0;
  } finally {
    await rt.close();
  }
}

function keep(
  r: PresentedRecord,
  opts: ExportOptions,
  left: Record<'killed' | 'withdrawn' | 'embargoed', number>,
): boolean {
  const state = r.availability.state;
  if (state === 'killed' || state === 'withdrawn' || (state === 'embargoed' && !opts.includeEmbargoed)) {
    left[state]++;
    return false;
  }
  return true;
}

async function write(line: string): Promise<void> {
  if (!process.stdout.write(line)) await new Promise((res) => process.stdout.once('drain', res));
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
