import type { IptcFields } from '../../schemas/feedItem';
import { parseIim, parseIimDatasets, type IimBlock, type IimDataset } from './iim';
import { MARKER, scanJpeg, type JpegSegment } from './jpegSegments';
import { exifFieldsFromTiff, readExifBlock } from './exifFields';
import { mergeIimXmp, type DigestState } from './mergeIimXmp';
import { defaultDefaultTexts, type DefaultTexts } from './defaultTexts';
import { iimDateToIso, joinIsoDateTime, readIimTime } from './dates';
import {
  IRB_IPTC,
  IRB_IPTC_DIGEST,
  PHOTOSHOP_HEADER,
  irbStart,
  readIrbResources,
  startsWithAscii,
} from './photoshopIrb';
import { MetadataBudget, packetEnd, skippedWarning, type MetadataLimits } from './budget';
import { isPng, readPngChunks } from './pngChunks';
import { decodeXmpBytes } from './textCodecs';
import { TIFF_TAG, isTiff, readTiff } from './tiffIfd';
import { isWebp, readWebpChunks } from './webpChunks';
import { finishXmpValues, readXmpPacket, type XmpValues } from './xmp';

export interface ImageMetadata {
  /** IIM and XMP merged by the rule documented in mergeIimXmp.ts. */
  iptc: IptcFields;
  raw: {
    /** Every dataset of the IIM block that was read, in file order. */
    iim: IimDataset[];
    /** The XMP packet(s) as text; several packets (cech.jpg has two) are joined by a newline, in file order. */
    xmp: string | null;
  };
  /** What was damaged, ignored or odd; the caller prefixes the file name. */
  warnings: string[];
}

export interface ImageMetadataBySource extends ImageMetadata {
  /** What each source says on its own; `exif` holds only the four fields MWG reads from EXIF. */
  bySource: { iim: IptcFields; xmp: IptcFields; exif: IptcFields };
  /** The IPTC digest check that decided between IIM and XMP (mergeIimXmp.ts). */
  digest: DigestState;
}

/** What the reader needs besides the bytes. */
export interface ReadOptions {
  /**
   * Camera and software defaults to drop (defaultTexts.ts): the shipped ones when not given (the
   * pipeline passes those PHOTOWIRE_DEFAULT_TEXT_RULES extends), none with `false`.
   */
  defaultTexts?: DefaultTexts | false;
  /** When the file arrived, ISO 8601: the transmission time when the IIM envelope (1:70) gives none. */
  receivedAt?: string;
}

export const XMP_APP1_HEADER = 'http://ns.adobe.com/xap/1.0/\0';
export const XMP_EXT_APP1_HEADER = 'http://ns.adobe.com/xmp/extension/\0';

/**
 * Read IPTC IIM, XMP and the EXIF caption/artist/copyright/date from a JPEG, TIFF (either
 * byte order), PNG or WebP without decoding it: a pure function of the bytes, so a photo
 * that cannot be decoded still gives its caption and credit. Other formats give empty
 * fields and a warning. Never throws on damaged input.
 */
export function readImageMetadata(
  bytes: Uint8Array,
  limits?: Partial<MetadataLimits>,
  options: ReadOptions = {},
): ImageMetadata {
  return withoutSources(readImageMetadataBySource(bytes, limits, options));
}

/** The containers readImageMetadata reads itself; for others (GIF, HEIF, AVIF) use readMetadataBlocks on a decoder's blocks. */
export function metadataContainer(bytes: Uint8Array): 'jpeg' | 'tiff' | 'png' | 'webp' | undefined {
  if (isPng(bytes)) return 'png';
  if (isWebp(bytes)) return 'webp';
  if (isTiff(bytes)) return 'tiff';
  return scanJpeg(bytes.subarray(0, 4)).isJpeg ? 'jpeg' : undefined;
}

/** Also what IIM, XMP and EXIF say on their own, before the merge: for diagnostics and tests. */
export function readImageMetadataBySource(
  bytes: Uint8Array,
  limits?: Partial<MetadataLimits>,
  options: ReadOptions = {},
): ImageMetadataBySource {
  // One budget per file, across every block of it (src/core/metadata/budget.ts).
  const budget = new MetadataBudget(limits);
  if (isPng(bytes)) return readPng(bytes, budget, options);
  if (isWebp(bytes)) return readWebp(bytes, budget, options);
  const tiff = readTiff(bytes, 'TIFF');
  if (tiff) return readTiffFile(tiff, budget, options);
  const scan = scanJpeg(bytes);
  if (!scan.isJpeg) {
    return {
      iptc: {},
      raw: { iim: [], xmp: null },
      warnings: ['not a JPEG, TIFF, PNG or WebP: no IPTC/XMP read from it'],
      bySource: { iim: {}, xmp: {}, exif: {} },
      digest: 'no-iim',
    };
  }
  const warnings = [...scan.warnings];
  const app13 = readApp13(bytes, scan.segments, warnings);
  const xmp = readApp1Xmp(bytes, scan.segments, warnings, budget);
  const exif = readApp1Exif(bytes, scan.segments, warnings);
  return assemble(app13.iim, app13.storedDigest, xmp, warnings, options, exif);
}

