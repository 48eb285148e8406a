import type { Config } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths, type IngestOutcome } from '../../src/cli/ingestPaths';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { deletePrefix, removeDir, testConfig } from './testEnv';

/**
 * A real pipeline for one test: real Redis under a fresh prefix, a fresh data directory,
 * in-process workers. `close()` stops the workers and removes every key and file it made.
 */
export class TestPipeline {
  private constructor(
    readonly rt: Runtime,
    readonly config: Config,
  ) {}

  static async start(opts: { overrides?: Record<string, string>; workers?: boolean; concurrency?: number } = {}): Promise<TestPipeline> {
    const config = testConfig(opts.overrides);
    const rt = await Runtime.open({ allowPrivateRedis: false, config });
    if (opts.workers !== false) await rt.startWorkers(opts.concurrency ?? 2);
    return new TestPipeline(rt, config);
  }

  async ingest(paths: string[], timeoutMs = 60_000): Promise<IngestOutcome[]> {
    const out = await ingestPaths(this.rt, paths);
    await waitForBatches(
      this.rt,
      out.filter((o) => o.batchId).map((o) => o.batchId!),
      { progress: false, timeoutMs },
    );
    return out;
  }

  async close(opts: { keepData?: boolean } = {}): Promise<void> {
    await this.rt.close();
    await deletePrefix(this.config.prefix);
    if (!opts.keepData) removeDir(this.config.dataDir);
  }
}
