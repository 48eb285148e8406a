import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { checkFetchAllowed } from '../../adapters/http/allowList';
import { BullmqScheduleQueue } from '../../adapters/schedules/bullmqScheduleQueue';
import { isInputError } from '../../core/errors';
import { jobIds } from '../../queues/definitions';
import { RunLog } from '../../adapters/redis/runLog';
import type { SourceRuntime } from '../runtime';
import { droppedTick } from './catchUp';
import type { ScheduleQueue, ScheduleServicePorts, StoredSchedule } from './ports';
import { isHttpSource, parseSchedulesFile, ScheduleError, type ScheduleDef } from './scheduleDef';
import type { ScheduleJob } from '../../schemas/scheduleJob';
import { ScheduleRunner } from './scheduleRunner';
import { ScheduleStore } from '../../adapters/redis/scheduleStore';

export type ScheduleInfo = StoredSchedule;

export interface UpsertResult {
  next: number | null;
  /** A run that was due while nothing ran, added once because the upsert dropped it. */
  caughtUp: boolean;
}

/**
 * Named imports: list, add, remove, run once, check a source. Over ports (the schedule queue,
 * the run log's sources, the pending run, the file system); never touches BullMQ itself.
 */
export class ScheduleService {
  private readonly now: () => number;
  private readonly nonce: () => string;

  constructor(private readonly ports: ScheduleServicePorts) {
    this.now = ports.now ?? Date.now;
    this.nonce = ports.nonce ?? (() => randomBytes(3).toString('hex'));
  }

  /** A schedule's source must be usable now: a folder that exists, or an allowed http(s) URL. */
  async checkSource(def: ScheduleDef): Promise<void> {
    if (isHttpSource(def.source)) {
      try {
        checkFetchAllowed(def.source, this.ports.fetchAllow);
      } catch (err) {
        if (isInputError(err)) throw new ScheduleError(`schedule ${def.name}: ${err.message}`);
        throw err;
      }
      return;
    }
    if (!(await this.ports.isFolder(def.source)))
      throw new ScheduleError(`schedule ${def.name}: source ${def.source} is not a folder (or an http(s) URL)`);
  }

  /** Create or update a schedule; safe to repeat at every start. A run dropped by the update is caught up once. */
  async upsert(def: ScheduleDef): Promise<UpsertResult> {
    await this.checkSource(def);
    const { queue } = this.ports;
    const before = await queue.get(def.name);
    const data: ScheduleJob = { schedule: def.name, source: def.source, trigger: 'schedule' };
    let created: { delayMs: number | null };
    try {
      created = await queue.upsert(
        def.name,
        def.cron ? { cron: def.cron, ...(def.tz ? { tz: def.tz } : {}) } : { every: def.every! },
        data,
      );
    } catch (err) {
      throw new ScheduleError(
        `schedule ${def.name}: ${def.cron ? `cron ${JSON.stringify(def.cron)} was refused` : 'refused'} (${(err as Error).message})`,
        { cause: err },
      );
    }
    const now = this.now();
    const after = await queue.get(def.name);
    const pendingAfter = after?.next ?? (created.delayMs !== null ? now + created.delayMs : undefined);
    const tick = droppedTick(before?.next ?? undefined, pendingAfter, now);
    if (tick !== null) {
      await queue.addRun({ ...data, trigger: 'catch-up' }, jobIds.catchUp(def.name, tick));
      this.ports.logger.info(
        { schedule: def.name, missed: new Date(tick).toISOString() },
        'schedule: a run was due while nothing ran; catching up once',
      );
    }
    await this.ports.sources.registerSource('schedule', def.name, def.source, now);
    return { next: pendingAfter ?? null, caughtUp: tick !== null };
  }

  /** Apply PHOTOWIRE_SCHEDULES (when set): every schedule in the file is upserted. */
  async applyFile(file: string | undefined = this.ports.schedulesPath): Promise<ScheduleDef[]> {
    if (!file) return [];
    let text: string;
    try {
      text = await this.ports.readFile(file);
    } catch (err) {
      throw new ScheduleError(
        `PHOTOWIRE_SCHEDULES=${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      );
    }
    const defs = parseSchedulesFile(text, file);
    for (const def of defs) await this.upsert(def);
    return defs;
  }

  get(name: string): Promise<ScheduleInfo | null> {
    return this.ports.queue.get(name);
  }

  async list(): Promise<ScheduleInfo[]> {
    return (await this.ports.queue.list()).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Remove the schedule; its cursor and runs are kept, so adding it back goes on from where it was. */
  async remove(name: string): Promise<boolean> {
    const removed = await this.ports.queue.remove(name);
    if (removed) await this.ports.sources.removeSource('schedule', name);
    return removed;
  }

  /** Queue a run now; the scheduler process runs it (after the current run, if one is going). */
  async runNow(name: string): Promise<string> {
    const s = await this.get(name);
    if (!s) throw new ScheduleError(`no schedule named ${name} (photowire schedule list)`);
    const jobId = jobIds.manualRun(name, this.now(), this.nonce());
    await this.ports.queue.addRun({ schedule: name, source: s.source, trigger: 'manual' }, jobId);
    return jobId;
  }

  /** Whether any `photowire scheduler` is consuming the queue. */
  async hasWorkers(): Promise<boolean> {
    return (await this.ports.queue.workerCount()) > 0;
  }

  /** Queue the completion of runs a stop or crash interrupted (their batch is known; nothing is chosen again). */
  async resumeInterrupted(): Promise<number> {
    let n = 0;
    for (const s of await this.list()) {
      const pending = await this.ports.pending(s.name);
      if (!pending) continue;
      await this.ports.queue.addRun(
        { schedule: s.name, source: pending.source, trigger: 'resume' },
        jobIds.resumeRun(s.name, pending.runId, this.now()),
      );
      this.ports.logger.info(
        { schedule: s.name, runId: pending.runId },
        'schedule: an interrupted run will be finished',
      );
      n++;
    }
    return n;
  }
}

/** The ports of a ScheduleService on a runtime (Redis, the file system, the config). */
export function schedulePorts(rt: SourceRuntime, queue: ScheduleQueue): ScheduleServicePorts {
  const store = new ScheduleStore(rt.redis, rt.config.prefix);
  return {
    queue,
    sources: new RunLog(rt.redis, rt.config.prefix),
    pending: (name) => store.pending(name),
    isFolder: async (p) => !!(await fs.stat(p).catch(() => null))?.isDirectory(),
    readFile: (p) => fs.readFile(p, 'utf8'),
    fetchAllow: rt.config.fetchAllow,
    schedulesPath: rt.config.schedulesPath,
    logger: rt.logger,
  };
}

/** The schedule service and its runner on a runtime, for commands and the scheduler process; `close` stops runs waiting and the queue. */
export class Schedules extends ScheduleService {
  readonly bull: BullmqScheduleQueue;
  readonly runner: ScheduleRunner;

  constructor(rt: SourceRuntime, opts: { lockTtlMs?: number } = {}) {
    const bull = new BullmqScheduleQueue(rt.ctx.queues);
    super(schedulePorts(rt, bull));
    this.bull = bull;
    this.runner = new ScheduleRunner(rt, { ...opts, nextRunAt: async (name) => (await bull.get(name))?.next ?? null });
  }

  async close(): Promise<void> {
    // The schedule queue is the runtime's (src/queues/queues.ts), closed with it.
    this.runner.abortAll();
  }
}
