import type { Queue } from 'bullmq';
import type { ScheduleJob, ScheduleRepeat, StoredSchedule } from '../../schemas/scheduleJob';
import { JOBS, scheduleJobOptions } from '../../queues/definitions';
import type { Queues } from '../../queues/queues';

/**
 * The schedule queue (the ScheduleQueue port of src/app/schedules/ports.ts) on BullMQ job schedulers (queue `photowire-schedule`). The job scheduler
 * itself is the one record of a schedule, so `schedule add` from any machine and a config file
 * applied at start agree by construction.
 */
export class BullmqScheduleQueue {
  readonly queue: Queue;

  constructor(queues: Queues) {
    this.queue = queues.queue('schedule');
  }

  async get(name: string): Promise<StoredSchedule | null> {
    const s = await this.queue.getJobScheduler(name);
    return s ? toStored(s) : null;
  }

  async list(): Promise<StoredSchedule[]> {
    return (await this.queue.getJobSchedulers(0, -1, true)).map(toStored);
  }

  async upsert(name: string, repeat: ScheduleRepeat, data: ScheduleJob): Promise<{ delayMs: number | null }> {
    const opts =
      'cron' in repeat ? { pattern: repeat.cron, ...(repeat.tz ? { tz: repeat.tz } : {}) } : { every: repeat.every };
    const job = await this.queue.upsertJobScheduler(name, opts, {
      name: JOBS.scheduledImport,
      data,
      opts: scheduleJobOptions(),
    });
    return { delayMs: job ? (job.opts.delay ?? 0) : null };
  }

  remove(name: string): Promise<boolean> {
    return this.queue.removeJobScheduler(name);
  }

  async addRun(data: ScheduleJob, jobId: string): Promise<void> {
    await this.queue.add(JOBS.scheduledImport, data, { ...scheduleJobOptions(), jobId });
  }

  workerCount(): Promise<number> {
    return this.queue.getWorkersCount();
  }
}

function toStored(s: {
  key: string;
  pattern?: string | null;
  every?: number | null;
  tz?: string | null;
  next?: number;
  template?: { data?: unknown };
}): StoredSchedule {
  const data = (s.template?.data ?? {}) as Partial<ScheduleJob>;
  return {
    name: s.key,
    ...(s.pattern ? { cron: s.pattern } : {}),
    ...(s.every ? { every: s.every } : {}),
    ...(s.tz ? { tz: s.tz } : {}),
    source: data.source ?? '',
    next: s.next ?? null,
  };
}
