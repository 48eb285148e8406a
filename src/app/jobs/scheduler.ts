import { DelayedError, Worker, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { scheduleJobSchema } from '../../schemas/scheduleJob';
import { Schedules } from '../schedules/scheduleService';
import { QUEUES, queuePrefix } from '../../queues/definitions';
import type { SourceRuntime } from '../runtime';

export type { ScheduleInfo, UpsertResult } from '../schedules/scheduleService';

/** How long a run of a schedule that is busy waits before trying again. */
const BUSY_RETRY_MS = 3000;

/**
 * The scheduler process: the schedule service (src/app/schedules/) plus the BullMQ worker that
 * runs scheduled imports through its ScheduleRunner.
 */
export class Scheduler extends Schedules {
  readonly queue: Queue;
  private worker: Worker | null = null;
  private workerConnection: Redis | null = null;

  constructor(
    private readonly rt: SourceRuntime,
    opts: { lockTtlMs?: number } = {},
  ) {
    super(rt, opts);
    this.queue = this.bull.queue;
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
    this.worker.on('failed', (job, err) =>
      this.rt.logger.error({ schedule: job?.data?.schedule, runId: job?.id, err: err.message }, 'schedule: run failed'),
    );
    await this.worker.waitUntilReady();
    await this.resumeInterrupted();
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
      this.rt.logger.info(
        { schedule: data.schedule, runId, busyWith: outcome.holder },
        'schedule: previous run still going; this tick is skipped',
      );
      return { state: 'skipped', busyWith: outcome.holder };
    }
    await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
    throw new DelayedError();
  }

  /** Stop: runs in progress stop waiting (their batches go on in the workers) and are finished by the next start. */
  override async close(): Promise<void> {
    this.runner.abortAll();
    if (this.worker) await this.worker.close();
    this.workerConnection?.disconnect();
    await super.close();
  }
}
