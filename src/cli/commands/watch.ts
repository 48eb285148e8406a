import { Runtime } from '../../app/runtime';
import { onShutdown } from '../shutdown';
import { Watcher } from '../../sources/hotFolder/watcher';

/**
 * Hot folders: take what is dropped into the folders, once each and only when complete, until
 * SIGTERM. `--with-workers` also runs item and batch workers here (one machine, one process).
 */
export async function watchCommand(dirs: string[], opts: { withWorkers?: boolean; concurrency?: number; settleMs?: number; scanMs?: number }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  const watcher = new Watcher(rt, { dirs, settleMs: opts.settleMs, scanMs: opts.scanMs });
  try {
    if (opts.withWorkers) await rt.startWorkers(opts.concurrency);
    await watcher.start();
  } catch (err) {
    await rt.close();
    throw err;
  }
  rt.logger.info(
    { dirs: watcher.dirs, settleMs: opts.settleMs ?? rt.config.settleMs, scanMs: opts.scanMs ?? rt.config.scanMs, workers: !!opts.withWorkers, owner: watcher.owner },
    'watching hot folders',
  );
  await onShutdown({
    stop: async () => {
      await watcher.stop();
      await rt.close();
    },
    notice: { logger: rt.logger, first: 'stopping: files in progress stay in place and are taken over by the next watcher' },
  }).stopped;
  return 0;
}
