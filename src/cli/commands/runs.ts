import { Runtime } from '../../app/runtime';
import { formatOverdue, formatRuns, formatStale } from '../../app/runs/formatRuns';
import { RunLog } from '../../adapters/redis/runLog';
import { overdueBy, staleness } from '../../core/runs/stale';
import { Schedules } from '../../app/schedules/scheduleService';

/** Recent runs of schedules and hot folders, the sources that have gone quiet, the schedules nobody runs. */
export async function runsCommand(opts: { schedule?: string; limit?: number; json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  try {
    const log = new RunLog(rt.redis, rt.config.prefix);
    const runs = await log.list({ schedule: opts.schedule, limit: opts.limit ?? 30 });
    const now = Date.now();
    const sources = (await log.sources())
      .filter((s) => !opts.schedule || s.name === opts.schedule || (opts.schedule === 'watch' && s.kind === 'watch'))
      .map((status) => ({ status, staleness: staleness(status, now, rt.config.staleHours) }));
    const scheduler = new Schedules(rt);
    const overdue = (await scheduler.list().finally(() => scheduler.close()))
      .filter((s) => !opts.schedule || s.name === opts.schedule)
      .map((s) => ({ schedule: s.name, next: s.next, overdueMs: overdueBy(s.next, now) }))
      .filter((s) => s.overdueMs !== null);
    if (opts.json) {
      process.stdout.write(
        JSON.stringify({ runs, sources: sources.map((s) => ({ ...s.status, ...s.staleness })), overdue }, null, 2) +
          '\n',
      );
      return 0;
    }
    process.stdout.write(formatRuns(runs) + '\n');
    for (const line of formatStale(sources)) process.stdout.write(line + '\n');
    for (const o of overdue) {
      process.stdout.write(formatOverdue({ schedule: o.schedule, next: o.next! }) + '\n');
    }
    return 0;
  } finally {
    await rt.close();
  }
}
