import { runWorkerProcess } from '../../workers/workerProcess';
import { onShutdown } from '../shutdown';

/** `photowire worker`: the worker process (src/workers/workerProcess.ts) with the CLI's signal handling. */
export function workerCommand(opts: { concurrency?: number }): Promise<number> {
  return runWorkerProcess(opts, onShutdown);
}
