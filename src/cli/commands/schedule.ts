import { Runtime } from '../../app/runtime';
import { printable } from '../../core/terminalText';
import { formatRuns } from '../../app/runs/formatRuns';
import { waitForRun } from '../../app/runs/waitForRun';
import { formatAt as at, formatScheduleList } from '../../app/schedules/formatSchedules';
import { Schedules } from '../../app/schedules/scheduleService';
import { describeTiming, normalizeScheduleDef } from '../../app/schedules/scheduleDef';

export interface ScheduleAddOptions {
  cron?: string;
  every?: string;
  tz?: string;
  source: string;
  json?: boolean;
}

/** Open the runtime and the schedule service (no worker), run `fn`, close (a ScheduleError is SCHEDULE_INVALID: exit 2 with its message). */
async function withScheduler(fn: (s: Schedules, rt: Runtime) => Promise<number>): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  const scheduler = new Schedules(rt);
  try {
    return await fn(scheduler, rt);
  } finally {
    await scheduler.close();
    await rt.close();
  }
}

export function scheduleAddCommand(name: string, opts: ScheduleAddOptions): Promise<number> {
  return withScheduler(async (s) => {
    const def = normalizeScheduleDef(
      { name, cron: opts.cron, every: opts.every, tz: opts.tz, source: opts.source },
      process.cwd(),
      'schedule add',
    );
    const r = await s.upsert(def);
    if (opts.json) process.stdout.write(JSON.stringify({ ...def, ...r }, null, 2) + '\n');
    else {
      const workers = await s.hasWorkers();
      // An interval schedule's first run is queued at once (BullMQ's \`every\`): its "next" is now, not one interval on.
      const dueNow = r.next !== null && r.next <= Date.now() + 1000;
      const when = dueNow
        ? workers
          ? 'first run now'
          : 'first run as soon as a `photowire scheduler` runs'
        : `next run ${at(r.next)}`;
      process.stdout.write(
        printable`schedule ${def.name}: ${describeTiming(def)}, source ${def.source}; ` +
          when +
          (dueNow ? printable`, then ${describeTiming(def)}` : '') +
          '\n',
      );
      if (r.caughtUp) process.stdout.write('  a run was due while nothing ran: it runs once now\n');
      if (!workers && !dueNow)
        process.stdout.write('  note: no `photowire scheduler` is running; runs start when one does\n');
    }
    return 0;
  });
}

export function scheduleListCommand(opts: { json?: boolean }): Promise<number> {
  return withScheduler(async (s) => {
    const list = await s.list();
    const last = await Promise.all(
      list.map(async (d) => (await s.runner.runs.list({ schedule: d.name, limit: 1 }))[0] ?? null),
    );
    process.stdout.write(
      opts.json
        ? JSON.stringify(
            list.map((d, i) => ({ ...d, lastRun: last[i] })),
            null,
            2,
          ) + '\n'
        : formatScheduleList(list, last),
    );
    return 0;
  });
}

export function scheduleRemoveCommand(name: string, opts: { reset?: boolean }): Promise<number> {
  return withScheduler(async (s) => {
    const removed = await s.remove(name);
    if (!removed) {
      process.stderr.write(printable`photowire: no schedule named ${name} (photowire schedule list)\n`);
      return 1;
    }
    if (opts.reset) await s.runner.store.reset(name);
    process.stdout.write(
      printable`schedule ${name} removed${opts.reset ? ' and its cursor forgotten' : '; its cursor and runs are kept'}\n`,
    );
    return 0;
  });
}

export function scheduleRunCommand(
  name: string,
  opts: { wait?: boolean; json?: boolean; timeoutMs?: number },
): Promise<number> {
  return withScheduler(async (s) => {
    const runId = await s.runNow(name);
    const workers = await s.hasWorkers();
    if (!opts.wait) {
      if (opts.json) process.stdout.write(JSON.stringify({ runId, schedulerRunning: workers }) + '\n');
      else
        process.stdout.write(
          printable`run ${runId} queued${workers ? '' : '; no `photowire scheduler` is running: it starts when one does'}\n`,
        );
      return 0;
    }
    if (!workers) process.stderr.write('photowire: waiting, but no `photowire scheduler` is running yet\n');
    const run = await waitForRun(s.runner.runs, runId, { timeoutMs: opts.timeoutMs ?? 24 * 3_600_000 });
    if (!run) {
      process.stderr.write(printable`photowire: run ${runId} has not finished\n`);
      return 1;
    }
    process.stdout.write(opts.json ? JSON.stringify(run, null, 2) + '\n' : formatRuns([run]) + '\n');
    return run.state === 'failed' || run.failed > 0 ? 1 : 0;
  });
}
