import type { RetentionReport } from '../../core/retention/plan';
import { runRetentionPass, type RetentionOptions, type RetentionPorts } from './retentionPass';

/** One holder of the retention pass at a time (a lease in Redis that expires when its holder dies). */
export interface RetentionLockPort {
  /** The lock, or null while another pass holds it. */
  acquire(): Promise<{ release(): Promise<void>; readonly isLost: boolean } | null>;
  /** Who holds it now (a token naming the process), or null. */
  holder(): Promise<string | null>;
}

/** Redis's memory in use (INFO used_memory, summed over a cluster's masters), or null when it cannot be read. */
export interface RedisMemoryPort {
  usedBytes(): Promise<number | null>;
}

export interface RetentionServicePorts {
  /** Opened per pass (its BullMQ queues are closed after it). */
  openPass(): { ports: RetentionPorts; close(): Promise<void> };
  lock: RetentionLockPort;
  memory: RedisMemoryPort;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  retentionDays: number;
  /** PHOTOWIRE_DEDUP_RETENTION_DAYS: with the pass's captionIndex port, idle caption clusters leave the index. */
  dedupRetentionDays?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

export type RetentionTrigger = 'schedule' | 'cli';

export type RetentionRun =
  | { ran: true; trigger: RetentionTrigger; report: RetentionReport; bytesFreed: number | null; durationMs: number }
  | { ran: false; trigger: RetentionTrigger; reason: 'locked'; holder: string | null };

export interface RunOptions extends Partial<Omit<RetentionOptions, 'now'>> {
  now?: Date;
  trigger?: RetentionTrigger;
  /** How long to wait for a pass that holds the lock (a killed holder's lease runs out) before giving up; default 0. */
  waitForLockMs?: number;
  /** What the log names (the scheduled job's id). */
  jobId?: string;
}

/**
 * The retention pass as a service, for the scheduled job (src/app/jobs/retentionWorker.ts,
 * a BullMQ job scheduler every PHOTOWIRE_RETENTION_EVERY) and `photowire retention` alike; it never
 * touches BullMQ itself.
 *
 * Idempotent: one pass at a time (the lock); a second worker's job, or a retried one, that finds the
 * lock held waits for it up to `waitForLockMs`, then reports `ran: false` (nothing removed twice,
 * nothing failed). Resumable: the pass keeps its cursor in Redis (the batch being removed and its last
 * finished step), so a pass killed midway is finished by the next one, whoever runs it. Logged: one
 * line per pass with the batches archived, the keys and jobs removed, the failed items expired and the
 * bytes Redis freed (INFO used_memory before and after).
 */
export class RetentionService {
  constructor(private readonly deps: RetentionServicePorts) {}

  async run(opts: RunOptions = {}): Promise<RetentionRun> {
    const { trigger = 'cli', waitForLockMs = 0, jobId, now, ...passOpts } = opts;
    const clock = this.deps.now ?? (() => new Date());
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const log = this.deps.logger;
    // A dry run changes nothing: it needs no lock.
    const lock = passOpts.dryRun ? null : await this.acquire(waitForLockMs, sleep);
    if (!passOpts.dryRun && !lock) {
      const holder = await this.deps.lock.holder();
      log.info(
        { trigger, jobId, holder },
        'retention pass skipped: another pass holds the lock (it removes what this one would)',
      );
      return { ran: false, trigger, reason: 'locked', holder };
    }
    const started = Date.now();
    const before = passOpts.dryRun ? null : await this.deps.memory.usedBytes().catch(() => null);
    const { ports, close } = this.deps.openPass();
    try {
      const report = await runRetentionPass(ports, {
        now: now ?? clock(),
        retentionDays: this.deps.retentionDays,
        dedupRetentionDays: this.deps.dedupRetentionDays,
        ...passOpts,
      });
      const after = before === null ? null : await this.deps.memory.usedBytes().catch(() => null);
      const bytesFreed = before !== null && after !== null ? Math.max(0, before - after) : null;
      const durationMs = Date.now() - started;
      log.info(
        {
          trigger,
          jobId,
          dryRun: report.dryRun,
          batchesArchived: report.removed.length + report.resumed.length,
          archived: [...report.resumed, ...report.removed],
          keptNoExport: report.keptNoExport.length,
          keysRemoved: report.keysRemoved,
          jobsRemoved: report.jobsRemoved,
          runsRemoved: report.runsRemoved,
          failedExpired: report.failedExpired,
          bytesFreed,
          stoppedEarly: report.stoppedEarly,
          durationMs,
        },
        report.dryRun ? 'retention dry run' : 'retention pass finished',
      );
      return { ran: true, trigger, report, bytesFreed, durationMs };
    } finally {
      await close();
      await lock?.release();
    }
  }

  private async acquire(
    waitMs: number,
    sleep: (ms: number) => Promise<void>,
  ): Promise<{ release(): Promise<void> } | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const got = await this.deps.lock.acquire();
      if (got || Date.now() >= deadline) return got;
      await sleep(Math.min(1000, Math.max(10, deadline - Date.now())));
    }
  }
}
