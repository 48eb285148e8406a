import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { isInputError } from '../../core/errors';
import { JOBS, QUEUES, jobIds, scheduleJobOptions, queuePrefix } from '../../queues/definitions';
import { checkFetchAllowed } from '../../adapters/http/allowList';
import { RunLog } from '../../app/runs/runLog';
import type { SourceRuntime } from '../sourceRuntime';
import { droppedTick } from './catchUp';
import { ScheduleRunner } from './runSchedule';
import { isHttpSource, parseSchedulesFile, ScheduleError, type ScheduleDef } from '../../app/schedules/scheduleDef';
import { scheduleJobSchema, type ScheduleJob } from './scheduleJob';

export interface ScheduleInfo extends ScheduleDef {
  /** When the next run is due (ms), or null. */
  next: number | null;
}

export interface UpsertResult {
  next: number | null;
  /** A run that was due while nothing ran, added once because the upsert dropped it. */
  caughtUp: boolean;
}

/** How long a run of a schedule that is busy waits before trying again. */
const BUSY_RETRY_MS = 3000;

/**
 * Named imports on BullMQ job schedulers (queue `photowire-schedule`). The job scheduler itself is
 * the one record of a schedule (timing in its repeat options, source in its job template), so
 * `schedule add` from any machine and a config file applied at start agree by construction.
 */
export class Scheduler {
  readonly queue: Queue;
  readonly runner: ScheduleRunner;
  private readonly runs: RunLog;
  private worker: Worker | null = null;
  private workerConnection: Redis | null = null;

  constructor(
    private readonly rt: SourceRuntime,
    opts: { lockTtlMs?: number } = {},
  ) {
    this.queue = new Queue(QUEUES.schedule, { connection: rt.redis, prefix: queuePrefix(rt.config.prefix) });
    this.runner = new ScheduleRunner(rt, { ...opts, nextRunAt: async (name) => (await this.queue.getJobScheduler(name))?.next ?? null });
    this.runs = new RunLog(rt.redis, rt.config.prefix);
  }

  /** A schedule's source must be usable now: a folder that exists, or an allowed http(s) URL. */
  async checkSource(def: ScheduleDef): Promise<void> {
    if (isHttpSource(def.source)) {
      try {
        checkFetchAllowed(def.source, this.rt.config.fetchAllow);
      } catch (err) {
        if (isInputError(err)) throw new ScheduleError(`schedule ${def.name}: ${err.message}`);
        throw err;
      }
      return;
    }
    const st = await fs.stat(def.source).catch(() => null);
    if (!st?.isDirectory()) throw new ScheduleError(`schedule ${def.name}: source ${def.source} is not a folder (or an http(s) URL)`);
  }

  /** Create or update a schedule; safe to repeat at every start. */
  async upsert(def: ScheduleDef): Promise<UpsertResult> {
    await this.checkSource(def);
    const before = await this.queue.getJobScheduler(def.name);
    const data: ScheduleJob = { schedule: def.name, source: def.source, trigger: 'schedule' };
    const repeat = def.cron ? { pattern: def.cron, ...(def.tz ? { tz: def.tz } : {}) } : { every: def.every! };
    let job;
    try {
      job = await this.queue.upsertJobScheduler(def.name, repeat, { name: JOBS.scheduledImport, data, opts: scheduleJobOptions() });
    } catch (err) {
      throw new ScheduleError(`schedule ${def.name}: ${def.cron ? `cron ${JSON.stringify(def.cron)} was refused` : 'refused'} (${(err as Error).message})`);
    }
    const now = Date.now();
    const after = await this.queue.getJobScheduler(def.name);
    const pendingAfter = after?.next ?? (job ? now + (job.opts.delay ?? 0) : undefined);
    const tick = droppedTick(before?.next ?? undefined, pendingAfter, now);
    if (tick !== null) {
      await this.queue.add(JOBS.scheduledImport, { ...data, trigger: 'catch-up' } satisfies ScheduleJob, { ...scheduleJobOptions(), jobId: jobIds.catchUp(def.name, tick) });
      this.rt.logger.info({ schedule: def.name, missed: new Date(tick).toISOString() }, 'schedule: a run was due while nothing ran; catching up once');
    }
    await this.runs.registerSource('schedule', def.name, def.source, now);
    return { next: pendingAfter ?? null, caughtUp: tick !== null };
  }

