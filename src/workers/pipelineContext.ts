/**
 * The pipeline context moved to src/app/pipelineContext.ts (issue 15). This re-export serves the
 * importers that were being edited when it moved (src/queues/retryItems.ts,
 * src/server/routes/clusters.ts); it goes when they import src/app/pipelineContext.ts.
 */
export { createPipelineContext, type PipelineContext } from '../app/pipelineContext';
