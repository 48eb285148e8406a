import type { JobsOptions } from 'bullmq';
import { redisKeys } from '../adapters/redis/keys';

/**
 * The BullMQ prefix of every queue, worker and flow producer: `{<PHOTOWIRE_PREFIX>}`, a Redis Cluster
 * hash tag (BullMQ's docs: a flow's parent and children, in different queues, must share a slot).
 */
export function queuePrefix(prefix: string): string {
  return redisKeys(prefix).queuePrefix;
}

/** Every queue and job name photowire uses, in one place. */
export const QUEUES = {
  batch: 'photowire-batch',
  item: 'photowire-item',
  /** Scheduled imports: one job per run of a named schedule (src/app/jobs/scheduler.ts). */
  schedule: 'photowire-schedule',
  /** One PHOTOWIRE_KILL_WEBHOOK POST per kill (src/app/jobs/killWebhookWorker.ts). */
  killWebhook: 'photowire-kill-webhook',
  /** The retention pass, run by a job scheduler every PHOTOWIRE_RETENTION_EVERY (src/app/jobs/retentionWorker.ts). */
  retention: 'photowire-retention',
} as const;

export const JOBS = {
  finalizeBatch: 'finalize-batch',
  processItem: 'process-item',
  /** Caption-only items of a range of batch indexes (src/core/itemChunks.ts), in the item queue. */
  processChunk: 'process-chunk',
  scheduledImport: 'scheduled-import',
  killWebhook: 'kill-webhook',
  retentionPass: 'retention-pass',
} as const;

/** Job ids come from content ids, so adding the same batch or item twice is a no-op in BullMQ. */
export const jobIds = {
  batch: (batchId: string) => `batch-${batchId}`,
  item: (itemId: string) => `item-${itemId}`,
  /** The caption-only items of batch indexes [from, to): the range names the chunk (src/core/itemChunks.ts). */
  chunk: (batchId: string, from: number, to: number) => `chunk-${batchId}-${from}-${to}`,
  /** One catch-up per missed tick time, however many processes start at once. */
  catchUp: (schedule: string, tickMs: number) => `catchup-${schedule}-${tickMs}`,
  manualRun: (schedule: string, atMs: number, nonce: string) => `manual-${schedule}-${atMs}-${nonce}`,
  /** Finishing an interrupted run; a second one finds nothing left to finish. */
  resumeRun: (schedule: string, runId: string, atMs: number) =>
    `resume-${schedule}-${runId.replace(/:/g, '_')}-${atMs}`,
  /** One delivery per kill event: the same notice read twice sends once. */
  killWebhook: (killId: string) => `kill-webhook-${killId}`,
};

export function itemJobOptions(attempts: number): JobsOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    // A failed item must not hold its batch open forever: the parent runs and the failure is in the ledger.
    ignoreDependencyOnFailure: true,
    removeOnComplete: { age: 7 * 24 * 3600, count: 100_000 },
    removeOnFail: false,
  };
}

export function batchJobOptions(attempts: number): JobsOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 30 * 24 * 3600 },
    removeOnFail: false,
  };
}

/** A run that fails is recorded and waits for the next tick: retrying a whole import blindly helps no one. */
export function scheduleJobOptions(): JobsOptions {
  return {
    attempts: 1,
    removeOnComplete: { age: 90 * 24 * 3600, count: 10_000 },
    removeOnFail: { age: 90 * 24 * 3600, count: 10_000 },
  };
}

/** The retention job scheduler's id: one per prefix, whoever upserts it. */
export const RETENTION_SCHEDULER = 'retention';

/** A retention pass that fails is retried twice (the pass resumes from its cursor); a few are kept for the queue board. */
export function retentionJobOptions(): JobsOptions {
  return {
    attempts: 3,
    backoff: { type: 'exponential', delay: 5000 },
    removeOnComplete: { count: 50 },
    removeOnFail: { count: 50 },
  };
}

/** A kill's webhook: retried with backoff (1 s, 2 s, 4 s ...) until the CMS answers; kept done for 30 days so a notice read again is not sent again. */
export function killWebhookJobOptions(attempts: number): JobsOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 30 * 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}
