import { ingestPaths } from '../ingestPaths';
import { formatFeedError, formatSummary } from '../printSummary';
import { Runtime } from '../runtime';
import { waitForBatches } from '../waitForBatches';
import { summarizeBatch } from '../../workers/summarizeBatch';

/** Enqueue feeds for workers running elsewhere (`photowire worker`, docker-compose). */
export async function ingestCommand(paths: string[], opts: { wait?: boolean; json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const outcomes = await ingestPaths(rt, paths);
    const ids = outcomes.filter((o) => o.batchId).map((o) => o.batchId!);
    if (opts.wait) await waitForBatches(rt, ids, { progress: !opts.json });
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
    const failed = outcomes.some((o) => o.error) || (opts.wait && summaries.some((s) => s && s.failed > 0));
    return failed ? 1 : 0;
  } finally {
    await rt.close();
  }
}