function readApp1Exif(buf: Uint8Array, segments: JpegSegment[], warnings: string[]): IptcFields {
  // the first EXIF APP1 is the standard one (MWG strict mode ignores others)
  const seg = segments.find((s) => s.marker === MARKER.APP1 && startsWithAscii(buf, s.payloadStart, 'Exif\0'));
  if (!seg) return {};
  return readExifBlock(buf.subarray(seg.payloadStart, seg.end), `EXIF APP1 at byte ${seg.start}`, warnings);
}

/** TIFF: IIM in tag 33723, the Photoshop IRB (IPTC digest, maybe IIM too) in 34377, XMP in 700, EXIF in IFD0. */
function readTiffFile(
  tiff: NonNullable<ReturnType<typeof readTiff>>,
  budget: MetadataBudget,
  options: ReadOptions,
): ImageMetadataBySource {
  const warnings = [...tiff.warnings];
  let iim: IimBlock | undefined;
  let storedDigest: string | undefined;
  const irb = tiff.ifd0.get(TIFF_TAG.Photoshop);
  let irbIim: Uint8Array | undefined;
  if (irb) {
    for (const r of readIrbResources(irb.bytes, 0, warnings, 'TIFF Photoshop tag 34377')) {
      if (r.id === IRB_IPTC_DIGEST && storedDigest === undefined) storedDigest = Buffer.from(r.data).toString('hex');
      if (r.id === IRB_IPTC && irbIim === undefined) irbIim = r.data;
    }
  }
  const iptcTag = tiff.ifd0.get(TIFF_TAG.IPTC)?.bytes ?? irbIim;
  if (iptcTag && iptcTag.length > 0) {
    const blockWarnings: string[] = [];
    // ImageMagick writes a big-endian TIFF's IPTC tag with every 4-byte word swapped in the file
    // itself (ExifTool reads it back the same way); a block that starts with 0x1C is left as it is.
    iim = parseIimDatasets(unswapWords(iptcTag), blockWarnings);
    warnings.push(...blockWarnings.map((w) => `TIFF IPTC tag 33723: ${w}`));
  }
  const xmpTag = tiff.ifd0.get(TIFF_TAG.XMP);
  const xmp = readPackets(
    xmpTag ? [xmpBlock(xmpTag.bytes, 'TIFF XMP tag 700', budget, warnings)] : [],
    undefined,
    warnings,
    budget,
  );
  return assemble(iim, storedDigest, xmp, warnings, options, exifFieldsFromTiff(tiff, warnings));
}

function readPng(bytes: Uint8Array, budget: MetadataBudget, options: ReadOptions): ImageMetadataBySource {
  const png = readPngChunks(bytes, budget);
  const warnings = [...png.warnings];
  let iim: IimBlock | undefined;
  let storedDigest: string | undefined;
  for (const irb of png.irb) {
    const start = irbStart(irb) >= 0 ? irbStart(irb) : 0;
    for (const r of readIrbResources(irb, start, warnings, 'PNG raw profile 8bim')) {
      if (r.id === IRB_IPTC_DIGEST && storedDigest === undefined) storedDigest = Buffer.from(r.data).toString('hex');
      if (r.id === IRB_IPTC && !iim) iim = parseIimDatasets(r.data, warnings);
    }
  }
  if (!iim && png.iptc.length > 0) {
    iim = parseIim(png.iptc[0]);
    warnings.push(...iim.warnings.map((w) => `PNG raw profile iptc: ${w}`));
    storedDigest ??= digestFromIrb(png.iptc[0]);
  }
  const xmp = readPackets(png.xmp, undefined, warnings, budget);
  const exif = png.exif.length > 0 ? readExifBlock(png.exif[0], 'PNG EXIF', warnings) : {};
  return assemble(iim, storedDigest, xmp, warnings, options, exif);
}

