import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RetentionRun, RunOptions } from '../retention/retentionService';
import { JOBS, QUEUES, RETENTION_SCHEDULER, queuePrefix, retentionJobOptions } from '../../queues/definitions';
import type { Queues } from '../../queues/queues';
import { RETENTION_LOCK_MS } from '../retention/retentionRuntime';

/**
 * The retention job: a BullMQ job scheduler on its own queue (`photowire-retention`)
 * adds one job every PHOTOWIRE_RETENTION_EVERY; this thin worker hands it to the retention service
 * (src/app/retention/retentionService.ts), which does the pass, its lock and its log.
 */
export function createRetentionWorker(
  service: { run(opts: RunOptions): Promise<RetentionRun> },
  connection: Redis,
  prefix: string,
): Worker {
  return new Worker(
    QUEUES.retention,
    // A job taken again after its worker died finds the dead holder's lock: it waits for the lease to run out, then resumes the pass.
    (job) => service.run({ trigger: 'schedule', jobId: job.id, waitForLockMs: 2 * RETENTION_LOCK_MS }),
    { connection, prefix: queuePrefix(prefix), concurrency: 1 },
  );
}

/**
 * The job scheduler, upserted by every worker process at start (one per prefix: the same id and
 * interval keep the next run where it was, so restarts never postpone it); `everyMs` 0 removes it.
 * A new scheduler's first run is one interval from now.
 */
export async function scheduleRetention(queues: Queues, everyMs: number): Promise<void> {
  const queue = queues.queue('retention');
  if (everyMs <= 0) {
    await queue.removeJobScheduler(RETENTION_SCHEDULER);
    return;
  }
  await queue.upsertJobScheduler(
    RETENTION_SCHEDULER,
    { every: everyMs, startDate: Date.now() + everyMs },
    { name: JOBS.retentionPass, data: {}, opts: retentionJobOptions() },
  );
}
