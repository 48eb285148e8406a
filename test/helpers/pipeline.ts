import { loadConfig, type Config } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths, type IngestOutcome } from '../../src/cli/ingestPaths';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { isCluster } from '../../src/adapters/redis/connection';
import {
  TEST_REDIS_MODE,
  TEST_STORAGE_MODE,
  deletePrefix,
  removeDir,
  storageEnv,
  storageFromProcessEnv,
  testConfig,
  uniquePrefix,
} from './testEnv';
import { scaledMs } from './deadline';

/**
 * A real pipeline for one test: real Redis under a fresh prefix, a fresh data directory,
 * in-process workers. `close()` stops the workers and removes every key and file it made.
 *
 * The test matrix's switch (testEnv.ts) decides the Redis (single or cluster) and the storage:
 * with PHOTOWIRE_TEST_STORAGE=s3 the pipeline's objects go to `s3://<run bucket>/<its prefix>/`
 * (PHOTOWIRE_STORAGE is set for the pipeline's life, as a worker reads it from its environment),
 * unless the test set PHOTOWIRE_STORAGE itself. Read what the pipeline stored with `readStored`,
 * not from `config.dataDir`, so one test runs in both modes.
 */
export class TestPipeline {
  private constructor(
    readonly rt: Runtime,
    readonly config: Config,
    private readonly restoreStorage: (() => void) | null,
  ) {}

  static async start(
    opts: { overrides?: Record<string, string>; workers?: boolean; concurrency?: number } = {},
  ): Promise<TestPipeline> {
    const prefix = opts.overrides?.PHOTOWIRE_PREFIX ?? uniquePrefix('t');
    let restore: (() => void) | null = null;
    if (TEST_STORAGE_MODE === 's3' && !process.env.PHOTOWIRE_STORAGE) {
      process.env.PHOTOWIRE_STORAGE = storageEnv(prefix).PHOTOWIRE_STORAGE;
      restore = () => delete process.env.PHOTOWIRE_STORAGE;
    }
    const config = testConfig({ PHOTOWIRE_PREFIX: prefix, ...opts.overrides });
    let rt: Runtime | undefined;
    try {
      rt = await Runtime.open({ allowPrivateRedis: false, config });
      // The switch must reach the runtime: a matrix run that silently used the single Redis or the local folder proves nothing.
      const own = opts.overrides ?? {};
      if (TEST_REDIS_MODE === 'cluster' && !('REDIS_URL' in own) && !isCluster(rt.redis))
        throw new Error('PHOTOWIRE_TEST_REDIS=cluster, but the pipeline is not on the cluster');
      if (restore && rt.ctx.storage.kind !== 's3')
        throw new Error('PHOTOWIRE_TEST_STORAGE=s3, but the pipeline does not store in S3');
      if (opts.workers !== false) await rt.startWorkers(opts.concurrency ?? 2);
    } catch (err) {
      await rt?.close().catch(() => undefined);
      restore?.();
      throw err;
    }
    return new TestPipeline(rt, config, restore);
  }

  /** Where this pipeline's objects are: 'local' (config.dataDir) or 's3'. */
  get storageKind(): 'local' | 's3' {
    return this.rt.ctx.storage.kind;
  }

  /** An object the pipeline stored (`batches/<id>/records.ndjson`, a rendition's path), from its storage. */
  async readStored(key: string): Promise<Buffer> {
    const body = await this.rt.ctx.storage.get(key);
    if (!body) throw new Error(`no object ${key} in ${this.rt.ctx.storage.describe}`);
    return body;
  }

  /** The keys the pipeline's storage holds under `prefix`, in key order. */
  async listStored(prefix = ''): Promise<string[]> {
    const out: string[] = [];
    for await (const o of this.rt.ctx.storage.list(prefix)) out.push(o.key);
    return out;
  }

  /** Ingest and wait for the batches; `idleMs` (what that takes on an idle machine) is scaled by the load (test/helpers/deadline.ts). */
  async ingest(paths: string[], idleMs = 60_000): Promise<IngestOutcome[]> {
    const out = await ingestPaths(this.rt, paths);
    await waitForBatches(
      this.rt,
      out.filter((o) => o.batchId).map((o) => o.batchId!),
      { progress: false, timeoutMs: scaledMs(idleMs) },
    );
    return out;
  }

  async close(opts: { keepData?: boolean } = {}): Promise<void> {
    // In s3 mode, empty the pipeline's folder of the run's bucket (the bucket goes at the run's end).
    if (this.restoreStorage && !opts.keepData) await emptyStorage(this).catch(() => undefined);
    await this.rt.close();
    this.restoreStorage?.();
    await deletePrefix(this.config.prefix);
    if (!opts.keepData) removeDir(this.config.dataDir);
  }
}

async function emptyStorage(p: TestPipeline): Promise<void> {
  const storage = p.rt.ctx.storage;
  const keys = await p.listStored('');
  for (let i = 0; i < keys.length; i += 16) await Promise.all(keys.slice(i, i + 16).map((k) => storage.delete(k)));
}

/**
 * A Runtime (no workers) configured from a process environment, as a photowire process with that
 * environment would be (testEnv.pipelineEnv); storage variables it does not name are this process's.
 */
export async function openRuntime(env: Record<string, string | undefined>): Promise<Runtime> {
  return await Runtime.open({
    allowPrivateRedis: false,
    config: loadConfig({ ...storageFromProcessEnv(), LOG_LEVEL: 'silent', ...env }),
  });
}
