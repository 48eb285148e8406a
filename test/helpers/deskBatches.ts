import type { BatchSummary } from '../../src/app/batches/summarizeBatch';
import { batchDetailSchema } from '../../src/schemas/api';
import { startDesk, type Desk } from './deskServer';
import { assertBuilt } from './processes';
import { makeTmpDir, pipelineEnv, removeDir } from './testEnv';

export interface DeskBatches {
  /** The running desk (set in beforeAll). */
  readonly desk: Desk;
  /** A scratch folder for the suite's feeds, removed after it. */
  readonly dir: string;
  /** The environment that makes the built CLI see the desk's Redis and storage (the matrix's mode too). */
  env(): Record<string, string | undefined>;
  /** The batch's stored summary.json, as the pipeline wrote it. */
  summaryOf(batchId: string): Promise<BatchSummary>;
  /** The batch as the desk's API answers it, checked against the API's schema. */
  detailOf(batchId: string): Promise<ReturnType<typeof batchDetailSchema.parse>>;
}

/**
 * A suite's desk for comparing what a batch's summary says in each place (summary.json, the CLI,
 * the API): a real desk started before the suite (the CLI built), closed and cleaned after it.
 */
export function useDeskBatches(name: string): DeskBatches {
  let desk: Desk | undefined;
  const dir = makeTmpDir(name);
  const running = (): Desk => {
    if (!desk) throw new Error('the desk is started in beforeAll');
    return desk;
  };
  beforeAll(async () => {
    assertBuilt();
    desk = await startDesk();
  });
  afterAll(async () => {
    await desk?.close();
    removeDir(dir);
  });
  return {
    get desk() {
      return running();
    },
    dir,
    env: () => pipelineEnv(running().p.config.prefix, running().p.config.dataDir),
    summaryOf: async (batchId) =>
      JSON.parse((await running().p.readStored(`batches/${batchId}/summary.json`)).toString('utf8')) as BatchSummary,
    detailOf: async (batchId) =>
      batchDetailSchema.parse(await (await running().fetch(`/api/batches/${batchId}`)).json()),
  };
}
