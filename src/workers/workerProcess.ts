import { describeRedis } from '../adapters/redis/ensureRedis';
import { Runtime } from '../app/runtime';

/**
 * The worker process, an entry point: one runtime whose BullMQ workers (src/app/jobs: item, batch,
 * retention, kill webhook) take jobs until a signal. SIGTERM finishes in-flight jobs, a second
 * signal forces exit (the CLI hands in its signal handling). `photowire worker` starts it; add machines by starting more of it.
 */
export async function runWorkerProcess(
  opts: { concurrency?: number },
  onShutdown: (handle: {
    stop: () => Promise<void>;
    notice: { logger: Runtime['logger']; first: string; second: string };
  }) => { stopped: Promise<unknown> },
): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  await rt.startWorkers(opts.concurrency);
  rt.logger.info(
    {
      concurrency: opts.concurrency ?? rt.config.concurrency,
      redis: describeRedis(rt.redisHandle),
      dataDir: rt.config.dataDir,
      storage: rt.ctx.storage.describe,
    },
    'worker ready',
  );
  await onShutdown({
    stop: () => rt.close(),
    notice: {
      logger: rt.logger,
      first: 'finishing in-flight jobs, then exiting',
      second: 'second signal: exiting now; unfinished jobs go back to the queue when their lock expires',
    },
  }).stopped;
  return 0;
}
