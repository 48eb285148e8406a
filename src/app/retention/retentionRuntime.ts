import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Cluster, type Redis } from 'ioredis';
import type { Runtime } from '../runtime';
import { redisKeys } from '../../adapters/redis/keys';
import { RetentionStore } from '../../adapters/redis/retentionStore';
import { BatchArchive } from '../../adapters/storage/batchArchive';
import { RetentionJobs } from '../../queues/retentionJobs';
import type { RetentionReport } from '../../core/retention/plan';
import { Lease } from '../../adapters/redis/lease';
import { runRetentionPass, type RetentionOptions, type RetentionPorts } from './retentionPass';
import { RetentionService, type RedisMemoryPort, type RetentionLockPort } from './retentionService';
import { ArchivedBatches } from './archivedBatches';
import type { PipelineContext } from '../pipelineContext';

type RetentionRuntime = Pick<Runtime, 'redis' | 'config' | 'ctx' | 'logger'>;

/**
 * The retention pass's ports on a runtime's Redis, queues and storage (the CLI's `retention` and
 * the worker process's scheduled job both use this): RetentionStore (catalog, runs), RetentionJobs
 * (BullMQ), BatchArchive (the export in storage).
 */
export function retentionPorts(rt: RetentionRuntime): { ports: RetentionPorts; close(): Promise<void> } {
  const store = new RetentionStore(rt.redis, rt.config.prefix);
  const jobs = new RetentionJobs(rt.ctx.queues);
  const archive = new BatchArchive(rt.ctx.exports);
  return {
    ports: { catalog: store, runs: store, jobs, exports: archive, logger: rt.logger, captionIndex: rt.ctx.captions },
    // Redis, the queues and storage are the runtime's, closed with it: the pass opens nothing of its own.
    close: async () => undefined,
  };
}

/** One pass on the runtime, `now` and the window from the config unless given (no lock: tests and tools). */
export async function retentionOnRuntime(
  rt: RetentionRuntime,
  opts: Partial<RetentionOptions> = {},
): Promise<RetentionReport> {
  const { ports, close } = retentionPorts(rt);
  try {
    return await runRetentionPass(ports, {
      now: new Date(),
      retentionDays: rt.config.retentionDays,
      dedupRetentionDays: rt.config.dedupRetentionDays,
      ...opts,
    });
  } finally {
    await close();
  }
}

/** How long the pass's lease lives unless renewed (renewed every third of it while the pass runs). */
export const RETENTION_LOCK_MS = 30_000;

/** The pass's lease: `{<p>:catalog}:retention:lock`, beside its cursor. */
export function retentionLock(redis: Redis, prefix: string, ttlMs = RETENTION_LOCK_MS): RetentionLockPort {
  const key = redisKeys(prefix).retentionLock;
  return {
    async acquire() {
      const lease = await Lease.acquire(
        redis,
        key,
        `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
        ttlMs,
      );
      lease?.keepAlive();
      return lease;
    },
    holder: () => Lease.holder(redis, key),
  };
}

/** INFO used_memory of the Redis (each master of a cluster, added up). */
export function redisMemory(redis: Redis | Cluster): RedisMemoryPort {
  return {
    async usedBytes() {
      const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
      let total = 0;
      for (const node of nodes) {
        const m = /used_memory:(\d+)/.exec(await node.info('memory'));
        if (!m) return null;
        total += Number(m[1]);
      }
      return total;
    },
  };
}

/** The retention service (src/app/retention/retentionService.ts) on a runtime. */
export function retentionService(rt: RetentionRuntime): RetentionService {
  return new RetentionService({
    openPass: () => retentionPorts(rt),
    lock: retentionLock(rt.redis, rt.config.prefix),
    memory: redisMemory(rt.redis),
    logger: rt.logger,
    retentionDays: rt.config.retentionDays,
    dedupRetentionDays: rt.config.dedupRetentionDays,
  });
}

/** Archived batches (src/app/retention/archivedBatches.ts) on a pipeline context: the ledger, the archived index, the export in storage. */
export function archivedBatches(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'catalog' | 'exports'>,
): ArchivedBatches {
  const store = new RetentionStore(ctx.redis, ctx.config.prefix);
  const archive = new BatchArchive(ctx.exports);
  return new ArchivedBatches({
    isLive: async (batchId) => (await ctx.catalog.getBatch(batchId)) !== null,
    archivedEntry: (batchId) => store.archivedEntry(batchId),
    listArchived: (limit) => store.listArchived(limit),
    summary: (batchId) => archive.summary(batchId),
    records: (batchId) => archive.records(batchId),
    location: (batchId) => ctx.exports.location(batchId, 'records.ndjson'),
  });
}
