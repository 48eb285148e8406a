import type { Runtime } from '../runtime';
import { RetentionStore } from '../../adapters/redis/retentionStore';
import { BatchArchive } from '../../adapters/storage/batchArchive';
import { RetentionJobs } from '../../queues/retentionJobs';
import type { RetentionReport } from '../../core/retention/plan';
import { runRetentionPass, type RetentionOptions, type RetentionPorts } from './retentionPass';

/**
 * The retention pass's ports on a runtime's Redis, queues and storage (the CLI's `retention` and
 * the worker process's daily job both use this): RetentionStore (catalog, runs), RetentionJobs
 * (BullMQ), BatchArchive (the export in storage).
 */
export function retentionPorts(rt: Pick<Runtime, 'redis' | 'config' | 'ctx' | 'logger'>): { ports: RetentionPorts; close(): Promise<void> } {
  const store = new RetentionStore(rt.redis, rt.config.prefix);
  const jobs = new RetentionJobs(rt.redis, rt.config.prefix);
  const archive = new BatchArchive(rt.ctx.exports);
  return {
    ports: { catalog: store, runs: store, jobs, exports: archive, logger: rt.logger },
    close: () => jobs.close(),
  };
}

/** One pass on the runtime, `now` and the window from the config unless given. */
export async function retentionOnRuntime(
  rt: Pick<Runtime, 'redis' | 'config' | 'ctx' | 'logger'>,
  opts: Partial<RetentionOptions> = {},
): Promise<RetentionReport> {
  const { ports, close } = retentionPorts(rt);
  try {
    return await runRetentionPass(ports, { now: new Date(), retentionDays: rt.config.retentionDays, ...opts });
  } finally {
    await close();
  }
}
