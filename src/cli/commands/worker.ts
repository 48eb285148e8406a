import { describeRedis } from '../../adapters/redis/ensureRedis';
import { Runtime } from '../../app/runtime';
import { onShutdown } from '../shutdown';

/** A long-running worker process: SIGTERM finishes in-flight jobs, a second signal forces exit. */
export async function workerCommand(opts: { concurrency?: number }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  await rt.startWorkers(opts.concurrency);
  rt.logger.info({ concurrency: opts.concurrency ?? rt.config.concurrency, redis: describeRedis(rt.redisHandle), dataDir: rt.config.dataDir, storage: rt.ctx.storage.describe }, 'worker ready');
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
