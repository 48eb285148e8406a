import { describeRedis } from '../../adapters/redis/ensureRedis';
import { Runtime } from '../runtime';

/** A long-running worker process: SIGTERM finishes in-flight jobs, a second signal forces exit. */
export async function workerCommand(opts: { concurrency?: number }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  await rt.startWorkers(opts.concurrency);
  rt.logger.info({ concurrency: opts.concurrency ?? rt.config.concurrency, redis: describeRedis(rt.redisHandle), dataDir: rt.config.dataDir }, 'worker ready');
  return new Promise((resolve) => {
    let signals = 0;
    const stop = (sig: string) => {
      signals++;
      if (signals > 1) {
        rt.logger.warn('second signal: exiting now; unfinished jobs go back to the queue when their lock expires');
        process.exit(130);
      }
      rt.logger.info({ signal: sig }, 'finishing in-flight jobs, then exiting');
      void rt.close().then(() => resolve(0));
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}
