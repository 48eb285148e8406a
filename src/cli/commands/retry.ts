import { retryItems, type RetryOutcome } from '../../app/batches/retryItems';
import { printable } from '../../core/terminalText';
import { formatSummary } from '../printSummary';
import { Runtime, type BatchSummary } from '../../app/runtime';
import { waitForBatches } from '../waitForBatches';

export interface RetryOptions {
  wait?: boolean;
  json?: boolean;
  withWorkers?: boolean;
  concurrency?: number;
}

/**
 * Put a batch's failed items (or one failed item) back in the queue: idempotent (a second call
 * while they are queued adds nothing), the ledger and records.ndjson are updated when they end.
 * With --wait (implied by --with-workers) it waits and prints the batch summary.
 * Exit 0 when the batch ends with no failed item (or, without waiting, when there was something to
 * queue or nothing had failed), 1 otherwise.
 */
export async function retryCommand(id: string, opts: RetryOptions): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    if (opts.withWorkers) await rt.startWorkers(opts.concurrency);
    const out = await retryItems(rt, id);
    // An archived batch is read-only: retryItems throws BATCH_ARCHIVED, its exit code from the registry.
    if (!out) {
      process.stderr.write(printable`no batch or item ${id} (photowire failed lists failed items)\n`);
      return 1;
    }
    // A batch still open (its items still queued, as Redis out of memory left it) is waited for
    // too: `retry --wait` ends when the batch is whole, whatever was queued by this call.
    const open = (await rt.ctx.catalog.getBatch(out.batchId))?.state !== 'done';
    const wait = (opts.wait || opts.withWorkers) && (out.retried.length + out.pending.length > 0 || open);
    if (wait) await waitForBatches(rt, [out.batchId], { progress: !opts.json });
    const [summary] = wait ? await rt.ingest.summarize([out.batchId]) : [null];
    if (opts.json) process.stdout.write(JSON.stringify({ ...out, batch: summary }, null, 2) + '\n');
    else process.stdout.write(describe(out, summary));
    if (summary) return summary.failed > 0 ? 1 : 0;
    return out.retried.length + out.pending.length > 0 || out.skipped.length === 0 ? 0 : 1;
  } finally {
    await rt.close();
  }
}

function describe(out: RetryOutcome, summary: BatchSummary | null): string {
  const lines: string[] = [];
  if (out.retried.length)
    lines.push(
      printable`queued again: ${out.retried.length} item${out.retried.length === 1 ? '' : 's'} of batch ${out.batchId}: ${out.retried.join(', ')}`,
    );
  if (out.pending.length) lines.push(printable`already queued or running (nothing added): ${out.pending.join(', ')}`);
  for (const s of out.skipped) lines.push(printable`not retried: ${s.itemId}: ${s.reason}`);
  if (!out.retried.length && !out.pending.length && !out.skipped.length)
    lines.push(printable`batch ${out.batchId}: no failed items to retry`);
  if (summary) lines.push(formatSummary(summary));
  else if (out.retried.length)
    lines.push(
      printable`running workers take them now; \`photowire status ${out.batchId}\` shows the outcome (or retry with --wait)`,
    );
  return lines.join('\n') + '\n';
}
