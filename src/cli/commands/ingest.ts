import { loadFeed } from '../../adapters/feeds/loadFeed';
import { enqueueFeed } from '../../queues/enqueueFeed';
import { LedgerLostError } from '../../sources/waitForBatch';
import { ingestPaths, type IngestOutcome } from '../ingestPaths';
import { formatFeedError, formatSummary } from '../printSummary';
import { Runtime } from '../../app/runtime';
import { waitForBatches } from '../waitForBatches';
import { summarizeBatch } from '../../workers/summarizeBatch';

/**
 * Re-create a batch whose ledger vanished (Redis restarted without its data) from its feed: the
 * same feed (same content, so the same batch id) is enqueued again; items already recorded are
 * counted, not run twice into the counts.
 */
async function recreateFrom(rt: Runtime, outcomes: IngestOutcome[], batchId: string): Promise<string> {
  const o = outcomes.find((x) => x.batchId === batchId)!;
  const feed = await loadFeed(o.path, rt.config.maxFeedBytes);
  if (feed.batchId !== batchId) {
    throw new LedgerLostError(`batch ${batchId}: its ledger is gone from Redis and ${o.path} has changed since (it is now batch ${feed.batchId}): ingest it again as a new batch`, [batchId]);
  }
  const r = await enqueueFeed({ catalog: rt.ctx.catalog, flow: rt.flow, prefix: rt.config.prefix, attempts: rt.config.attempts }, feed);
  const ledger = await rt.ctx.catalog.getBatch(batchId);
  return `batch ${batchId}: re-created from ${o.path} (${r.expected} items, ${ledger ? ledger.ok + ledger.failed : 0} already recorded)`;
}

/** Enqueue feeds for workers running elsewhere (`photowire worker`, docker-compose). */
export async function ingestCommand(paths: string[], opts: { wait?: boolean; json?: boolean; recreate?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const outcomes = await ingestPaths(rt, paths);
    const ids = outcomes.filter((o) => o.batchId).map((o) => o.batchId!);
    if (opts.wait) {
      try {
        await waitForBatches(rt, ids, { progress: !opts.json, recreate: opts.recreate ? (id) => recreateFrom(rt, outcomes, id) : undefined });
      } catch (err) {
        if (!(err instanceof LedgerLostError)) throw err;
        process.stderr.write(`photowire: ${err.message}\n`);
        return 2;
      }
    }
    const summaries = await Promise.all(ids.map((id) => summarizeBatch(rt.ctx, id)));
    if (opts.json) {
      process.stdout.write(JSON.stringify({ feeds: outcomes, batches: summaries }, null, 2) + '\n');
    } else {
      for (const o of outcomes) {
        if (o.error) process.stdout.write(formatFeedError(o) + '\n');
        else if (!opts.wait) process.stdout.write(`${o.created ? 'enqueued' : 'already taken'}: ${o.path} as batch ${o.batchId} (${o.expected} items)\n`);
      }
      if (opts.wait) for (const s of summaries) if (s) process.stdout.write(formatSummary(s) + '\n');
    }
    // A batch is only fine when it is done with every item counted and its records.ndjson whole.
    const failed = outcomes.some((o) => o.error) || (opts.wait && summaries.some((s) => !s || s.failed > 0 || !s.complete));
    return failed ? 1 : 0;
  } finally {
    await rt.close();
  }
}
