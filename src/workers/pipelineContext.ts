import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { CatalogStore } from '../adapters/redis/catalogStore';
import { CaptionIndex } from '../adapters/redis/captionIndex';
import { PhotoVersions } from '../adapters/redis/photoVersions';
import { DataDir } from '../adapters/storage/dataDir';
import { loadBoilerplateRules, type BoilerplateRules } from '../core/captions/boilerplate';
import { loadCreditRules, type CreditRules } from '../core/credits/rules';

/** What every worker needs, built once per process from the validated config. */
export interface PipelineContext {
  config: Config;
  redis: Redis;
  logger: Logger;
  data: DataDir;
  catalog: CatalogStore;
  captions: CaptionIndex;
  photos: PhotoVersions;
  rules: CreditRules;
  boilerplate: BoilerplateRules;
}

export function createPipelineContext(config: Config, redis: Redis, logger: Logger): PipelineContext {
  return {
    config,
    redis,
    logger,
    data: new DataDir(config.dataDir),
    catalog: new CatalogStore(redis, config.prefix),
    captions: new CaptionIndex(redis, { prefix: `${config.prefix}:dedup`, threshold: config.dedupThreshold }),
    photos: new PhotoVersions(redis, config.prefix),
    rules: loadCreditRules(config.creditRulesPath),
    boilerplate: loadBoilerplateRules(config.boilerplateRulesPath),
  };
}
