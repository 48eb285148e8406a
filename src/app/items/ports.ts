import type { DefaultTexts } from '../../core/metadata/defaultTexts';
import type { BoilerplateRules } from '../../core/captions/boilerplate';
import type { CreditRules } from '../../core/credits/rules';
import type { RenditionPlan } from '../../core/images/planRenditions';
import type { PreviewRights } from '../../core/metadata/previewRights';
import type { RightsRules } from '../../core/rights/rules';
import type { Notice } from '../../schemas/notice';
import type { CatalogRecord, RecordError } from '../../schemas/record';

/**
 * The ports of the item pipeline (src/app/items/itemPipeline.ts): everything it reads, writes or
 * asks the time of. The worker builds them from the PipelineContext (src/app/items/processItem.ts);
 * the unit tests (test/unit/app/items/) pass in-memory fakes.
 */

/** The photo's bytes: a file confined to its feed's folder, or a URL under the fetch limits. */
export interface ImageSource {
  /** A file named by a local feed; refusals (outside the folder, too large, missing) are InputErrors. */
  readFile(root: string, file: string): Promise<Buffer>;
  /** A photo named by URL: one try; a transient failure is a retryable FETCH_FAILED. */
  fetch(url: string): Promise<Buffer>;
  /**
   * A photo in storage (a desk upload), by its key, already confined to its feed's folder: missing
   * is IMAGE_NOT_FOUND naming the key, over the file cap IMAGE_TOO_LARGE; faults are StorageErrors.
   */
  readStored(key: string): Promise<Buffer>;
}

/** What the decoder says of a photo before rendering it. */
export interface ImageProbe {
  format: string;
  width: number;
  height: number;
  xmp: Buffer | null;
  iptc: Buffer | null;
}

/** A rendition as rendered (src/adapters/images/sharpImages.ts): one type on both sides of the port. */
export type { RenderedImage } from '../../adapters/images/sharpImages';
import type { RenderedImage } from '../../adapters/images/sharpImages';

/** The image reader and renderer (sharp): decode errors are InputErrors (IMAGE_CORRUPT, IMAGE_UNSUPPORTED...). */
export interface ImageCodec {
  probe(bytes: Buffer, label: string): Promise<ImageProbe>;
  render(
    bytes: Buffer,
    label: string,
    plan: RenditionPlan,
    previewRights?: PreviewRights,
  ): Promise<{ renditions: RenderedImage[]; gray9x8: Uint8Array }>;
}

/** A rendition set as stored, written last (src/adapters/storage/imageStore.ts): the set is whole exactly when it exists. */
export type { RenditionManifest } from '../../adapters/storage/imageStore';
import type { RenditionManifest } from '../../adapters/storage/imageStore';

/**
 * Originals, renditions and manifests in storage (the local folder or S3), content-addressed,
 * created only when absent. Faults are StorageErrors (STORAGE_FAILED, retryable).
 */
export interface ImageStore {
  readManifest(sha256: string): Promise<RenditionManifest | null>;
  putOriginal(sha256: string, ext: string, bytes: Buffer): Promise<string>;
  putRendition(sha256: string, file: string, data: Buffer): Promise<{ key: string; bytes: number }>;
  putManifest(
    manifest: RenditionManifest,
    opts?: { beforeCommit?: () => Promise<void> },
  ): Promise<{ manifest: RenditionManifest; created: boolean }>;
}

export interface PhotoRegistry {
  register(p: {
    itemId: string;
    sha256: string;
    pixelSha256: string;
    agencyRef: string | null;
    phash: string | null;
  }): Promise<CatalogRecord['photo']>;
}

/** The batch ledger and records (Redis). */
export interface ItemCatalog {
  addWarning(batchId: string, warning: string): Promise<void>;
  markItem(record: CatalogRecord, failure: { error: RecordError; attempts: number } | null): Promise<void>;
  /** The records of a chunk of one batch's items, in one atomic step (all or none). */
  markItems(
    batchId: string,
    entries: ReadonlyArray<{ record: CatalogRecord; failure: { error: RecordError; attempts: number } | null }>,
  ): Promise<number>;
  /** Each item's state (ok, failed, null: no record yet), in the order given. */
  itemStates(batchId: string, itemIds: string[]): Promise<Array<'ok' | 'failed' | null>>;
}

/** The kill side of a record (src/app/kills/itemKills.ts): index it, kill it on arrival, apply its notice. */
export interface KillSettler {
  settle(record: CatalogRecord, notice: Notice | null): Promise<CatalogRecord>;
  /** `settle` of a chunk's records, together (one round trip for those without a notice to apply); in the order given. */
  settleMany(entries: ReadonlyArray<{ record: CatalogRecord; notice: Notice | null }>): Promise<CatalogRecord[]>;
}

export interface Clock {
  /** Wall time, for processedAt and status times. */
  now(): Date;
  /** A monotonic millisecond counter, for stage timings. */
  ms(): number;
}

/** The part of pino the pipeline uses. */
export interface ItemLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  child(bindings: object): ItemLogger;
}

export type PausePoint = 'render' | 'dedup' | 'chunk';

/** Rules and limits: values, read once by the worker. */
export interface ItemSettings {
  creditRules: CreditRules;
  boilerplate: BoilerplateRules;
  rightsRules: RightsRules;
  /** Camera and software defaults the metadata reader drops; the shipped list when not given. */
  defaultTexts?: DefaultTexts;
}

export interface ItemPorts {
  source: ImageSource;
  codec: ImageCodec;
  store: ImageStore;
  photos: PhotoRegistry;
  catalog: ItemCatalog;
  kills: KillSettler;
  clock: Clock;
  logger: ItemLogger;
  settings: ItemSettings;
  /** Test-only pause (PHOTOWIRE_TEST_PAUSE_AT, src/app/items/testPause.ts); a no-op otherwise. */
  pause?: (point: PausePoint, itemId: string) => Promise<void>;
}
