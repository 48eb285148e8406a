import { describeRedis } from '../../adapters/redis/ensureRedis';
import { printable } from '../../core/terminalText';
import { ingestPaths } from '../ingestPaths';
import { UsageError } from '../usageError';
import { formatFeedError, formatSummary } from '../printSummary';
import { Runtime } from '../../app/runtime';
import { onShutdown } from '../shutdown';
import { waitForBatches } from '../waitForBatches';
import { generateSampleFeed } from '../../sample/generateSample';

export interface RunOptions {
  json?: boolean;
  sample?: boolean;
  concurrency?: number;
}

/**
 * The single-machine main job: workers in this process, each feed a batch, wait, summarize, exit.
 * Exit code 0 when every item is ok, 1 when any item or feed failed.
 */
export async function runCommand(paths: string[], opts: RunOptions): Promise<number> {
  if (paths.length === 0 && !opts.sample) {
    throw new UsageError(
      'run: nothing to run: give one or more feeds, or --sample',
      'photowire run path/to/feed [more feeds...]   or   photowire run --sample',
    );
  }
  // Per-item log lines would bury the progress bar and summary: `run` logs warnings and errors only unless LOG_LEVEL says otherwise.
  const rt = await Runtime.open({ allowPrivateRedis: true, defaultLogLevel: 'warn' });
  // Interrupted, the run's work is unfinished: exit 130 once in-flight items are done.
  const shutdown = onShutdown({
    stop: () => rt.close(),
    notice: {
      write: (text) => process.stderr.write(text),
      first: '\nstopping: finishing in-flight items (Ctrl-C again to force)\n',
    },
    stoppedExitCode: 130,
  });
  try {
    if (!opts.json) {
      process.stderr.write(
        rt.redisHandle.private
          ? `no Redis on 127.0.0.1:6379 and no REDIS_URL: using ${describeRedis(rt.redisHandle)} for this run (records stay in ${rt.ctx.storage.locate('batches/')})\n`
          : `using ${describeRedis(rt.redisHandle)}${rt.config.redisUrl ? ' (REDIS_URL)' : ''}\n`,
      );
    }
    const feeds = [...paths];
    if (opts.sample) {
      const sample = await generateSampleFeed(rt.config.dataDir);
      if (!opts.json) process.stderr.write(printable`sample feed: ${sample.feeds.join(', ')}\n`);
      feeds.push(...sample.feeds);
    }
    await rt.startWorkers(opts.concurrency);
    const outcomes = await ingestPaths(rt, feeds);
    const ids = outcomes.filter((o) => o.batchId).map((o) => o.batchId!);
    await waitForBatches(rt, ids, { progress: !opts.json });
    const summaries = (await rt.ingest.summarize(ids)).flatMap((s) => (s ? [s] : []));
    const feedErrors = outcomes.filter((o) => o.error);
    if (opts.json) {
      const out = {
        batches: summaries.map((s) => ({
          ...s,
          batchId: s.batchId,
          items: s.items,
          ok: s.ok,
          failed: s.failed,
          durationMs: s.durationMs,
        })),
        feedErrors: feedErrors.map((o) => ({ path: o.path, ...o.error })),
        items: summaries.reduce((n, s) => n + s.items, 0),
        ok: summaries.reduce((n, s) => n + s.ok, 0),
        failed: summaries.reduce((n, s) => n + s.failed, 0),
      };
      process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    } else {
      for (const s of summaries) process.stdout.write(formatSummary(s) + '\n');
      for (const o of feedErrors) process.stdout.write(formatFeedError(o) + '\n');
      const reused = outcomes.filter((o) => o.batchId && !o.created);
      for (const o of reused)
        process.stdout.write(
          printable`note: ${o.path} was taken before as batch ${o.batchId}; nothing was added again\n`,
        );
    }
    const anyFailed = feedErrors.length > 0 || summaries.some((s) => s.failed > 0);
    return anyFailed ? 1 : 0;
  } finally {
    shutdown.dispose();
    if (!shutdown.signalled) await rt.close();
  }
}
