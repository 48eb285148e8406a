import { Runtime } from '../../app/runtime';
import { startHotFolders } from '../../app/hotFolder/hotFolderPorts';
import { serveUntilSignal } from '../shutdown';

/**
 * Hot folders: take what is dropped into the folders, once each and only when complete, until
 * SIGTERM (src/app/hotFolder/hotFolderService.ts). `--with-workers` also runs item and batch
 * workers here (one machine, one process).
 */
export async function watchCommand(
  dirs: string[],
  opts: { withWorkers?: boolean; concurrency?: number; settleMs?: number; scanMs?: number },
): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  let hot;
  try {
    if (opts.withWorkers) await rt.startWorkers(opts.concurrency);
    hot = await startHotFolders(rt, { dirs, settleMs: opts.settleMs, scanMs: opts.scanMs });
  } catch (err) {
    await rt.close();
    throw err;
  }
  rt.logger.info(
    { dirs: hot.dirs, settleMs: hot.settleMs, scanMs: hot.scanMs, workers: !!opts.withWorkers, owner: hot.owner },
    'watching hot folders',
  );
  return await serveUntilSignal(
    rt,
    () => hot.stop(),
    'stopping: files in progress stay in place and are taken over by the next watcher',
  );
}
