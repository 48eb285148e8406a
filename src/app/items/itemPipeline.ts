import { cleanId, feedProvider, providerOf, scopedAgencyId } from '../../core/kills/identity';
import { createHash } from 'node:crypto';
import { dhash64 } from '../../core/dedup/phash';
import { InputError, type ErrorCode } from '../../core/errors';
import { planRenditions } from '../../core/images/planRenditions';
import { pixelBytes } from '../../core/images/pixelFingerprint';
import type { PreviewRights } from '../../core/metadata/previewRights';
import { metadataContainer, readImageMetadata, readMetadataBlocks } from '../../core/metadata';
import { capIptc } from '../../core/feeds/capItems';
import { buildRecord, mergeIptc } from '../../core/records/buildRecord';
import { isStorageRef, storedPhotoKey } from '../../core/feeds/storageFeed';
import { originalKey } from '../../core/storageKeys';
import type { IptcFields } from '../../schemas/feedItem';
import type { ItemJob } from '../../schemas/jobs';
import type { Notice } from '../../schemas/notice';
import type { CatalogRecord, RecordError, Rendition } from '../../schemas/record';
import { failedItemRights, itemRights, previewRightsOf } from './itemRights';
import { failedItemText, itemText } from './itemText';
import type { ImageProbe, ItemLogger, ItemPorts, RenditionManifest } from './ports';
import { failureCode, failureMessage, isRetryable } from './retryable';
import { StageClock, type StageTimings } from './stageClock';

export type { StageTimings } from './stageClock';

export interface ItemResult {
  record: CatalogRecord;
  /** The renditions were rendered by this attempt (false: their manifest already existed). */
  rendered: boolean;
  timings: StageTimings;
}

/** A record as built, its notice not yet applied (settled by `process` or, for a chunk, together). */
interface Built {
  record: CatalogRecord;
  notice: Notice | null;
  rendered: boolean;
  clock: StageClock;
}

/** What a chunk's attempt did (src/app/jobs/itemWorker.ts logs it). */
export interface ChunkResult {
  /** Records stored by this attempt (ok and failed). */
  stored: number;
  /** Items already recorded by an earlier run of the chunk, not run again. */
  skipped: number;
  /** Items stored failed by this attempt. */
  failed: string[];
  durationMs: number;
}

/** The failure stored with an item's failed record: its code and message, the attempts of this round. */
function failureOf(err: unknown, attempt: ItemAttempt): { error: RecordError; attempts: number } {
  const code = failureCode(err);
  // A download is tried once per attempt: its message says how many there were.
  const tries =
    isRetryable(err) && code === 'FETCH_FAILED' ? ` (${attempt.number} attempt${attempt.number === 1 ? '' : 's'})` : '';
  return { error: { code, message: failureMessage(err) + tries }, attempts: attempt.number };
}

/** Which attempt of the item's job this is (1-based) and how many it has. */
export interface ItemAttempt {
  number: number;
  max: number;
}

/** The raw IIM datasets and XMP text, for rights and release fields IptcFields has no place for. */
type RawMetadata = { iim: Array<{ record: number; dataset: number; value: string }>; xmp: string | null };

/**
 * What was read of the photo before a failure: a photo that then fails to decode or store keeps
 * its caption, by-line, copyright, rights and release in its failed record.
 */
export interface ReadSoFar {
  iptc?: IptcFields;
  raw?: RawMetadata;
}

interface ReadImage {
  bytes: Buffer;
  sha256: string;
  /** Hash of the compressed pixels only: equal for a resend whose metadata alone changed. */
  pixelSha256: string;
  probe: ImageProbe;
  iptc: IptcFields;
  raw: RawMetadata;
}

interface StoredImage {
  image: NonNullable<CatalogRecord['image']>;
  renditions: Rendition[];
  rendered: boolean;
}

// a damaged photo can give many; the batch shows the first ones and how many more there were
const MAX_READER_WARNINGS = 10;
const HTTP_URL = /^https?:\/\//i;
const round1 = (ms: number): number => Math.round(ms * 10) / 10;