function readWebp(bytes: Uint8Array, budget: MetadataBudget, options: ReadOptions): ImageMetadataBySource {
  const webp = readWebpChunks(bytes);
  const warnings = [...webp.warnings];
  const xmp = readPackets(
    webp.xmp.map((b) => xmpBlock(b, 'WebP XMP chunk', budget, warnings)),
    undefined,
    warnings,
    budget,
  );
  const exif = webp.exif.length > 0 ? readExifBlock(webp.exif[0], 'WebP EXIF', warnings) : {};
  return assemble(undefined, undefined, xmp, warnings, options, exif);
}

/**
 * The same result for blocks a decoder handed over (sharp's metadata() gives `iptc` and
 * `xmp` buffers for PNG, TIFF and WebP). `iptc` may be raw IIM or a Photoshop IRB.
 */
export function readMetadataBlocks(
  blocks: { iptc?: Uint8Array | null; xmp?: Uint8Array | string | null },
  limits?: Partial<MetadataLimits>,
  options: ReadOptions = {},
): ImageMetadata {
  const budget = new MetadataBudget(limits);
  const warnings: string[] = [];
  let iim: IimBlock | undefined;
  let storedDigest: string | undefined;
  if (blocks.iptc && blocks.iptc.length > 0) {
    iim = parseIim(unswapWords(blocks.iptc));
    warnings.push(...iim.warnings);
    storedDigest = digestFromIrb(blocks.iptc);
  }
  const packets: string[] = [];
  if (blocks.xmp !== undefined && blocks.xmp !== null && blocks.xmp.length > 0) {
    packets.push(typeof blocks.xmp === 'string' ? blocks.xmp : xmpBlock(blocks.xmp, 'XMP block', budget, warnings));
  }
  const xmp = readPackets(packets, undefined, warnings, budget);
  return withoutSources(assemble(iim, storedDigest, xmp, warnings, options));
}

/**
 * libvips copies a big-endian TIFF's IPTC tag (LONGs) with every 4-byte word swapped: the
 * block then starts "?? ?? ?? 1C" instead of "1C ...". Put the bytes back in file order.
 */
export function unswapWords(block: Uint8Array): Uint8Array {
  if (
    block[0] === 0x1c ||
    block.length < 4 ||
    block[3] !== 0x1c ||
    startsWithAscii(block, 0, '8BIM') ||
    irbStart(block) >= 0
  )
    return block;
  const out = Buffer.from(block);
  for (let i = 0; i + 4 <= out.length; i += 4) out.set([block[i + 3], block[i + 2], block[i + 1], block[i]], i);
  return out;
}

function withoutSources(r: ImageMetadataBySource): ImageMetadata {
  return { iptc: r.iptc, raw: r.raw, warnings: r.warnings };
}

interface XmpRead {
  values: XmpValues;
  alternates: XmpValues;
  texts: string[];
}

function assemble(
  iim: IimBlock | undefined,
  storedDigest: string | undefined,
  xmp: XmpRead,
  warnings: string[],
  options: ReadOptions,
  exif: IptcFields = {},
): ImageMetadataBySource {
  let digest: DigestState = 'no-iim';
  if (iim && iim.datasets.length > 0)
    digest = storedDigest === undefined ? 'no-digest' : storedDigest === iim.digest ? 'current' : 'stale';
  if (digest === 'stale')
    warnings.push('IPTCDigest is not current: the IIM was edited after the XMP was written (IIM is used, as MWG says)');
  const finished = finishXmpValues(xmp.values);
  warnings.push(...finished.warnings);
  const defaultTexts = options.defaultTexts === false ? undefined : (options.defaultTexts ?? defaultDefaultTexts());
  const merged = mergeIimXmp(iim, finished.fields, {
    digest,
    exif,
    warnings,
    xmpAlternates: finishXmpValues(xmp.alternates).fields,
    transmittedAt: (iim && dateSent(iim)) ?? options.receivedAt,
    defaultTexts,
  });
  return {
    iptc: merged,
    raw: { iim: iim?.datasets ?? [], xmp: xmp.texts.length > 0 ? xmp.texts.join('\n') : null },
    warnings,
    bySource: { iim: iim?.iptc ?? {}, xmp: finished.fields, exif },
    digest,
  };
}

/** The IIM envelope's Date Sent (1:70) and Time Sent (1:80), as ISO 8601: when the service transmitted the file. */
function dateSent(iim: IimBlock): string | undefined {
  const date = iim.datasets.find((d) => d.record === 1 && d.dataset === 70)?.value;
  const iso = date !== undefined ? iimDateToIso(date.trim()) : undefined;
  if (iso === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) return undefined;
  const time = iim.datasets.find((d) => d.record === 1 && d.dataset === 80)?.value;
  return joinIsoDateTime(iso, time !== undefined ? readIimTime(time).iso : undefined);
}

