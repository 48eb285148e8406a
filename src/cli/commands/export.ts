import { presentRecords } from '../../app/presentRecords';
import { Runtime } from '../../app/runtime';
import { heapBound } from '../heapBound';

export interface ExportOptions {
  /** Also write records still under embargo (each says so in `availability`). */
  includeEmbargoed?: boolean;
}

/**
 * The batch's records as NDJSON on stdout, in feed order (failed items included, with `error`),
 * each with its kill status and `availability` at this moment. Killed and withdrawn records are
 * left out, embargoed ones too unless `--include-embargoed` (issue 16); stderr says how many.
 */
export async function exportCommand(batchId: string, opts: ExportOptions = {}): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const ledger = await rt.ctx.catalog.getBatch(batchId);
    if (!ledger) {
      process.stderr.write(`no batch ${batchId} (photowire status lists recent batches)\n`);
      return 1;
    }
    const left = { killed: 0, withdrawn: 0, embargoed: 0 };
    // A page of 500 at a time (issue 14): a 100,000-item batch is never held whole, and the heap
    // is kept near 80 MB between pages (src/cli/heapBound.ts: V8 alone let it reach ~160 MB).
    const heap = heapBound(80);
    for await (const page of rt.ctx.catalog.recordPages(batchId, ledger.expected)) {
      heap.check();
      for (const r of await presentRecords(rt.ctx, page)) {
        const state = r.availability.state;
        if (state === 'killed' || state === 'withdrawn') {
          left[state]++;
          continue;
        }
        if (state === 'embargoed' && !opts.includeEmbargoed) {
          left.embargoed++;
          continue;
        }
        if (!process.stdout.write(JSON.stringify(r) + '\n')) await new Promise((res) => process.stdout.once('drain', res));
      }
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
