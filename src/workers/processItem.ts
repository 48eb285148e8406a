import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readConfinedFile } from '../adapters/storage/dataDir';
import { fetchImageBytes, isHttpUrl } from '../sources/http/fetchUrl';
import { probeImage, renderRenditions } from '../adapters/images/sharpImages';
import { removedFileMarker } from '../core/captions/boilerplate';
import { cleanCaption } from '../core/captions/cleanCaption';
import { normalizeCredit } from '../core/credits/normalizeCredit';
import { dhash64 } from '../core/dedup/phash';
import { InputError, type ErrorCode } from '../core/errors';
import { planRenditions } from '../core/images/planRenditions';
import { pixelBytes } from '../core/images/pixelFingerprint';
import { metadataContainer, readImageMetadata, readMetadataBlocks } from '../core/metadata';
import { buildRecord, mergeIptc } from '../core/records/buildRecord';
import { capFields } from '../core/records/fieldCaps';
import type { IptcFields } from '../schemas/feedItem';
import type { ItemJob } from '../schemas/jobs';
import type { CatalogRecord, RecordError, Rendition } from '../schemas/record';
import type { PipelineContext } from './pipelineContext';
import { testPause } from './testPause';
import { failedItemRights, itemRights, previewRightsOf } from './itemRights';
import { settleKills } from './itemKills';
import type { PreviewRights } from '../core/metadata/previewRights';
import type { Notice } from '../schemas/notice';

/** Milliseconds spent in each part of the item stage; logged with "item done" (the pipeline bench reads them). */
export interface StageTimings {
  read: number;
  metadata: number;
  captionCredit: number;
  renditions: number;
  store: number;
  dedup: number;
  record: number;
}

/** A stopwatch charged lap by lap: one clock read per stage, cheap beside any stage it measures. */
class StageClock {
  readonly ms: StageTimings = { read: 0, metadata: 0, captionCredit: 0, renditions: 0, store: 0, dedup: 0, record: 0 };
  private last = performance.now();
  lap(stage: keyof StageTimings): void {
    const now = performance.now();
    this.ms[stage] += now - this.last;
    this.last = now;
  }
  rounded(): StageTimings {
    const out = { ...this.ms };
    for (const k of Object.keys(out) as Array<keyof StageTimings>) out[k] = Math.round(out[k] * 10) / 10;
    return out;
  }
}

interface StoredRenditions {
  sha256: string;
  width: number;
  height: number;
  format: string;
  phash: string;
  renditions: Rendition[];
}

export interface ImageOutcome {
  iptc: IptcFields;
  image: NonNullable<CatalogRecord['image']>;
  renditions: Rendition[];
  rendered: boolean;
}

/**
 * What the reader found in a photo's bytes, by the job it was read for: a photo that then fails
 * to decode keeps its caption, by-line and copyright in its failed record (failedRecord below).
 */
const metadataRead = new WeakMap<ItemJob, IptcFields>();
/** The raw IIM/XMP of the same, for the failed record's rights and release (failedItemRights). */
const rawRead = new WeakMap<ItemJob, ReadImage['raw']>();

/** The job as failedRecord sees it: the feed's IPTC completed by what the photo itself said, if it was read. */
function withMetadataRead(job: ItemJob): ItemJob {
  const embedded = metadataRead.get(job);
  return embedded ? { ...job, item: { ...job.item, iptc: mergeIptc(job.item.iptc, embedded) } } : job;
}

interface ReadImage {
  bytes: Buffer;
  sha256: string;
  /** Hash of the compressed pixels only: equal for a resend whose metadata alone changed. */
  pixelSha256: string;
  probe: Awaited<ReturnType<typeof probeImage>>;
  iptc: IptcFields;
  /** The raw IIM datasets and XMP text, for rights and release fields IptcFields has no place for. */
  raw: { iim: Array<{ record: number; dataset: number; value: string }>; xmp: string | null };
}

// a damaged photo can give many; the batch shows the first ones and how many more there were
const MAX_READER_WARNINGS = 10;

/** The reader's warnings (an IPTC block it could not read, a bad date) go to the batch, naming the file. */
async function addReaderWarnings(ctx: PipelineContext, job: ItemJob, file: string, warnings: string[]): Promise<void> {
  const shown = warnings.slice(0, MAX_READER_WARNINGS);
  if (warnings.length > shown.length) shown.push(`${warnings.length - shown.length} more metadata warnings not listed`);
  for (const w of shown) await ctx.catalog.addWarning(job.batchId, `${file}: ${w}`);
}