/**
 * The item stage as an application service: caption, credit, rights, image, photo
 * version, record, kills, for one item job. It never touches BullMQ: every read and write goes
 * through the ports it is given (src/app/items/ports.ts), and the worker (src/app/jobs/itemWorker.ts)
 * only validates the payload, calls `handle` and turns a non-retryable error into BullMQ's
 * UnrecoverableError.
 */
export class ItemPipeline {
  constructor(private readonly p: ItemPorts) {}

  /**
   * One attempt of an item job: process it and store its record. On a failure that another attempt
   * cannot mend (bad input: isRetryable false) or on the last attempt, the failed record is stored
   * (everything known about the item, and why); the error is thrown again either way.
   */
  async handle(job: ItemJob, attempt: ItemAttempt, log: ItemLogger = this.p.logger): Promise<ItemResult> {
    const { clock, catalog } = this.p;
    const started = clock.ms();
    const read: ReadSoFar = {};
    try {
      const result = await this.process(job, read);
      const catalogStarted = clock.ms();
      await catalog.markItem(result.record, null);
      const stages = { ...result.timings, catalog: round1(clock.ms() - catalogStarted) };
      log.info(
        {
          durationMs: Math.round(clock.ms() - started),
          rendered: result.rendered,
          cluster: result.record.cluster?.id ?? null,
          stages,
        },
        'item done',
      );
      return result;
    } catch (err) {
      const durationMs = Math.round(clock.ms() - started);
      const failure = failureOf(err, attempt);
      if (!isRetryable(err)) {
        await catalog.markItem(await this.settledFailedRecord(job, failure.error, read), failure);
        log.warn(
          { durationMs, code: failure.error.code, err: failure.error.message },
          'item failed (bad input, not retried)',
        );
        throw err;
      }
      const final = attempt.number >= attempt.max;
      if (final) await catalog.markItem(await this.settledFailedRecord(job, failure.error, read), failure);
      log.error(
        { durationMs, attempts: attempt.number, final, err },
        final ? 'item failed after its last attempt' : 'item failed, will retry',
      );
      throw err;
    }
  }

  /**
   * One attempt of a chunk's job: the caption-only items of a range of batch indexes,
   * each through the same stage as an item job, their records stored in one atomic step
   * (`markItems`) after their kill registrations were sent together (`settleMany`). Items already
   * recorded (the chunk run before: a retry, a worker killed after storing) are skipped, so a
   * re-run never duplicates or loses a record. An item with bad input fails alone, its failed
   * record stored with the others; a transient fault of an item stores the rest and throws, so
   * the chunk's job runs again for it (on the last attempt it is stored failed instead).
   */
  async handleChunk(
    batchId: string,
    jobs: ItemJob[],
    attempt: ItemAttempt,
    log: ItemLogger = this.p.logger,
  ): Promise<ChunkResult> {
    const { clock, catalog, kills } = this.p;
    const started = clock.ms();
    const states = await catalog.itemStates(
      batchId,
      jobs.map((j) => j.itemId),
    );
    const todo = jobs.filter((_, i) => states[i] === null);
    const final = attempt.number >= attempt.max;
    const outcomes = await Promise.all(
      todo.map(async (job) => {
        const read: ReadSoFar = {};
        try {
          return { job, read, built: await this.build(job, read), err: null };
        } catch (err) {
          return { job, read, built: null, err };
        }
      }),
    );
    const done = outcomes.flatMap((o) => (o.built ? [{ job: o.job, built: o.built }] : []));
    const failed = outcomes
      .filter((o) => o.err !== null && (final || !isRetryable(o.err)))
      .map((o) => ({ ...o, failure: failureOf(o.err, attempt) }));
    const transient = outcomes.filter((o) => o.err !== null && !final && isRetryable(o.err));
    const records = await kills.settleMany(done.map((d) => d.built));
    const failedRecords = await this.settledFailedRecords(
      failed.map((f) => ({ job: f.job, error: f.failure.error, read: f.read })),
    );
    await catalog.markItems(batchId, [
      ...records.map((record) => ({ record, failure: null })),
      ...failedRecords.map((record, i) => ({ record, failure: failed[i].failure })),
    ]);
    for (const d of done)
      log.info({ itemId: d.job.itemId, rendered: false, cluster: null, stages: d.built.clock.rounded() }, 'item done');
    for (const f of failed) {
      const bad = !isRetryable(f.err);
      log[bad ? 'warn' : 'error'](
        { itemId: f.job.itemId, code: f.failure.error.code, err: f.failure.error.message, attempts: attempt.number },
        bad ? 'item failed (bad input, not retried)' : 'item failed after its last attempt',
      );
    }
    await this.p.pause?.('chunk', jobs[0].itemId);
    const result: ChunkResult = {
      stored: records.length + failedRecords.length,
      skipped: jobs.length - todo.length,
      failed: failed.map((f) => f.job.itemId),
      durationMs: Math.round(clock.ms() - started),
    };
    if (transient.length > 0) {
      log.error(
        { ...result, retrying: transient.map((t) => t.job.itemId), attempts: attempt.number, err: transient[0].err },
        'chunk: items failed, will retry',
      );
      throw transient[0].err;
    }
    return result;
  }

