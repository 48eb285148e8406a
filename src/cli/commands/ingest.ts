import { LedgerLostError } from '../../app/ingest/waitForBatches';
import { awaitWorkers } from '../../app/ingest/awaitWorkers';
import { QUEUES } from '../../queues/definitions';
import { WorkerPresence } from '../../queues/workerPresence';
import { printable } from '../../core/terminalText';
import { Runtime } from '../../app/runtime';
import { ingestPaths } from '../ingestPaths';
import { formatFeedError, formatSummary } from '../printSummary';
import { waitForBatches } from '../waitForBatches';

/** Enqueue feeds for workers running elsewhere (`photowire worker`, docker-compose). */
export async function ingestCommand(
  paths: string[],
  opts: { wait?: boolean; waitForWorkers?: boolean; json?: boolean; recreate?: boolean },
): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const outcomes = await ingestPaths(rt, paths);
    const ids = outcomes.filter((o) => o.batchId).map((o) => o.batchId!);
    if (opts.wait && ids.length) {
      // Workers run elsewhere (`photowire worker`): with none, the wait would say "0% 0/2" for ever.
      const presence = new WorkerPresence(rt.ctx.queues);
      const where = `PHOTOWIRE_PREFIX ${rt.config.prefix}`;
      let waited = false;
      const found = await awaitWorkers(presence, { getBatch: (id) => rt.ctx.catalog.getBatch(id) }, ids, {
        wait: !!opts.waitForWorkers,
        onWaiting: (missing) => {
          waited = true;
          process.stderr.write(
            printable`photowire: no worker is consuming the ${missing.map((q) => QUEUES[q]).join(' and ')} queue (${where}); waiting for one (--wait-for-workers)\n`,
          );
        },
      });
      if (found.state === 'none') {
        process.stderr.write(
          printable`photowire: no worker is consuming the ${found.missing.map((q) => QUEUES[q]).join(' and ')} queue (${where}): batch ${ids.join(', ')} stays queued until one starts; run \`photowire worker\` with the same REDIS_URL and PHOTOWIRE_PREFIX, or add --wait-for-workers to wait for it\n`,
        );
        return 2;
      }
      if (waited) process.stderr.write('photowire: a worker is consuming the queue now\n');
    }
    if (opts.wait) {
      // A batch whose ledger vanished is re-created from its feed (same content, same batch id).
      const recreate = (id: string) => rt.ingest.recreate(outcomes.find((o) => o.batchId === id)!.path, id);
      try {
        await waitForBatches(rt, ids, { progress: !opts.json, recreate: opts.recreate ? recreate : undefined });
      } catch (err) {
        if (!(err instanceof LedgerLostError)) throw err;
        process.stderr.write(printable`photowire: ${err.message}\n`);
        return 2;
      }
    }
    const summaries = await rt.ingest.summarize(ids);
    if (opts.json) {
      process.stdout.write(JSON.stringify({ feeds: outcomes, batches: summaries }, null, 2) + '\n');
    } else {
      for (const o of outcomes) {
        if (o.error) process.stdout.write(formatFeedError(o) + '\n');
        else if (!opts.wait)
          process.stdout.write(
            printable`${o.created ? 'enqueued' : 'already taken'}: ${o.path} as batch ${o.batchId} (${o.expected} items)\n`,
          );
      }
      if (opts.wait) for (const s of summaries) if (s) process.stdout.write(formatSummary(s) + '\n');
    }
    // A batch is only fine when it is done with every item counted and its records.ndjson whole.
    const failed =
      outcomes.some((o) => o.error) || (opts.wait && summaries.some((s) => !s || s.failed > 0 || !s.complete));
    return failed ? 1 : 0;
  } finally {
    await rt.close();
  }
}
