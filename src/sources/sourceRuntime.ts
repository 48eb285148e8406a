import type { FlowProducer } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { PipelineContext } from '../workers/pipelineContext';

/** What hot folders and schedules need from the CLI's Runtime (tests pass a TestPipeline's). */
export interface SourceRuntime {
  readonly config: Config;
  readonly logger: Logger;
  readonly redis: Redis;
  readonly ctx: PipelineContext;
  readonly flow: FlowProducer;
}
