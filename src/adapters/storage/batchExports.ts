import type { Readable } from 'node:stream';
import { batchRecordsKey, batchSummaryKey } from '../../core/storageKeys';
import type { StoragePort } from './storagePort';

/** The files of a batch's export. */
export type ExportFile = 'records.ndjson' | 'summary.json';

const KEY: Record<ExportFile, (batchId: string) => string> = {
  'records.ndjson': batchRecordsKey,
  'summary.json': batchSummaryKey,
};

/**
 * A batch's export (records.ndjson, summary.json) kept in storage: the port app code uses
 * (finalizeBatch writes, summaries and the CLI read), never a local path. Keys are the batch's
 * content-derived id (src/core/storageKeys.ts), so a re-finalize rewrites the same objects.
 */
export interface BatchExportStore {
  /** Write one file whole (a reader sees the previous one or this one, never a part). */
  write(batchId: string, file: ExportFile, body: string | AsyncIterable<string>): Promise<void>;
  /** Remove one file (not there: not an error). */
  remove(batchId: string, file: ExportFile): Promise<void>;
  /** The file as a stream, or null when it is not there. */
  read(batchId: string, file: ExportFile): Promise<Readable | null>;
  /** Whole exactly when summary.json exists: it is written last. */
  isWhole(batchId: string): Promise<boolean>;
  /** Where the file is, for people: a path (local folder) or `s3://bucket/prefix/...`. */
  location(batchId: string, file: ExportFile): string;
  /** Where renditions are, for people (the summary names it). */
  renditionsLocation(): string;
}

/** The export store over the storage port: the local folder (PHOTOWIRE_DATA_DIR by default) or a bucket. */
export class StorageBatchExports implements BatchExportStore {
  constructor(private readonly storage: StoragePort) {}

  async write(batchId: string, file: ExportFile, body: string | AsyncIterable<string>): Promise<void> {
    const opts = { contentType: file === 'summary.json' ? 'application/json' : 'application/x-ndjson' };
    await this.storage.put(KEY[file](batchId), typeof body === 'string' ? body : utf8(body), opts);
  }

  remove(batchId: string, file: ExportFile): Promise<void> {
    return this.storage.delete(KEY[file](batchId));
  }

  read(batchId: string, file: ExportFile): Promise<Readable | null> {
    return this.storage.getStream(KEY[file](batchId));
  }

  async isWhole(batchId: string): Promise<boolean> {
    return (await this.storage.head(batchSummaryKey(batchId))) !== null;
  }

  location(batchId: string, file: ExportFile): string {
    return this.storage.locate(KEY[file](batchId));
  }

  renditionsLocation(): string {
    return this.storage.locate('renditions/');
  }
}

async function* utf8(chunks: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  for await (const c of chunks) yield Buffer.from(c, 'utf8');
}