/** Read the photo (confined, size-capped), hash it, check its header and read its embedded metadata. */
async function readImage(ctx: PipelineContext, job: ItemJob, clock: StageClock): Promise<ReadImage> {
  const file = job.item.image!;
  // An HTTP feed names its photos by URL: downloaded under the fetch limits (allow-list, timeout, size cap, retries).
  const bytes = isHttpUrl(file) ? await fetchImageBytes(file, ctx.config) : await readConfinedFile(job.root, file, ctx.config.maxFileBytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const pixels = pixelBytes(bytes);
  const pixelSha256 = pixels === bytes ? sha256 : createHash('sha256').update(pixels).digest('hex');
  clock.lap('read');
  // Metadata first, from the bytes alone (JPEG, TIFF either byte order, PNG, WebP; src/core/metadata):
  // a photo that cannot be decoded still has its caption and credit read.
  const ownReader = metadataContainer(bytes) !== undefined;
  const own = ownReader ? readImageMetadata(bytes) : undefined;
  if (own) {
    metadataRead.set(job, own.iptc);
    rawRead.set(job, own.raw);
    await addReaderWarnings(ctx, job, file, own.warnings);
  }
  clock.lap('metadata');
  const probe = await probeImage(bytes, file, ctx.config.maxPixels);
  // GIF, HEIF, AVIF: the XMP/IPTC blocks libvips found
  const meta = own ?? readMetadataBlocks({ iptc: probe.iptc ?? undefined, xmp: probe.xmp ?? undefined });
  if (!own) await addReaderWarnings(ctx, job, file, meta.warnings);
  const iptc = mergeIptc(job.item.iptc, meta.iptc);
  clock.lap('metadata');
  return { bytes, sha256, pixelSha256, probe, iptc, raw: meta.raw };
}

/**
 * Store the original and its renditions, content-addressed. A photo whose renditions already
 * exist (same bytes seen before, or a retry after a crash) is not rendered again: `renditions.json`
 * is written last, so its presence means every file before it is whole.
 */
async function storeImage(
  ctx: PipelineContext,
  img: ReadImage,
  label: string,
  creditLine: string | null,
  copyright: string | null,
  clock: StageClock,
  itemId: string,
  previewRights?: PreviewRights,
): Promise<ImageOutcome> {
  const { bytes, sha256, probe } = img;
  const ext = probe.format === 'jpeg' ? 'jpg' : probe.format;
  const original = ctx.data.originalPath(sha256, ext);
  // The original is copied while the photo renders, not before: the copy is I/O, rendering is CPU,
  // and overlapped they keep the cores busy (docs/BENCHMARKS.md, "End to end"). It is awaited before
  // renditions.json, so that file still means everything before it is whole.
  const originalStored = (async () => {
    if (!(await ctx.data.exists(original))) await ctx.data.writeAtomic(original, bytes);
  })();
  originalStored.catch(() => undefined);

  const dir = ctx.data.renditionDir(sha256);
  const manifestPath = path.join(dir, 'renditions.json');
  let stored = await ctx.data.readJson<StoredRenditions>(manifestPath);
  let rendered = false;
  if (!stored) {
    const plan = planRenditions({ creditLine, copyright });
    clock.lap('store');
    const out = await renderRenditions(bytes, label, plan, ctx.config.maxPixels, previewRights);
    clock.lap('renditions');
    const renditions: Rendition[] = [];
    for (const r of out.renditions) {
      const spec = plan.renditions.find((s) => s.name === r.name)!;
      const rel = path.join(dir, spec.file);
      await ctx.data.writeAtomic(rel, r.data);
      renditions.push({ name: spec.name, path: rel, width: r.width, height: r.height, format: r.format, bytes: r.data.length });
    }
    stored = { sha256, width: probe.width, height: probe.height, format: probe.format, phash: dhash64(out.gray9x8), renditions };
    await originalStored;
    await ctx.data.writeAtomic(manifestPath, JSON.stringify(stored, null, 2), { beforeRename: () => testPause(ctx, 'render', itemId) });
    rendered = true;
  }
  await originalStored;
  clock.lap('store');
  return {
    iptc: img.iptc,
    image: { sha256, width: probe.width, height: probe.height, format: probe.format, bytes: bytes.length, original, phash: stored.phash },
    renditions: stored.renditions,
    rendered,
  };
}

export interface ItemResult {
  record: CatalogRecord;
  rendered: boolean;
  timings: StageTimings;
}

/** The item stage: caption, credit, image, cluster, record. Throws InputError for bad input. */
export async function processItem(ctx: PipelineContext, job: ItemJob): Promise<ItemResult> {
  const { item } = job;
  if (item.error) throw new InputError(item.error.code as ErrorCode, item.error.message);

  const clock = new StageClock();
  const img = item.image ? await readImage(ctx, job, clock) : null;
  const iptc = img ? img.iptc : item.iptc;
  const captionRaw = item.captionRaw !== '' ? item.captionRaw : (iptc.caption ?? '');
  // Parsers see each field cut to its cap (docs/RELIABILITY.md, attack 4); the record keeps them whole.
  const capped = capFields({ captionRaw, title: item.title, iptc }, { file: item.source.file, item: job.itemId });
  for (const w of capped.warnings) ctx.logger.warn({ file: w.file, itemId: w.item, field: w.field, length: w.length, cap: w.cap, code: w.code }, w.message);
  const cleaned = cleanCaption(capped.captionRaw, { title: capped.title, rules: ctx.rules, boilerplate: ctx.boilerplate });
  const parsedCredit = normalizeCredit(
    {
      captionTail: cleaned.creditTail,
      byline: capped.iptc.byline ?? [],
      creditLine: capped.iptc.credit ?? null,
      source: capped.iptc.source ?? null,
      copyright: capped.iptc.copyright ?? null,
    },
    ctx.rules,
  );
  // "FILE PHOTO:", "File photo dated ..." sit in the caption body, not the credit tail, yet mark a file picture.
  const fileMarker = removedFileMarker(cleaned.removed);
  const credit = fileMarker ? { ...parsedCredit, flags: { ...parsedCredit.flags, file: true } } : parsedCredit;
  // Rights, embargo and notices (issue 16): src/workers/itemRights.ts
  const rr = itemRights(ctx, { item, iptc, raw: img?.raw, captionRaw, cleaned, credit });
  clock.lap('captionCredit');
  // The normalized credit is known before rendering, so it is what the renditions carry.
  const imageOutcome = img ? await storeImage(ctx, img, item.image!, credit.line, iptc.copyright ?? null, clock, job.itemId, previewRightsOf(rr, credit.line, iptc.copyright ?? null)) : null;
  // The caption's cluster (and so probableResend) is decided by the batch's finalize job, in feed
  // order, whichever worker finishes first (src/workers/clusterBatch.ts, docs/DEDUP.md).
  const cluster = null;
  const probableResend = false;
  let photo: CatalogRecord['photo'] = null;
  if (img && imageOutcome) {
    const agencyRef = item.agencyId ?? iptc.transmissionReference ?? null;
    photo = await ctx.photos.register({ itemId: job.itemId, sha256: img.sha256, pixelSha256: img.pixelSha256, agencyRef, phash: imageOutcome.image.phash });
  }
  await testPause(ctx, 'dedup', job.itemId);
  clock.lap('dedup');
  const built = buildRecord({
    photo,
    probableResend,
    id: job.itemId,
    batchId: job.batchId,
    item,
    iptc,
    captionRaw,
    cleaned,
    credit,
    image: imageOutcome?.image ?? null,
    renditions: imageOutcome?.renditions ?? [],
    cluster,
    error: null,
    processedAt: new Date().toISOString(),
    rights: rr.rights,
    release: rr.release,
  });
  // Indexed for kills; killed on arrival if its agency id or photo was; its own notice applied (src/workers/itemKills.ts).
  const record = await settleKills(ctx, built, rr.notice);
  clock.lap('record');
  return { record, rendered: imageOutcome?.rendered ?? false, timings: clock.rounded() };
}

/** The record of an item that failed: everything known about it, and why. Raw input is kept. */
/**
 * failedRecord, settled like a record that rendered (src/workers/itemKills.ts): indexed, so a later
 * kill of its agency id reaches it; killed on arrival; the kill or withdrawal it carries applied to
 * the records it names. If the kill store cannot be reached, the failed record as built.
 */
export async function settledFailedRecord(ctx: PipelineContext, queued: ItemJob, error: RecordError): Promise<CatalogRecord> {
  const record = failedRecord(ctx, queued, error);
  try {
    return await settleKills(ctx, record, failedNotices.get(record) ?? null);
  } catch {
    return record;
  }
}
const failedNotices = new WeakMap<CatalogRecord, Notice>();

export function failedRecord(ctx: PipelineContext, queued: ItemJob, error: RecordError): CatalogRecord {
  const job = withMetadataRead(queued);
  const captionRaw = job.item.captionRaw !== '' ? job.item.captionRaw : (job.item.iptc.caption ?? '');
  let cleaned;
  let credit;
  try {
    const capped = capFields({ captionRaw, title: job.item.title, iptc: job.item.iptc }, { file: job.item.source.file, item: job.itemId });
    cleaned = cleanCaption(capped.captionRaw, { title: capped.title, rules: ctx.rules, boilerplate: ctx.boilerplate });
    credit = normalizeCredit(
      {
        captionTail: cleaned.creditTail,
        byline: capped.iptc.byline ?? [],
        creditLine: capped.iptc.credit ?? null,
        source: capped.iptc.source ?? null,
        copyright: capped.iptc.copyright ?? null,
      },
      ctx.rules,
    );
  } catch {
    cleaned = { caption: captionRaw, removed: [], creditTail: null, dateCreated: null, dateline: null };
    credit = normalizeCredit({ captionTail: null, byline: [], creditLine: null, source: null, copyright: null }, ctx.rules);
  }
  const { notice, ...read } = failedItemRights(ctx, { item: job.item, iptc: job.item.iptc, raw: rawRead.get(queued), captionRaw, cleaned, credit, itemId: job.itemId, batchId: job.batchId });
  const record = buildRecord({
    ...read,
    id: job.itemId,
    batchId: job.batchId,
    item: queued.item,
    iptc: job.item.iptc,
    captionRaw,
    cleaned,
    credit,
    image: null,
    renditions: [],
    cluster: null,
    error,
    processedAt: new Date().toISOString(),
  });
  if (notice) failedNotices.set(record, notice);
  return record;
}