  /** Failed records of a chunk, settled together; as built if the kill store cannot be reached (as `settledFailedRecord`). */
  private async settledFailedRecords(
    items: Array<{ job: ItemJob; error: RecordError; read: ReadSoFar }>,
  ): Promise<CatalogRecord[]> {
    const built = items.map((x) => this.failedRecord(x.job, x.error, x.read));
    if (built.length === 0) return [];
    try {
      return await this.p.kills.settleMany(built);
    } catch {
      return built.map((b) => b.record);
    }
  }

  /** The item stage: caption, credit, image, photo version, record. Throws InputError for bad input. */
  async process(job: ItemJob, read: ReadSoFar = {}): Promise<ItemResult> {
    const built = await this.build(job, read);
    const record = await this.p.kills.settle(built.record, built.notice);
    built.clock.lap('record');
    return { record, rendered: built.rendered, timings: built.clock.rounded() };
  }

  /** The item stage up to the record as built, before its kill side is settled. */
  private async build(job: ItemJob, read: ReadSoFar): Promise<Built> {
    const { item } = job;
    const { settings, logger } = this.p;
    if (item.error) throw new InputError(item.error.code as ErrorCode, item.error.message);

    const clock = new StageClock(() => this.p.clock.ms());
    const img = item.image ? await this.readImage(job, clock, read) : null;
    const iptc = img ? img.iptc : item.iptc;
    const text = itemText(item, iptc, { file: item.source.file, itemId: job.itemId }, settings);
    for (const w of text.warnings)
      logger.warn(
        { file: w.file, itemId: w.item, field: w.field, length: w.length, cap: w.cap, code: w.code },
        w.message,
      );
    const { captionRaw, cleaned, credit } = text;
    // Rights, embargo and notices
    const rr = itemRights(settings.rightsRules, { item, iptc, raw: img?.raw, captionRaw, cleaned, credit });
    clock.lap('captionCredit');
    // The normalized credit is known before rendering, so it is what the renditions carry.
    const copyright = iptc.copyright ?? null;
    const stored = img
      ? await this.storeImage(
          img,
          item.image!,
          credit.line,
          copyright,
          clock,
          job.itemId,
          previewRightsOf(rr, credit.line, copyright),
        )
      : null;
    // The caption's cluster (and so probableResend) is decided by the batch's finalize job, in feed
    // order, whichever worker finishes first (src/app/batches/clusterBatch.ts, docs/DEDUP.md).
    let photo: CatalogRecord['photo'] = null;
    if (img && stored) {
      // Versions link within one provider's id space (two feeds' "1" are two photos), or across by pixels.
      const ref = cleanId(item.agencyId ?? iptc.transmissionReference ?? '');
      const agencyRef = ref ? scopedAgencyId(ref, providerOf(credit, feedProvider(item.source.file))) : null;
      photo = await this.p.photos.register({
        itemId: job.itemId,
        sha256: img.sha256,
        pixelSha256: img.pixelSha256,
        agencyRef,
        phash: stored.image.phash,
      });
    }
    await this.p.pause?.('dedup', job.itemId);
    clock.lap('dedup');
    const built = buildRecord({
      photo,
      probableResend: false,
      id: job.itemId,
      batchId: job.batchId,
      item,
      iptc,
      captionRaw,
      cleaned,
      credit,
      image: stored?.image ?? null,
      renditions: stored?.renditions ?? [],
      cluster: null,
      error: null,
      processedAt: this.p.clock.now().toISOString(),
      rights: rr.rights,
      release: rr.release,
    });
    // Indexed for kills (settled by the caller); killed on arrival if its agency id or photo was; its own notice applied.
    return { record: built, notice: rr.notice, rendered: stored?.rendered ?? false, clock };
  }

