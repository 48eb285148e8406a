import type { FlowProducer, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '../config';
import { createLogger, type Logger } from '../logger';
import { createRedis } from '../adapters/redis/connection';
import { describeRedis, ensureRedisFromConfig, type RedisHandle } from '../adapters/redis/ensureRedis';
import { createPipelineContext, type PipelineContext } from './pipelineContext';
import { createItemWorker } from './jobs/itemWorker';
import { createBatchWorker } from './jobs/batchWorker';
import { createRetentionWorker, scheduleRetention } from './jobs/retentionWorker';
import { retentionService } from './retention/retentionRuntime';
import { createKillWebhookWorker } from './jobs/killWebhookWorker';
import { loadAnyFeed } from '../adapters/feeds/loadStorageFeed';
import { enqueueFeed } from '../queues/enqueueFeed';
import { summarizeBatch, type BatchSummary } from './batches/summarizeBatch';
import { IngestService } from './ingest/ingestService';
import { isRedisOutOfMemory, readRedisMemory, type RedisMemory } from '../adapters/redis/outOfMemory';

/** While Redis stays out of memory, a process's workers log it once a minute, not once per refused write. */
const OOM_LOG_EVERY_MS = 60_000;

/** What hot folders and schedules need from the Runtime. */
export type { BatchSummary };

export type SourceRuntime = Pick<Runtime, 'config' | 'logger' | 'redis' | 'ctx' | 'flow' | 'ingest'>;

/** Everything a command needs, opened once and closed in reverse order. */
export class Runtime {
  private workers: Worker[] = [];
  private extra: Redis[] = [];
  private ingestService: IngestService<BatchSummary> | null = null;
  private readonly oomListeners = new Set<(err: Error) => void>();
  private oomLoggedAt = 0;
  private oomUnlogged = 0;
  private constructor(
    readonly config: Config,
    readonly logger: Logger,
    readonly redisHandle: RedisHandle,
    readonly redis: Redis,
    readonly ctx: PipelineContext,
  ) {}

  /**
   * checkClusterIndex (default true): open the caption-cluster index now, so a Redis that holds an
   * index of other parameters, or only the old threshold index, stops every command at start with
   * the CONFIG_INVALID that names `photowire clusters rebuild` (the one command that skips it).
   */
  static async open(opts: {
    allowPrivateRedis: boolean;
    config?: Config;
    defaultLogLevel?: string;
    checkClusterIndex?: boolean;
  }): Promise<Runtime> {
    const config = opts.config ?? loadConfig();
    const logger = createLogger(config.logLevel ?? opts.defaultLogLevel ?? 'info');
    const handle = await ensureRedisFromConfig(config, { allowPrivate: opts.allowPrivateRedis });
    if (handle.private) logger.info({ redis: describeRedis(handle) }, 'started a private redis-server for this run');
    const redis = createRedis(handle.url, { name: 'photowire' });
    let ctx: PipelineContext | undefined;
    try {
      ctx = createPipelineContext(config, redis, logger);
      // Object storage is checked now, before any job is taken: a missing bucket or refused
      // credentials are a StorageConfigError (exit 2, naming bucket and endpoint, no secret). A
      // local folder is made as it is written: its faults (full, not writable) are the items'
      // STORAGE_FAILED, retried and recovered by `photowire retry` (faults.storage.test.ts).
      if (ctx.storage.kind !== 'local') await ctx.storage.open();
      if (opts.checkClusterIndex !== false) await ctx.captions.open();
      return new Runtime(config, logger, handle, redis, ctx);
    } catch (err) {
      await ctx?.storage.close().catch(() => undefined);
      redis.disconnect();
      await handle.stop();
      throw err;
    }
  }

  get flow(): FlowProducer {
    return this.ctx.queues.flow;
  }

  /** Load, enqueue, wait, summarize (src/app/ingest/ingestService.ts), on this runtime's Redis and queues. */
  get ingest(): IngestService<BatchSummary> {
    this.ingestService ??= new IngestService<BatchSummary>({
      loader: { load: (feedPath, opts) => loadAnyFeed(this.ctx.storage, feedPath, this.config.maxFeedBytes, opts) },
      queue: {
        enqueue: (feed) =>
          enqueueFeed(
            {
              catalog: this.ctx.catalog,
              flow: this.flow,
              prefix: this.config.prefix,
              attempts: this.config.attempts,
              chunkSize: this.config.chunkSize,
            },
            feed,
          ),
      },
      ledgers: {
        getBatch: (batchId) => this.ctx.catalog.getBatch(batchId),
        exportReady: (ledger) => exportMatches(this.ctx, ledger),
        outOfMemory: async () => {
          const m = await this.redisMemory();
          return m?.outOfMemory ? m : null;
        },
      },
      summaries: { summarize: (batchId, sameRun) => summarizeBatch(this.ctx, batchId, { sameRun }) },
      logger: this.logger,
      lostMs: this.config.ledgerLostMs,
    });
    return this.ingestService;
  }

  /** Start item and batch workers in this process. */
  async startWorkers(concurrency = this.config.concurrency): Promise<void> {
    await this.ctx.data.sweepTemp();
    const conn = () => {
      const c = createRedis(this.redisHandle.url, { forWorker: true, name: 'photowire-worker' });
      this.extra.push(c);
      return c;
    };
    const item = createItemWorker(this.ctx, conn(), concurrency);
    const batch = createBatchWorker(this.ctx, conn());
    const webhook = createKillWebhookWorker(this.ctx, conn());
    // The retention pass every PHOTOWIRE_RETENTION_EVERY (0: off, and the scheduler is removed).
    await scheduleRetention(this.ctx.queues, this.config.retentionEveryMs);
    const retention =
      this.config.retentionEveryMs > 0
        ? [createRetentionWorker(retentionService(this), conn(), this.config.prefix)]
        : [];
    for (const w of [item, batch, webhook, ...retention]) {
      // Errors of the worker itself (lost connection...) are logged; job failures are logged per job.
      w.on('error', (err) =>
        isRedisOutOfMemory(err)
          ? this.redisOutOfMemory(err)
          : this.logger.error({ err, queue: w.name }, 'worker error'),
      );
    }
    this.workers.push(item, batch, webhook, ...retention);
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  /**
   * Called with the first Redis OOM refusal the workers of this process meet (and each after):
   * `run` stops its wait on it with one line instead of logging every refused write. Returns the
   * unsubscribe.
   */
  onRedisOutOfMemory(listener: (err: Error) => void): () => void {
    this.oomListeners.add(listener);
    return () => this.oomListeners.delete(listener);
  }

  /** Redis's memory as INFO says (null if it cannot be read). */
  async redisMemory(): Promise<RedisMemory | null> {
    return readRedisMemory(this.redis).catch(() => null);
  }

  /**
   * A worker's write refused for want of memory. Each BullMQ worker meets it again on every
   * fetch (measured: 289 JSON error lines in 2 minutes of a 6 MB Redis): a command listening is
   * told; otherwise (`photowire worker`) it is logged once a minute with the count since.
   */
  private redisOutOfMemory(err: Error): void {
    if (this.oomListeners.size > 0) {
      for (const l of [...this.oomListeners]) l(err);
      return;
    }
    const now = Date.now();
    if (now - this.oomLoggedAt < OOM_LOG_EVERY_MS) {
      this.oomUnlogged++;
      return;
    }
    this.logger.error(
      { code: 'REDIS_OUT_OF_MEMORY', err: err.message, refusedSinceLastLog: this.oomUnlogged },
      'Redis is out of memory (maxmemory with noeviction) and refuses writes: nothing is lost, jobs wait; raise maxmemory or free memory (logged once a minute while it lasts)',
    );
    this.oomLoggedAt = now;
    this.oomUnlogged = 0;
  }

  /** Finish in-flight jobs (or hand them back) and close every connection. */
  async close(opts: { force?: boolean } = {}): Promise<void> {
    await Promise.allSettled(this.workers.map((w) => w.close(opts.force)));
    await this.ctx.queues.close();
    for (const c of this.extra) c.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
    await this.ctx.storage.close().catch(() => undefined);
    await this.redisHandle.stop();
  }
}

/** summary.json is there and names the ledger's last close (a retry's finalize rewrites it). */
async function exportMatches(
  ctx: PipelineContext,
  ledger: { id: string; finishedAt: string | null },
): Promise<boolean> {
  const body = await ctx.exports.read(ledger.id, 'summary.json');
  if (!body) return false;
  let text = '';
  for await (const chunk of body) text += chunk;
  try {
    return (JSON.parse(text) as { finishedAt?: string | null }).finishedAt === ledger.finishedAt;
  } catch {
    return false;
  }
}
