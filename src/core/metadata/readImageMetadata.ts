import type { IptcFields } from '../../schemas/feedItem';
import { parseIim, parseIimDatasets, type IimBlock, type IimDataset } from './iim';
import { MARKER, scanJpeg, type JpegSegment } from './jpegSegments';
import { mergeIimXmp } from './mergeIimXmp';
import { IRB_IPTC, IRB_IPTC_DIGEST, PHOTOSHOP_HEADER, irbStart, readIrbResources, startsWithAscii } from './photoshopIrb';
import { decodeXmpBytes } from './textCodecs';
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
  bySource: { iim: IptcFields; xmp: IptcFields };
}

export const XMP_APP1_HEADER = 'http://ns.adobe.com/xap/1.0/\0';
export const XMP_EXT_APP1_HEADER = 'http://ns.adobe.com/xmp/extension/\0';

/**
 * Read IPTC IIM and XMP from a JPEG without decoding it and without copying it: only the
 * segments before the start of scan are looked at. Anything that is not a JPEG gives empty
 * fields and a warning. Never throws on damaged input.
 */
export function readImageMetadata(bytes: Uint8Array): ImageMetadata {
  return withoutSources(readImageMetadataBySource(bytes));
}

/** Also what IIM and XMP say on their own, before the merge: for diagnostics and tests. */
export function readImageMetadataBySource(bytes: Uint8Array): ImageMetadataBySource {
  const scan = scanJpeg(bytes);
  if (!scan.isJpeg) {
    return {
      iptc: {},
      raw: { iim: [], xmp: null },
      warnings: ['not a JPEG (no SOI marker): no IPTC/XMP read from it'],
      bySource: { iim: {}, xmp: {} },
    };
  }
  const warnings = [...scan.warnings];
  const app13 = readApp13(bytes, scan.segments, warnings);
  const xmp = readApp1Xmp(bytes, scan.segments, warnings);
  return assemble(app13.iim, app13.storedDigest, xmp, warnings);
}

/**
 * The same result for blocks a decoder handed over (sharp's metadata() gives `iptc` and
 * `xmp` buffers for PNG, TIFF and WebP). `iptc` may be raw IIM or a Photoshop IRB.
 */
export function readMetadataBlocks(blocks: { iptc?: Uint8Array | null; xmp?: Uint8Array | string | null }): ImageMetadata {
  const warnings: string[] = [];
  let iim: IimBlock | undefined;
  let storedDigest: string | undefined;
  if (blocks.iptc && blocks.iptc.length > 0) {
    iim = parseIim(blocks.iptc);
    warnings.push(...iim.warnings);
    storedDigest = digestFromIrb(blocks.iptc);
  }
  const packets: string[] = [];
  if (blocks.xmp !== undefined && blocks.xmp !== null && blocks.xmp.length > 0) {
    packets.push(typeof blocks.xmp === 'string' ? blocks.xmp : decodeXmpBytes(blocks.xmp));
  }
  const xmp = readPackets(packets, undefined, warnings);
  return withoutSources(assemble(iim, storedDigest, xmp, warnings));
}

function withoutSources(r: ImageMetadataBySource): ImageMetadata {
  return { iptc: r.iptc, raw: r.raw, warnings: r.warnings };
}

interface XmpRead {
  values: XmpValues;
  texts: string[];
}

function assemble(iim: IimBlock | undefined, storedDigest: string | undefined, xmp: XmpRead, warnings: string[]): ImageMetadataBySource {
  if (iim && storedDigest && iim.datasets.length > 0 && storedDigest !== iim.digest) {
    warnings.push('IPTCDigest is not current: the XMP may be out of sync with the IIM (IIM is used)');
  }
  const finished = finishXmpValues(xmp.values);
  warnings.push(...finished.warnings);
  return {
    iptc: mergeIimXmp(iim, finished.fields),
    raw: { iim: iim?.datasets ?? [], xmp: xmp.texts.length > 0 ? xmp.texts.join('\n') : null },
    warnings,
    bySource: { iim: iim?.iptc ?? {}, xmp: finished.fields },
  };
}

function readApp13(buf: Uint8Array, segments: JpegSegment[], warnings: string[]): { iim?: IimBlock; storedDigest?: string } {
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
  if (extraBlocks > 0) warnings.push(`${extraBlocks} more IPTC block(s) found after the first; only the first is read (as ExifTool does)`);
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

function readApp1Xmp(buf: Uint8Array, segments: JpegSegment[], warnings: string[]): XmpRead {
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
  return readPackets(packets, extended, warnings);
}

function readPackets(packets: string[], extended: Map<string, ExtendedChunks> | undefined, warnings: string[]): XmpRead {
  const values: XmpValues = {};
  const texts: string[] = [];
  let announced: string | undefined;
  // Several packets (cech.jpg): a later packet overrides an earlier one property by
  // property, which is the value ExifTool reports when it finds a tag twice.
  for (const text of packets) {
    const packet = readXmpPacket(text);
    warnings.push(...packet.warnings);
    Object.assign(values, packet.values);
    if (packet.hasExtendedXmp !== undefined) announced = packet.hasExtendedXmp;
    texts.push(text);
  }
  for (const [guid, ext] of extended ?? []) {
    const whole = assembleExtended(ext);
    if (!whole) {
      warnings.push(`extended XMP ${guid} is incomplete; ignored`);
    } else if (guid !== announced) {
      warnings.push(`extended XMP ${guid} is not the one the main XMP announces; ignored`);
    } else {
      const text = decodeXmpBytes(whole);
      const packet = readXmpPacket(text);
      warnings.push(...packet.warnings);
      Object.assign(values, packet.values);
      texts.push(text);
    }
  }
  return { values, texts };
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
  const looksXmp = startsWithAscii(b, 0, 'http') || startsWithAscii(b, 0, 'XMP\0') || b.includes('<?xpacket') || b.includes('<exif:');
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
  const end = /<\?xpacket\s+end\s*=\s*["'][rw]?["']\s*\?>/.exec(text);
  return end ? text.slice(0, end.index + end[0].length) : text.replace(/\0+$/, '');
}