  /**
   * The record of an item that failed: everything known about it (the photo's metadata if it was
   * read before the failure), caption and credit derived as for one that rendered, and why.
   */
  failedRecord(
    job: ItemJob,
    error: RecordError,
    read: ReadSoFar = {},
  ): { record: CatalogRecord; notice: Notice | null } {
    const { settings, clock } = this.p;
    const iptc = read.iptc ? mergeIptc(job.item.iptc, read.iptc) : job.item.iptc;
    const item = { ...job.item, iptc };
    const { captionRaw, cleaned, credit } = failedItemText(
      item,
      iptc,
      { file: job.item.source.file, itemId: job.itemId },
      settings,
    );
    const now = clock.now();
    const { notice, ...rights } = failedItemRights(
      settings.rightsRules,
      { item, iptc, raw: read.raw, captionRaw, cleaned, credit, itemId: job.itemId, batchId: job.batchId },
      now,
    );
    const record = buildRecord({
      ...rights,
      id: job.itemId,
      batchId: job.batchId,
      item: job.item,
      iptc,
      captionRaw,
      cleaned,
      credit,
      image: null,
      renditions: [],
      cluster: null,
      error,
      processedAt: now.toISOString(),
    });
    return { record, notice: notice ?? null };
  }

  /**
   * The failed record, settled like one that rendered: indexed, so a later kill of its agency id
   * reaches it; killed on arrival; the kill or withdrawal it carries applied to the records it
   * names. If the kill store cannot be reached, the failed record as built.
   */
  async settledFailedRecord(job: ItemJob, error: RecordError, read: ReadSoFar = {}): Promise<CatalogRecord> {
    const { record, notice } = this.failedRecord(job, error, read);
    try {
      return await this.p.kills.settle(record, notice);
    } catch {
      return record;
    }
  }

  /** Read the photo (confined or fetched, size-capped), hash it, read its embedded metadata, probe it. */
  private async readImage(job: ItemJob, clock: StageClock, read: ReadSoFar): Promise<ReadImage> {
    const { source, codec } = this.p;
    const file = job.item.image!;
    // An HTTP feed names its photos by URL: downloaded under the fetch limits (allow-list, timeout, size cap).
    // A feed in storage (a desk upload) names keys below its folder: read through the storage port.
    const bytes = HTTP_URL.test(file)
      ? await source.fetch(file)
      : isStorageRef(file)
        ? await source.readStored(storedPhotoKey(job.root, file))
        : await source.readFile(job.root, file);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const pixels = pixelBytes(bytes);
    const pixelSha256 = pixels === bytes ? sha256 : createHash('sha256').update(pixels).digest('hex');
    clock.lap('read');
    // Metadata first, from the bytes alone (JPEG, TIFF either byte order, PNG, WebP; src/core/metadata):
    // a photo that cannot be decoded still has its caption and credit read.
    // The reader drops camera defaults; an EXIF date later than now (a camera clock set ahead) never wins.
    const readOptions = { defaultTexts: this.p.settings.defaultTexts, receivedAt: this.p.clock.now().toISOString() };
    const own = metadataContainer(bytes) !== undefined ? readImageMetadata(bytes, undefined, readOptions) : undefined;
    if (own) {
      read.iptc = own.iptc;
      read.raw = own.raw;
      await this.addReaderWarnings(job, file, own.warnings);
    }
    clock.lap('metadata');
    const probe = await codec.probe(bytes, file);
    // GIF, HEIF, AVIF: the XMP/IPTC blocks libvips found
    const meta =
      own ?? readMetadataBlocks({ iptc: probe.iptc ?? undefined, xmp: probe.xmp ?? undefined }, undefined, readOptions);
    if (!own) {
      read.iptc = meta.iptc;
      read.raw = meta.raw;
      await this.addReaderWarnings(job, file, meta.warnings);
    }
    // The photo's own fields are capped as a feed's are (src/core/feeds/capItems.ts): 100,000 XMP keywords are not stored.
    const capWarnings: string[] = [];
    const embedded = capIptc(meta.iptc, { file, position: job.item.source.position }, capWarnings, 'embedded ');
    if (embedded !== meta.iptc) {
      read.iptc = embedded;
      for (const w of capWarnings) await this.p.catalog.addWarning(job.batchId, w);
    }
    const iptc = mergeIptc(job.item.iptc, embedded);
    clock.lap('metadata');
    return { bytes, sha256, pixelSha256, probe, iptc, raw: meta.raw };
  }

