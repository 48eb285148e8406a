import type { ScheduleJob, ScheduleRepeat, StoredSchedule } from '../../schemas/scheduleJob';

export type { ScheduleRepeat, StoredSchedule };

/**
 * The queue of scheduled imports (BullMQ job schedulers in production,
 * src/adapters/schedules/bullmqScheduleQueue.ts; an in-memory fake in the unit tests).
 */
export interface ScheduleQueue {
  get(name: string): Promise<StoredSchedule | null>;
  list(): Promise<StoredSchedule[]>;
  /** Create or update the job scheduler; the delay of the job it created (ms), if any. */
  upsert(name: string, repeat: ScheduleRepeat, data: ScheduleJob): Promise<{ delayMs: number | null }>;
  remove(name: string): Promise<boolean>;
  /** One run job now (a catch-up, a manual run, the end of an interrupted run), with its job id. */
  addRun(data: ScheduleJob, jobId: string): Promise<void>;
  workerCount(): Promise<number>;
}

/** The run log's source registry (src/app/runs/runLog.ts). */
export interface ScheduleSources {
  registerSource(kind: 'schedule', name: string, source: string, now: number): Promise<void>;
  removeSource(kind: 'schedule', name: string): Promise<void>;
}

export interface ScheduleServicePorts {
  queue: ScheduleQueue;
  sources: ScheduleSources;
  /** The run a stop or crash interrupted, if any (src/app/schedules/scheduleStore.ts). */
  pending(name: string): Promise<{ runId: string; source: string } | null>;
  /** Is this path a folder that exists now? */
  isFolder(path: string): Promise<boolean>;
  /** PHOTOWIRE_SCHEDULES's text (throws with the errno code when unreadable). */
  readFile(path: string): Promise<string>;
  fetchAllow: string[];
  schedulesPath?: string;
  logger: { info(obj: object, msg: string): void };
  now?: () => number;
  /** The random part of a manual run's job id. */
  nonce?: () => string;
}