function readApp13(
  buf: Uint8Array,
  segments: JpegSegment[],
  warnings: string[],
): { iim?: IimBlock; storedDigest?: string } {
  let iim: IimBlock | undefined;
  let storedDigest: string | undefined;
  let extraBlocks = 0;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg.marker !== MARKER.APP13) continue;
    let payload = buf.subarray(seg.payloadStart, seg.end);
    const start = irbStart(payload);
    if (start < 0) continue;
    // An IRB over 64 KB continues in the following APP13 segments, each with its own header.
    const parts: Uint8Array[] = [];
    while (segments[i + 1]?.marker === MARKER.APP13) {
      const next = buf.subarray(segments[i + 1].payloadStart, segments[i + 1].end);
      if (!startsWithAscii(next, 0, PHOTOSHOP_HEADER)) break;
      parts.push(next.subarray(PHOTOSHOP_HEADER.length));
      i++;
    }
    if (parts.length > 0) payload = Buffer.concat([payload, ...parts]);
    const where = `APP13 at byte ${seg.start}`;
    for (const r of readIrbResources(payload, start, warnings, where)) {
      if (r.id === IRB_IPTC_DIGEST && storedDigest === undefined) storedDigest = Buffer.from(r.data).toString('hex');
      if (r.id !== IRB_IPTC) continue;
      if (iim) {
        extraBlocks++;
        continue;
      }
      const blockWarnings: string[] = [];
      iim = parseIimDatasets(r.data, blockWarnings);
      warnings.push(...blockWarnings.map((w) => `${where}: ${w}`));
    }
  }
  if (extraBlocks > 0)
    warnings.push(`${extraBlocks} more IPTC block(s) found after the first; only the first is read (as ExifTool does)`);
  return { iim, storedDigest };
}

function digestFromIrb(block: Uint8Array): string | undefined {
  const start = startsWithAscii(block, 0, '8BIM') ? 0 : irbStart(block);
  if (start < 0) return undefined;
  const digest = readIrbResources(block, start, [], '').find((r) => r.id === IRB_IPTC_DIGEST);
  return digest ? Buffer.from(digest.data).toString('hex') : undefined;
}

interface ExtendedChunks {
  size: number;
  chunks: Map<number, Uint8Array>;
}

function readApp1Xmp(buf: Uint8Array, segments: JpegSegment[], warnings: string[], budget: MetadataBudget): XmpRead {
  const packets: string[] = [];
  const extended = new Map<string, ExtendedChunks>();
  for (const seg of segments) {
    if (seg.marker !== MARKER.APP1) continue;
    const payload = buf.subarray(seg.payloadStart, seg.end);
    if (/^.{0,4}Exif\0/s.test(Buffer.from(payload.subarray(0, 9)).toString('latin1'))) continue;
    if (startsWithAscii(payload, 0, XMP_EXT_APP1_HEADER)) {
      collectExtendedChunk(payload, extended, warnings);
    } else if (startsWithAscii(payload, 0, XMP_APP1_HEADER)) {
      packets.push(packetText(payload.subarray(XMP_APP1_HEADER.length)));
    } else {
      // ExifTool also reads XMP behind a wrong header ("XMP\0://ns.adobe.com/..." in getty.jpg)
      const at = nonStandardXmpStart(payload);
      if (at >= 0) {
        warnings.push(`APP1 at byte ${seg.start}: non-standard header for an XMP segment (read anyway)`);
        packets.push(packetText(payload.subarray(at)));
      }
    }
  }
  return readPackets(packets, extended, warnings, budget);
}

/**
 * The text of an XMP block, or '' (with a warning) when its bytes are already past what one packet
 * may be in any encoding (4 bytes a character): a 200 MB TIFF tag is never decoded whole.
 */
function xmpBlock(bytes: Uint8Array, where: string, budget: MetadataBudget, warnings: string[]): string {
  if (bytes.length <= budget.limits.xmpPacketChars * 4) return decodeXmpBytes(bytes);
  warnings.push(
    skippedWarning(
      where,
      `is ${bytes.length} bytes, over the cap of ${budget.limits.xmpPacketChars} characters for one XMP packet`,
    ),
  );
  return '';
}

