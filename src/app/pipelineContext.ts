import type { Redis } from 'ioredis';
import { KillStore } from '../adapters/redis/killStore';
import { loadRightsRules, type RightsRules } from '../core/rights/rules';
import type { ItemPipeline } from './items/itemPipeline';
import { buildItemPipeline } from './items/processItem';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { CatalogStore } from '../adapters/redis/catalogStore';
import { SubjectIndex } from '../adapters/redis/captionIndexSubject';
import { PhotoVersions } from '../adapters/redis/photoVersions';
import { redisKeys } from '../adapters/redis/keys';
import { StoryStore } from '../adapters/redis/storyStore';
import { StorageBatchExports, type BatchExportStore } from '../adapters/storage/batchExports';
import { DataDir } from '../adapters/storage/dataDir';
import { createStorage } from '../adapters/storage/openStorage';
import type { StoragePort } from '../adapters/storage/storagePort';
import { loadBoilerplateRules, type BoilerplateRules } from '../core/captions/boilerplate';
import { loadDefaultTexts, type DefaultTexts } from '../core/metadata/defaultTexts';
import { loadCreditRules, type CreditRules } from '../core/credits/rules';
import { Queues } from '../queues/queues';

/** What every worker needs, built once per process from the validated config. */
export interface PipelineContext {
  config: Config;
  redis: Redis;
  logger: Logger;
  data: DataDir;
  /**
   * Where the item stage stores originals, renditions and manifests: the local folder
   * PHOTOWIRE_DATA_DIR by default, or what PHOTOWIRE_STORAGE names (a folder, `s3://bucket/prefix`
   * with S3_ENDPOINT...). Created without I/O; checked on first use, or at start by `storage.open()`
   * (a missing bucket or refused credentials: StorageConfigError, exit 2). Close it with the context.
   */
  storage: StoragePort;
  /** Batch exports (records.ndjson, summary.json) in that storage, at `batches/<id>/` (src/core/storageKeys.ts). */
  exports: BatchExportStore;
  catalog: CatalogStore;
  /** Caption clusters: one subject about one picture, however resent (docs/DEDUP.md). */
  captions: SubjectIndex;
  /** Stories: captions sharing an assignment's background or slug, above the caption clusters. */
  stories: StoryStore;
  photos: PhotoVersions;
  /** Every BullMQ queue and the flow producer of this process, opened on first use (the Runtime closes them). */
  queues: Queues;
  rules: CreditRules;
  boilerplate: BoilerplateRules;
  /** Camera and software defaults dropped from embedded metadata (PHOTOWIRE_DEFAULT_TEXT_RULES over the shipped list). */
  defaultTexts: DefaultTexts;
  /** Rights, embargo and kill-notice rules (PHOTOWIRE_RIGHTS_RULES over the shipped ones). */
  rights: RightsRules;
  /** Kills: the kill index, its events and every record's kill status. */
  kills: KillStore;
  /** The item stage (probe, render, store, metadata, kills) with this context's adapters as its ports. */
  items: ItemPipeline;
}

/** The context's services without the item stage that is built on them. */
export type ContextServices = Omit<PipelineContext, 'items'>;

export function createPipelineContext(config: Config, redis: Redis, logger: Logger): PipelineContext {
  const storage = createStorage(config.storage);
  // Every service once, from one config read; nothing is cached elsewhere (the rules files are read here, at start).
  const services: ContextServices = {
    config,
    redis,
    logger,
    data: new DataDir(config.dataDir),
    storage,
    exports: new StorageBatchExports(storage),
    catalog: new CatalogStore(redis, config.prefix),
    captions: new SubjectIndex(redis, { prefix: config.prefix }),
    stories: new StoryStore(redis, redisKeys(config.prefix).story),
    photos: new PhotoVersions(redis, config.prefix),
    queues: new Queues(redis, config.prefix),
    rules: loadCreditRules(config.creditRulesPath),
    boilerplate: loadBoilerplateRules(config.boilerplateRulesPath),
    defaultTexts: loadDefaultTexts(config.defaultTextRulesPath),
    rights: loadRightsRules(config.rightsRulesPath),
    kills: new KillStore(redis, config.prefix, { refWindowMs: config.killRefWindowHours * 3_600_000 }),
  };
  return { ...services, items: buildItemPipeline(services) };
}
