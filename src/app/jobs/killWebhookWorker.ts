import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { KillStore } from '../../adapters/redis/killStore';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { QUEUES, queuePrefix } from '../../queues/definitions';
import { postKillWebhook } from '../killWebhook';

/**
 * Delivers kills' webhooks (QUEUES.killWebhook): reads the event as stored now (with every record it
 * has reached so far) and POSTs it once per attempt; BullMQ retries with backoff. Each outcome is logged.
 */
export function createKillWebhookWorker(
  ctx: { redis: Redis; config: Config; logger: Logger },
  connection: Redis,
): Worker {
  const store = new KillStore(ctx.redis, ctx.config.prefix);
  const w = new Worker(
    QUEUES.killWebhook,
    async (job: Job<{ killId: string }>) => {
      const killId = String(job.data?.killId ?? '');
      const log = ctx.logger.child({ queue: QUEUES.killWebhook, jobId: job.id, killId });
      const event = await store.getEvent(killId);
      if (!event) {
        log.warn('kill webhook: the kill is gone from the store, nothing sent');
        return { sent: false };
      }
      const { status } = await postKillWebhook(ctx.config, event);
      log.info({ status, attempts: job.attemptsMade + 1 }, 'kill webhook delivered');
      return { sent: true, status };
    },
    { connection, prefix: queuePrefix(ctx.config.prefix), concurrency: 4 },
  );
  w.on('failed', (job, err) => {
    const attempts = job?.attemptsMade ?? 0;
    const final = !job || attempts >= (job.opts.attempts ?? 1) || err.name === 'UnrecoverableError';
    ctx.logger.warn(
      { queue: QUEUES.killWebhook, jobId: job?.id, killId: job?.data?.killId, attempts, final, err: err.message },
      final
        ? `kill webhook not delivered: ${err.message}`
        : `kill webhook attempt ${attempts} failed, retried: ${err.message}`,
    );
  });
  return w;
}