function readPackets(
  packets: string[],
  extended: Map<string, ExtendedChunks> | undefined,
  warnings: string[],
  budget: MetadataBudget,
): XmpRead {
  const values: XmpValues = {};
  const alternates: XmpValues = {};
  const texts: string[] = [];
  let announced: string | undefined;
  // Several packets (cech.jpg): a later packet overrides an earlier one property by
  // property, which is the value ExifTool reports when it finds a tag twice.
  let n = 0;
  const pastTotal: number[] = [];
  for (const text of packets) {
    n++;
    if (text === '') continue;
    const over = budget.takeXmp(text.length);
    if (over === 'total') pastTotal.push(n);
    if (over === 'total' || over !== undefined) {
      if (over !== 'total') warnings.push(skippedWarning(`XMP packet ${n} of ${packets.length}`, over));
      continue;
    }
    const packet = readXmpPacket(text);
    warnings.push(...packet.warnings);
    Object.assign(values, packet.values);
    Object.assign(alternates, packet.alternates);
    if (packet.hasExtendedXmp !== undefined) announced = packet.hasExtendedXmp;
    texts.push(text);
  }
  if (pastTotal.length > 0) {
    warnings.push(
      skippedWarning(
        `XMP packets ${pastTotal[0]} to ${pastTotal[pastTotal.length - 1]} of ${packets.length} (${pastTotal.length})`,
        `would take the file's XMP past its budget of ${budget.limits.xmpTotalChars} characters`,
      ),
    );
  }
  for (const [guid, ext] of extended ?? []) {
    if (guid !== announced) {
      warnings.push(`extended XMP ${guid} is not the one the main XMP announces; ignored`);
      continue;
    }
    // the declared size is checked before any chunk is copied: it may say 4 GB
    if (ext.size > budget.limits.xmpPacketChars * 4) {
      warnings.push(
        skippedWarning(
          `extended XMP ${guid}`,
          `declares ${ext.size} bytes, over the cap of ${budget.limits.xmpPacketChars} characters for one XMP packet`,
        ),
      );
      continue;
    }
    const whole = assembleExtended(ext);
    if (!whole) {
      warnings.push(`extended XMP ${guid} is incomplete; ignored`);
    } else {
      const text = decodeXmpBytes(whole);
      const over = budget.takeXmp(text.length);
      if (over !== undefined) {
        warnings.push(
          skippedWarning(
            `extended XMP ${guid}`,
            over === 'total'
              ? `would take the file's XMP past its budget of ${budget.limits.xmpTotalChars} characters`
              : over,
          ),
        );
        continue;
      }
      const packet = readXmpPacket(text);
      warnings.push(...packet.warnings);
      Object.assign(values, packet.values);
      Object.assign(alternates, packet.alternates);
      texts.push(text);
    }
  }
  return { values, alternates, texts };
}

// Extended XMP chunk: header, GUID (32 ASCII hex), full length (4), offset of this chunk (4), data.
function collectExtendedChunk(payload: Uint8Array, extended: Map<string, ExtendedChunks>, warnings: string[]): void {
  const h = XMP_EXT_APP1_HEADER.length;
  if (payload.length <= h + 40) {
    warnings.push('extended XMP segment too short; ignored');
    return;
  }
  const guid = Buffer.from(payload.subarray(h, h + 32)).toString('latin1');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const size = view.getUint32(h + 32);
  const offset = view.getUint32(h + 36);
  const entry = extended.get(guid) ?? { size, chunks: new Map() };
  entry.chunks.set(offset, payload.subarray(h + 40));
  extended.set(guid, entry);
}

function assembleExtended(ext: ExtendedChunks): Buffer | undefined {
  const parts: Uint8Array[] = [];
  let off = 0;
  while (off < ext.size) {
    const chunk = ext.chunks.get(off);
    if (!chunk || chunk.length === 0) return undefined;
    parts.push(chunk);
    off += chunk.length;
  }
  return off === ext.size ? Buffer.concat(parts) : undefined;
}

const XML_STARTS = ['<?xpacket', '<x:xmpmeta', '<x:xapmeta', '<rdf:RDF'];

function nonStandardXmpStart(payload: Uint8Array): number {
  const b = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const looksXmp =
    startsWithAscii(b, 0, 'http') || startsWithAscii(b, 0, 'XMP\0') || b.includes('<?xpacket') || b.includes('<exif:');
  if (!looksXmp) return -1;
  let best = -1;
  for (const s of XML_STARTS) {
    const i = b.indexOf(s, 0, 'latin1');
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best;
}

/** Decode a packet and drop what follows its closing processing instruction (padding, NULs, junk). */
function packetText(bytes: Uint8Array): string {
  const text = decodeXmpBytes(bytes);
  return text.slice(0, packetEnd(text));
}
