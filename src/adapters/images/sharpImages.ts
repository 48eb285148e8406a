import sharp, { type Metadata } from 'sharp';
import { InputError } from '../../core/errors';
import type { RenditionPlan } from '../../core/images/planRenditions';
import { embedPreviewRights, type PreviewRights } from '../../core/metadata/previewRights';

// libvips threads per image add little for JPEG decode; throughput comes from images in flight
// (worker concurrency), so each image gets one libvips thread and the cache is off to bound RSS.
sharp.concurrency(1);
sharp.cache(false);

export interface ImageProbe {
  format: string;
  /** As displayed: EXIF orientation applied. */
  width: number;
  height: number;
  orientation: number | null;
  space: string | null;
  xmp: Buffer | null;
  iptc: Buffer | null;
}

export interface RenderedImage {
  name: string;
  data: Buffer;
  width: number;
  height: number;
  format: string;
}

export interface RenderResult {
  renditions: RenderedImage[];
  /** 9x8 grayscale pixels of the upright image, for the 64-bit perceptual hash. */
  gray9x8: Uint8Array;
}

const READABLE_FORMATS = new Set(['jpeg', 'png', 'tiff', 'webp', 'gif', 'heif', 'avif']);

/**
 * Why a decode failed, in words a desk understands: for a cut-short file libvips often says only
 * "Unknown error". A JPEG is whole when an end marker follows its last scan (an EXIF thumbnail
 * has its own, earlier one); a PNG when it has its end chunk.
 */
function damage(bytes: Buffer): string {
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8;
  if (jpeg && bytes.lastIndexOf(Buffer.from([0xff, 0xd9])) < bytes.lastIndexOf(Buffer.from([0xff, 0xda]))) {
    return 'the file is cut short (it ends inside the image data, with no JPEG end marker), as after an interrupted download or copy';
  }
  const png = bytes.length > 8 && bytes.toString('latin1', 1, 4) === 'PNG';
  if (png && bytes.lastIndexOf('IEND', undefined, 'latin1') === -1) {
    return 'the file is cut short (no PNG end chunk), as after an interrupted download or copy';
  }
  return 'the file is structurally broken (it is not cut short: its image data is damaged)';
}

/**
 * libvips repeats itself: one damaged JPEG gives the same "Corrupt JPEG data" line several times,
 * spread over lines with "VipsJpeg:"/"vips2jpeg:" prefixes and a trailing "load failed" line.
 * Keep the first distinct reason, once, and say how many more lines there were.
 */
export function libvipsReason(message: string): string {
  const seen = new Set<string>();
  const reasons: string[] = [];
  const header = /^Input (?:buffer|file) has corrupt header:\s*/i.exec(message);
  const body = header ? message.slice(header[0].length) : message;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw
      .trim()
      .replace(/^(?:vips\w*|Vips\w*)\s*:\s*/i, '')
      .trim();
    if (!line || /^(?:\w+load(?:_buffer)?: )?(?:load|read) failed$|^source input is empty$/i.test(line)) continue;
    const key = line.toLowerCase().replace(/\d+/g, '#');
    if (seen.has(key)) continue;
    seen.add(key);
    reasons.push(line);
  }
  const lead = header ? 'corrupt header' : '';
  if (reasons.length === 0) return lead || (message.trim().split(/\r?\n/)[0] ?? '');
  const first = lead ? `${lead}: ${reasons[0]}` : reasons[0];
  const more = reasons.length - 1;
  return more > 0 ? `${first} (and ${more} more decoder ${more === 1 ? 'error' : 'errors'})` : first;
}

function decodeError(err: unknown, label: string, bytes: Buffer): InputError {
  const msg = err instanceof Error ? err.message : String(err);
  if (/pixel limit|exceeds pixel/i.test(msg)) {
    return new InputError('IMAGE_TOO_LARGE', `${label}: ${msg}`);
  }
  if (/unsupported image format/i.test(msg)) {
    return new InputError('IMAGE_UNSUPPORTED', `${label}: not an image format photowire reads (${msg})`);
  }
  return new InputError(
    'IMAGE_CORRUPT',
    `${label}: the image could not be decoded: ${damage(bytes)} (libvips: ${libvipsReason(msg)})`,
  );
}

/**
 * Read the header only: format, declared size and embedded metadata blocks. The pixel cap is
 * checked here, before any decode, so a 50,000 x 50,000 bomb costs nothing.
 */
