import { performance } from 'node:perf_hooks';
import { probeImage, renderRenditions } from '../../adapters/images/sharpImages';
import { readConfinedFile } from '../../adapters/storage/dataDir';
import { StorageImageStore, readStoredPhoto } from '../../adapters/storage/imageStore';
import { ItemPipeline, type ItemResult } from './itemPipeline';
import { fetchImageBytes } from '../../adapters/http/fetchUrl';
import type { ItemJob } from '../../schemas/jobs';
import type { CatalogRecord, RecordError } from '../../schemas/record';
import { settleKills, settleKillsMany } from '../kills/itemKills';
import type { ContextServices, PipelineContext } from '../pipelineContext';
import { testPause } from './testPause';

export type { ItemResult, StageTimings } from './itemPipeline';

/**
 * The item pipeline of a context, its ports the context's adapters. Built once, by
 * createPipelineContext (`ctx.items`): its kill ports call back into the context.
 */
export function buildItemPipeline(ctx: ContextServices): ItemPipeline {
  const { config } = ctx;
  return new ItemPipeline({
    source: {
      readFile: (root, file) => readConfinedFile(root, file, config.maxFileBytes),
      fetch: (url) => fetchImageBytes(url, config),
      readStored: (key) => readStoredPhoto(ctx.storage, key, config.maxFileBytes),
    },
    codec: {
      probe: (bytes, label) => probeImage(bytes, label, config.maxPixels),
      render: (bytes, label, plan, rights) => renderRenditions(bytes, label, plan, config.maxPixels, rights),
    },
    store: new StorageImageStore(ctx.storage),
    photos: ctx.photos,
    catalog: ctx.catalog,
    kills: {
      settle: (record, notice) => settleKills(ctx, record, notice),
      settleMany: (entries) => settleKillsMany(ctx, entries),
    },
    clock: { now: () => new Date(), ms: () => performance.now() },
    logger: ctx.logger,
    settings: {
      creditRules: ctx.rules,
      boilerplate: ctx.boilerplate,
      rightsRules: ctx.rights,
      defaultTexts: ctx.defaultTexts,
    },
    pause: (point, itemId) => testPause(ctx, point, itemId),
  });
}

/** The item stage for one job (src/app/items/itemPipeline.ts). Throws InputError for bad input. */
export function processItem(ctx: PipelineContext, job: ItemJob): Promise<ItemResult> {
  return ctx.items.process(job);
}

/** The record of an item that failed where nothing of its photo was read (the finalize job's lost items). */
export function failedRecord(ctx: PipelineContext, job: ItemJob, error: RecordError): CatalogRecord {
  return ctx.items.failedRecord(job, error).record;
}

/** The same, settled for kills (src/app/kills/itemKills.ts). */
export function settledFailedRecord(ctx: PipelineContext, job: ItemJob, error: RecordError): Promise<CatalogRecord> {
  return ctx.items.settledFailedRecord(job, error);
}
