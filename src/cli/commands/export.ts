import { openRecordExport } from '../../app/records/exportRecords';
import { archivedSince } from '../../app/retention/archivedBatches';
import { Runtime } from '../../app/runtime';
import { printable } from '../../core/terminalText';
import { heapBound } from '../heapBound';

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
    const out = await openRecordExport(rt.ctx, batchId, opts);
    if (!out) {
      process.stderr.write(printable`no batch ${batchId} (photowire status lists recent batches)\n`);
      return 1;
    }
    const { archived, leftOut: left } = out;
    if (archived && !opts.json)
      process.stderr.write(
        printable`batch ${batchId} is ${archivedSince(archived)}: read from storage (${archived.records}), read-only\n`,
      );
    // The heap is kept near 80 MB between pages (src/cli/heapBound.ts: V8 alone let it reach ~160 MB).
    const heap = heapBound(80);
    if (opts.json)
      await write(
        `{"batchId":${JSON.stringify(batchId)},"archived":${archived ? JSON.stringify(archived.records) : 'null'},"records":[`,
      );
    let n = 0;
    for await (const r of out.records(() => heap.check())) {
      await write(opts.json ? `${n === 0 ? '\n' : ',\n'}${JSON.stringify(r)}` : JSON.stringify(r) + '\n');
      n++;
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

async function write(line: string): Promise<void> {
  if (!process.stdout.write(line)) await new Promise((res) => process.stdout.once('drain', res));
}
