import { InputError } from '../errors';
import { MARKER, scanJpeg, type JpegSegment } from './jpegSegments';
import {
  IRB_IPTC,
  IRB_IPTC_DIGEST,
  PHOTOSHOP_HEADER,
  buildIrb,
  irbStart,
  readIrbResources,
  startsWithAscii,
  type IrbResource,
} from './photoshopIrb';
import { XMP_APP1_HEADER, XMP_EXT_APP1_HEADER } from './readImageMetadata';

const MAX_PAYLOAD = 0xffff - 2; // a segment's length field counts itself

/**
 * Put an IIM block into the JPEG's APP13 Photoshop resources, replacing any IPTC already
 * there and keeping the other resources (Photoshop's own settings, paths...). The stored
 * IPTCDigest is dropped: it vouched for XMP being in sync with the old IIM, which no longer
 * holds. Pixels are copied untouched.
 */
export function insertIptcIntoJpeg(jpeg: Buffer, iim: Buffer): Buffer {
  const { segments, sos } = scanForWrite(jpeg, 'insertIptcIntoJpeg');
  const old = segments.filter((s) => s.marker === MARKER.APP13 && irbStart(payloadOf(jpeg, s)) >= 0);
  const kept: IrbResource[] = [];
  for (const res of readOldResources(jpeg, old)) if (res.id !== IRB_IPTC && res.id !== IRB_IPTC_DIGEST) kept.push(res);
  kept.push({ type: '8BIM', id: IRB_IPTC, name: new Uint8Array(0), data: iim });

  // Over 64 KB the IRB continues in further APP13 segments, each repeating the header.
  const body = buildIrb(kept);
  const room = MAX_PAYLOAD - PHOTOSHOP_HEADER.length;
  const header = Buffer.from(PHOTOSHOP_HEADER, 'latin1');
  const inserted: Buffer[] = [];
  for (let off = 0; off < body.length; off += room) {
    inserted.push(segment(MARKER.APP13, Buffer.concat([header, body.subarray(off, off + room)])));
  }
  return rewrite(jpeg, segments, sos, new Set(old), inserted);
}

/**
 * Put an XMP packet (UTF-8) into the JPEG as its one standard APP1 XMP segment, removing
 * every XMP segment already there (standard, non-standard header, extended). Packets over
 * one segment are refused: extended XMP is not written.
 */
export function insertXmpIntoJpeg(jpeg: Buffer, xml: string): Buffer {
  const { segments, sos } = scanForWrite(jpeg, 'insertXmpIntoJpeg');
  const old = segments.filter((s) => s.marker === MARKER.APP1 && isXmpSegment(payloadOf(jpeg, s)));
  const payload = Buffer.concat([Buffer.from(XMP_APP1_HEADER, 'latin1'), Buffer.from(xml, 'utf8')]);
  if (payload.length > MAX_PAYLOAD) {
    throw new RangeError(
      `insertXmpIntoJpeg: the XMP packet is ${payload.length - XMP_APP1_HEADER.length} bytes; one APP1 segment holds at most ${MAX_PAYLOAD - XMP_APP1_HEADER.length}`,
    );
  }
  return rewrite(jpeg, segments, sos, new Set(old), [segment(MARKER.APP1, payload)]);
}

function scanForWrite(jpeg: Buffer, fn: string): { segments: JpegSegment[]; sos: number } {
  const scan = scanJpeg(jpeg);
  if (!scan.isJpeg) throw new InputError('IMAGE_UNSUPPORTED', `${fn}: the input is not a JPEG (no SOI marker)`);
  if (scan.sos < 0)
    throw new InputError(
      'IMAGE_CORRUPT',
      `${fn}: the JPEG has no start of scan${scan.warnings.length ? ` (${scan.warnings.join('; ')})` : ''}`,
    );
  return { segments: scan.segments, sos: scan.sos };
}

function readOldResources(jpeg: Buffer, old: JpegSegment[]): IrbResource[] {
  const out: IrbResource[] = [];
  for (let i = 0; i < old.length; i++) {
    let payload = payloadOf(jpeg, old[i]);
    const start = irbStart(payload);
    // rejoin an IRB continued over consecutive segments before reading it
    const parts: Uint8Array[] = [];
    while (
      i + 1 < old.length &&
      old[i + 1].start === old[i].end &&
      startsWithAscii(payloadOf(jpeg, old[i + 1]), 0, PHOTOSHOP_HEADER)
    ) {
      parts.push(payloadOf(jpeg, old[i + 1]).subarray(PHOTOSHOP_HEADER.length));
      i++;
    }
    if (parts.length > 0) payload = Buffer.concat([payload, ...parts]);
    out.push(...readIrbResources(payload, start, [], ''));
  }
  return out;
}

function isXmpSegment(payload: Buffer): boolean {
  if (startsWithAscii(payload, 0, XMP_APP1_HEADER) || startsWithAscii(payload, 0, XMP_EXT_APP1_HEADER)) return true;
  if (/^.{0,4}Exif\0/s.test(payload.subarray(0, 9).toString('latin1'))) return false;
  return startsWithAscii(payload, 0, 'XMP\0') || payload.includes('<?xpacket') || payload.includes('<x:xmpmeta');
}

function payloadOf(jpeg: Buffer, s: JpegSegment): Buffer {
  return jpeg.subarray(s.payloadStart, s.end);
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/**
 * Copy the JPEG without the `removed` segments, with `inserted` where the first removed
 * segment was, or else after the leading APPn/COM segments (before the tables).
 */
function rewrite(
  jpeg: Buffer,
  segments: JpegSegment[],
  sos: number,
  removed: Set<JpegSegment>,
  inserted: Buffer[],
): Buffer {
  let at = [...removed][0]?.start;
  if (at === undefined) {
    const firstTable = segments.find((s) => !isAppOrComment(s.marker));
    at = firstTable ? firstTable.start : sos;
  }
  const out: Buffer[] = [];
  let copied = 0;
  const emitUpTo = (pos: number): void => {
    if (pos > copied) out.push(jpeg.subarray(copied, pos));
    copied = Math.max(copied, pos);
  };
  let placed = false;
  for (const s of segments) {
    if (!placed && s.start >= at) {
      emitUpTo(s.start);
      out.push(...inserted);
      placed = true;
    }
    if (removed.has(s)) {
      emitUpTo(s.start);
      copied = s.end;
    }
  }
  emitUpTo(sos);
  if (!placed) out.push(...inserted);
  out.push(jpeg.subarray(sos));
  return Buffer.concat(out);
}

function isAppOrComment(marker: number): boolean {
  return (marker >= MARKER.APP0 && marker <= MARKER.APP15) || marker === MARKER.COM;
}
