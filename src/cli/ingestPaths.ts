import type { IngestOutcome } from '../app/ingest/ingestService';
import type { Runtime } from '../app/runtime';

export type { IngestOutcome };

/** Load and enqueue each feed (IngestService.ingest); a feed that cannot be read is an outcome with its error. */
export function ingestPaths(rt: Runtime, paths: string[]): Promise<IngestOutcome[]> {
  return rt.ingest.ingest(paths);
}
