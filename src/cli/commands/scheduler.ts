import { createRedis } from '../../adapters/redis/connection';
import { Runtime } from '../../app/runtime';
import { serveUntilSignal } from '../shutdown';
import { Scheduler } from '../../app/jobs/scheduler';
import { describeTiming } from '../../app/schedules/scheduleDef';

/**
 * The long-running process of scheduled imports: applies PHOTOWIRE_SCHEDULES, then runs the
 * schedule worker until SIGTERM (`--with-workers`: item and batch workers too).
 */
export async function schedulerCommand(opts: { withWorkers?: boolean; concurrency?: number }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  const scheduler = new Scheduler(rt);
  try {
    const applied = await scheduler.applyFile();
    for (const d of applied)
      rt.logger.info({ schedule: d.name, timing: describeTiming(d), source: d.source }, 'schedule applied');
    if (opts.withWorkers) await rt.startWorkers(opts.concurrency);
    await scheduler.startWorker(createRedis(rt.redisHandle.url, { forWorker: true, name: 'photowire-scheduler' }));
  } catch (err) {
    await scheduler.close().catch(() => undefined);
    await rt.close();
    throw err;
  }
  const schedules = await scheduler.list();
  rt.logger.info({ schedules: schedules.map((s) => s.name), workers: !!opts.withWorkers }, 'scheduler ready');
  return await serveUntilSignal(
    rt,
    () => scheduler.close(),
    'stopping: a run in progress is finished by the next scheduler start',
  );
}