export async function probeImage(bytes: Buffer, label: string, maxPixels: number): Promise<ImageProbe> {
  if (bytes.length === 0) throw new InputError('IMAGE_CORRUPT', `${label}: the file is empty (0 bytes)`);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw decodeError(err, label, bytes);
  }
  if (!meta.format || !READABLE_FORMATS.has(meta.format)) {
    throw new InputError(
      'IMAGE_UNSUPPORTED',
      `${label}: ${meta.format ?? 'unknown'} is not an image format photowire reads`,
    );
  }
  // The size as displayed (EXIF orientation applied), like the renditions: a portrait is taller than wide.
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (width <= 0 || height <= 0) throw new InputError('IMAGE_CORRUPT', `${label}: the image declares no size`);
  if (width * height > maxPixels) {
    throw new InputError(
      'IMAGE_TOO_LARGE',
      `${label}: ${width}x${height} is ${((width * height) / 1e6).toFixed(1)} MP, over the cap of ${(maxPixels / 1e6).toFixed(1)} MP (PHOTOWIRE_MAX_PIXELS)`,
    );
  }
  return {
    format: meta.format,
    width,
    height,
    orientation: meta.orientation ?? null,
    space: meta.space ?? null,
    xmp: meta.xmp ?? null,
    iptc: meta.iptc ?? null,
  };
}

interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const fitsIn = (px: RawPixels, box: number) => px.width <= box && px.height <= box;

async function shrinkRaw(src: RawPixels, box: number): Promise<RawPixels> {
  const raw = { width: src.width, height: src.height, channels: src.channels };
  const out = await sharp(src.data, { raw })
    .resize({ width: box, height: box, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: out.data, width: out.info.width, height: out.info.height, channels: out.info.channels };
}

async function encode(
  src: RawPixels,
  spec: RenditionPlan['renditions'][number],
  exif: { IFD0: Record<string, string> } | undefined,
): Promise<RenderedImage> {
  let img = sharp(src.data, { raw: { width: src.width, height: src.height, channels: src.channels } });
  if (exif) img = img.withExif(exif);
  // Baseline JPEG with optimised Huffman tables: the same size as progressive, and the whole stage
  // 9% faster (docs/BENCHMARKS.md, "How photowire makes the two renditions").
  img =
    spec.format === 'webp'
      ? img.webp({ quality: spec.quality, effort: 2 })
      : img.jpeg({ quality: spec.quality, progressive: false, optimiseCoding: true });
  const out = await img.toBuffer({ resolveWithObject: true });
  return { name: spec.name, data: out.data, width: out.info.width, height: out.info.height, format: spec.format };
}

/**
 * Decode once at the largest size any rendition needs (libvips shrink-on-load for JPEG, read
 * sequentially so a 24 MP photo is never held decoded in full), then make each smaller rendition from the
 * pixels of the next larger one: thumb from preview pixels, the hash from thumb pixels. Each
 * rendition is encoded while the next is being resized.
 */
export async function renderRenditions(
  bytes: Buffer,
  label: string,
  plan: RenditionPlan,
  maxPixels: number,
  /** Special Instructions and usage terms the preview's IPTC/XMP carry. */
  previewRights?: PreviewRights,
): Promise<RenderResult> {
  let base: RawPixels;
  try {
    const out = await sharp(bytes, { limitInputPixels: maxPixels, sequentialRead: true, failOn: 'error' })
      .autoOrient()
      .resize({ width: plan.decodeBox, height: plan.decodeBox, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    base = { data: out.data, width: out.info.width, height: out.info.height, channels: out.info.channels };
  } catch (err) {
    throw decodeError(err, label, bytes);
  }
  const exif = plan.exif ? { IFD0: plan.exif } : undefined;

  const largestFirst = [...plan.renditions].sort((a, b) => b.box - a.box);
  const encoded = new Map<string, Promise<RenderedImage>>();
  let pixels = base;
  for (const spec of largestFirst) {
    if (!fitsIn(pixels, spec.box)) pixels = await shrinkRaw(pixels, spec.box);
    const pending = encode(pixels, spec, exif);
    // Awaited below; the no-op handler only keeps a failure during the next resize from being "unhandled".
    pending.catch(() => undefined);
    encoded.set(spec.name, pending);
  }
  const gray = await sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: pixels.channels },
  })
    .resize(9, 8, { fit: 'fill' })
    .grayscale()
    .raw()
    .toBuffer();
  const renditions = (await Promise.all(plan.renditions.map((r) => encoded.get(r.name)!))).map((r) =>
    r.name === 'preview' && r.format === 'jpeg' && previewRights
      ? { ...r, data: embedPreviewRights(r.data, previewRights) }
      : r,
  );
  return { renditions, gray9x8: new Uint8Array(gray.buffer, gray.byteOffset, 72) };
}
