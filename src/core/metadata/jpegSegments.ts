/**
 * Walk the marker segments of a JPEG up to the start of scan. Metadata lives in the
 * segments before SOS; everything after is entropy-coded pixels, so stopping there keeps
 * reading a 24 MB photo as cheap as reading a thumbnail.
 */

export const MARKER = {
  SOI: 0xd8,
  EOI: 0xd9,
  SOS: 0xda,
  APP0: 0xe0,
  APP1: 0xe1,
  APP13: 0xed,
  APP15: 0xef,
  COM: 0xfe,
} as const;

export interface JpegSegment {
  marker: number;
  /** Offset of the 0xFF that starts the marker. */
  start: number;
  /** Offset of the first payload byte (after the 2-byte length). */
  payloadStart: number;
  /** Offset just past the segment. */
  end: number;
}

export interface JpegScan {
  isJpeg: boolean;
  segments: JpegSegment[];
  /** Offset of the SOS marker, or -1 when the file ends (or breaks) before it. */
  sos: number;
  warnings: string[];
}

export function isJpeg(buf: Uint8Array): boolean {
  return buf.length >= 3 && buf[0] === 0xff && buf[1] === MARKER.SOI && buf[2] === 0xff;
}

export function scanJpeg(buf: Uint8Array): JpegScan {
  const warnings: string[] = [];
  const segments: JpegSegment[] = [];
  if (!isJpeg(buf)) return { isJpeg: false, segments, sos: -1, warnings };
  let pos = 2;
  while (pos < buf.length) {
    if (buf[pos] !== 0xff) {
      warnings.push(
        `JPEG: expected a marker at byte ${pos} but found 0x${buf[pos].toString(16)}; metadata after it is not read`,
      );
      break;
    }
    while (buf[pos + 1] === 0xff) pos++; // fill bytes
    const marker = buf[pos + 1];
    if (marker === undefined) break;
    if (marker === MARKER.EOI) break;
    if (marker === 0x01 || marker === MARKER.SOI || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2; // markers without a length
      continue;
    }
    if (pos + 4 > buf.length) {
      warnings.push(`JPEG: file ends inside the marker at byte ${pos}`);
      break;
    }
    const len = (buf[pos + 2] << 8) | buf[pos + 3];
    if (len < 2) {
      warnings.push(
        `JPEG: segment 0x${marker.toString(16)} at byte ${pos} has an impossible length ${len}; metadata after it is not read`,
      );
      break;
    }
    const end = pos + 2 + len;
    if (marker === MARKER.SOS) return { isJpeg: true, segments, sos: pos, warnings };
    if (end > buf.length) {
      // keep what is there: a cut APP13 still holds the datasets before the cut
      warnings.push(`JPEG: segment 0x${marker.toString(16)} at byte ${pos} is cut off (file truncated)`);
      segments.push({ marker, start: pos, payloadStart: pos + 4, end: buf.length });
      break;
    }
    segments.push({ marker, start: pos, payloadStart: pos + 4, end });
    pos = end;
  }
  return { isJpeg: true, segments, sos: -1, warnings };
}