  /** The reader's warnings (an IPTC block it could not read, a bad date) go to the batch, naming the file. */
  private async addReaderWarnings(job: ItemJob, file: string, warnings: string[]): Promise<void> {
    const shown = warnings.slice(0, MAX_READER_WARNINGS);
    if (warnings.length > shown.length)
      shown.push(`${warnings.length - shown.length} more metadata warnings not listed`);
    for (const w of shown) await this.p.catalog.addWarning(job.batchId, `${file}: ${w}`);
  }

  /**
   * Store the original and its renditions, content-addressed. A photo whose manifest already exists
   * (same bytes seen before, on this machine or another, or a retry after a crash) is not rendered
   * again: the manifest is created last, so its presence means every object it lists is whole.
   */
  private async storeImage(
    img: ReadImage,
    label: string,
    creditLine: string | null,
    copyright: string | null,
    clock: StageClock,
    itemId: string,
    previewRights: PreviewRights,
  ): Promise<StoredImage> {
    const { store, codec } = this.p;
    const { bytes, sha256, probe } = img;
    const ext = probe.format === 'jpeg' ? 'jpg' : probe.format;
    const imageOf = (m: RenditionManifest, original: string): StoredImage['image'] => ({
      sha256,
      width: probe.width,
      height: probe.height,
      format: probe.format,
      bytes: bytes.length,
      original,
      phash: m.phash,
    });

    const existing = await store.readManifest(sha256);
    if (existing) {
      clock.lap('store');
      return { image: imageOf(existing, originalKey(sha256, ext)), renditions: existing.renditions, rendered: false };
    }
    // The original is stored while the photo renders, not before: the copy is I/O, rendering is CPU,
    // and overlapped they keep the cores busy (docs/BENCHMARKS.md, "End to end"). It is awaited
    // before the manifest, so the manifest still means everything before it is whole.
    const originalStored = store.putOriginal(sha256, ext, bytes);
    originalStored.catch(() => undefined);
    const plan = planRenditions({ creditLine, copyright });
    clock.lap('store');
    const out = await codec.render(bytes, label, plan, previewRights);
    clock.lap('renditions');
    const renditions = await Promise.all(
      out.renditions.map(async (r): Promise<Rendition> => {
        const spec = plan.renditions.find((s) => s.name === r.name)!;
        const put = await store.putRendition(sha256, spec.file, r.data);
        return { name: spec.name, path: put.key, width: r.width, height: r.height, format: r.format, bytes: put.bytes };
      }),
    );
    const original = await originalStored;
    const manifest: RenditionManifest = {
      sha256,
      width: probe.width,
      height: probe.height,
      format: probe.format,
      phash: dhash64(out.gray9x8),
      renditions,
    };
    const kept = await store.putManifest(manifest, {
      beforeCommit: () => this.p.pause?.('render', itemId) ?? Promise.resolve(),
    });
    clock.lap('store');
    return { image: imageOf(kept.manifest, original), renditions: kept.manifest.renditions, rendered: true };
  }
}