  /** Apply PHOTOWIRE_SCHEDULES (when set): every schedule in the file is upserted. */
  async applyFile(file: string | undefined = this.rt.config.schedulesPath): Promise<ScheduleDef[]> {
    if (!file) return [];
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      throw new ScheduleError(`PHOTOWIRE_SCHEDULES=${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
    const defs = parseSchedulesFile(text, file);
    for (const def of defs) await this.upsert(def);
    return defs;
  }

  async get(name: string): Promise<ScheduleInfo | null> {
    const s = await this.queue.getJobScheduler(name);
    return s ? toInfo(s) : null;
  }

  async list(): Promise<ScheduleInfo[]> {
    return (await this.queue.getJobSchedulers(0, -1, true)).map(toInfo).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Remove the schedule; its cursor and runs are kept, so adding it back goes on from where it was. */
  async remove(name: string): Promise<boolean> {
    const removed = await this.queue.removeJobScheduler(name);
    if (removed) await this.runs.removeSource('schedule', name);
    return removed;
  }

  /** Queue a run now; the scheduler process runs it (after the current run, if one is going). */
  async runNow(name: string): Promise<string> {
    const s = await this.get(name);
    if (!s) throw new ScheduleError(`no schedule named ${name} (photowire schedule list)`);
    const jobId = jobIds.manualRun(name, Date.now(), randomBytes(3).toString('hex'));
    await this.queue.add(JOBS.scheduledImport, { schedule: name, source: s.source, trigger: 'manual' } satisfies ScheduleJob, { ...scheduleJobOptions(), jobId });
    return jobId;
  }

  /** Whether any `photowire scheduler` is consuming the queue. */
  async hasWorkers(): Promise<boolean> {
    return (await this.queue.getWorkersCount()) > 0;
  }

  /** Run scheduled imports in this process. */
  async startWorker(connection: Redis, opts: { concurrency?: number; stalledInterval?: number } = {}): Promise<void> {
    this.workerConnection = connection;
    this.worker = new Worker(QUEUES.schedule, (job, token) => this.handle(job, token), {
      connection,
      prefix: queuePrefix(this.rt.config.prefix),
      concurrency: opts.concurrency ?? 4,
      // A crashed run's job comes back (stalled) and finishes its pending batch; allow a few crashes.
      maxStalledCount: 3,
      ...(opts.stalledInterval ? { stalledInterval: opts.stalledInterval } : {}),
    });
    this.worker.on('error', (err) => this.rt.logger.error({ err, queue: QUEUES.schedule }, 'schedule worker error'));
    this.worker.on('failed', (job, err) => this.rt.logger.error({ schedule: job?.data?.schedule, runId: job?.id, err: err.message }, 'schedule: run failed'));
    await this.worker.waitUntilReady();
    await this.resumeInterrupted();
  }

  /** Queue the completion of runs a stop or crash interrupted (their batch is known; nothing is chosen again). */
  async resumeInterrupted(): Promise<number> {
    let n = 0;
    for (const s of await this.list()) {
      const pending = await this.runner.store.pending(s.name);
      if (!pending) continue;
      const data: ScheduleJob = { schedule: s.name, source: pending.source, trigger: 'resume' };
      await this.queue.add(JOBS.scheduledImport, data, { ...scheduleJobOptions(), jobId: jobIds.resumeRun(s.name, pending.runId, Date.now()) });
      this.rt.logger.info({ schedule: s.name, runId: pending.runId }, 'schedule: an interrupted run will be finished');
      n++;
    }
    return n;
  }

  private async handle(job: Job, token: string | undefined): Promise<unknown> {
    const parsed = scheduleJobSchema.safeParse(job.data);
    if (!parsed.success) throw new Error(`invalid schedule job payload: ${parsed.error.message}`);
    const data = parsed.data;
    const runId = String(job.id);
    const outcome = await this.runner.run(data, runId);
    if (outcome.state !== 'locked') return outcome;
    if (data.trigger === 'schedule') {
      // The tick's purpose is served by the run in progress and the next tick: ticks do not pile up behind a long run.
      this.rt.logger.info({ schedule: data.schedule, runId, busyWith: outcome.holder }, 'schedule: previous run still going; this tick is skipped');
      return { state: 'skipped', busyWith: outcome.holder };
    }
    await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
    throw new DelayedError();
  }

  /** Stop: runs in progress stop waiting (their batches go on in the workers) and are finished by the next start. */
  async close(): Promise<void> {
    this.runner.abortAll();
    if (this.worker) await this.worker.close();
    this.workerConnection?.disconnect();
    await this.queue.close();
  }
}

function toInfo(s: { key: string; name: string; pattern?: string; every?: number; tz?: string; next?: number; template?: { data?: unknown } }): ScheduleInfo {
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
