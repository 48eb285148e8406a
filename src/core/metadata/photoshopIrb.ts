/**
 * Photoshop Image Resource Blocks, the container JPEG APP13 uses to carry IIM.
 * Each resource: type (4, "8BIM"), id (2), Pascal name padded to even length, size (4),
 * data padded to even length. All big-endian.
 */

export const PHOTOSHOP_HEADER = 'Photoshop 3.0\0';
// Photoshop 2.5 wrote this header; ExifTool still reads it.
export const PHOTOSHOP_OLD_HEADER = 'Adobe_Photoshop2.5:';
export const IRB_IPTC = 0x0404;
export const IRB_IPTC_DIGEST = 0x0425;

// ImageReady, PhotoDeluxe and others use these instead of 8BIM.
const RESOURCE_TYPES = new Set(['8BIM', 'PHUT', 'DCSR', 'AgHg', 'MeSa']);

export interface IrbResource {
  type: string;
  id: number;
  name: Uint8Array;
  data: Uint8Array; // a view into the input, never a copy
}

export function startsWithAscii(buf: Uint8Array, offset: number, text: string): boolean {
  if (offset + text.length > buf.length) return false;
  for (let i = 0; i < text.length; i++) if (buf[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Where the resources start inside an APP13 payload, or -1 when it is not a Photoshop IRB. */
export function irbStart(payload: Uint8Array): number {
  if (startsWithAscii(payload, 0, PHOTOSHOP_HEADER)) return PHOTOSHOP_HEADER.length;
  if (startsWithAscii(payload, 0, PHOTOSHOP_OLD_HEADER)) return 27; // header + 8 bytes ExifTool skips too
  return -1;
}

/** Read every resource; stops (with a warning) at the first malformed one, keeping those before it. */
export function readIrbResources(buf: Uint8Array, start: number, warnings: string[], where: string): IrbResource[] {
  const out: IrbResource[] = [];
  const end = buf.length;
  let pos = start;
  while (pos + 8 < end) {
    const type = String.fromCharCode(buf[pos], buf[pos + 1], buf[pos + 2], buf[pos + 3]);
    if (!RESOURCE_TYPES.has(type)) {
      // Some writers pad the segment with NULs after the last resource.
      if (!isAllZero(buf, pos, end))
        warnings.push(
          `${where}: bad Photoshop resource type ${JSON.stringify(type)} at byte ${pos}; the rest is ignored`,
        );
      break;
    }
    const id = (buf[pos + 4] << 8) | buf[pos + 5];
    const nameLen = buf[pos + 6];
    const namePos = pos + 7;
    let p = namePos + nameLen;
    if ((nameLen & 1) === 0) p++; // length byte + name padded to an even size
    if (p + 4 > end) {
      warnings.push(`${where}: Photoshop resource 0x${hex4(id)} is cut off before its size field`);
      break;
    }
    const size = readU32(buf, p);
    p += 4;
    if (p + size > end) {
      warnings.push(
        `${where}: Photoshop resource 0x${hex4(id)} claims ${size} bytes but only ${end - p} remain; it is ignored`,
      );
      break;
    }
    out.push({ type, id, name: buf.subarray(namePos, namePos + nameLen), data: buf.subarray(p, p + size) });
    pos = p + size + (size & 1);
  }
  return out;
}

/** Serialize resources back into an IRB body (without the "Photoshop 3.0" header). */
export function buildIrb(resources: readonly IrbResource[]): Buffer {
  const parts: Buffer[] = [];
  for (const r of resources) {
    const nameField = Buffer.alloc(1 + r.name.length + ((r.name.length & 1) === 0 ? 1 : 0));
    nameField[0] = r.name.length;
    nameField.set(r.name, 1);
    const head = Buffer.alloc(6);
    head.write(r.type, 0, 'latin1');
    head.writeUInt16BE(r.id, 4);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(r.data.length, 0);
    parts.push(head, nameField, size, Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength));
    if (r.data.length & 1) parts.push(Buffer.alloc(1));
  }
  return Buffer.concat(parts);
}

function readU32(buf: Uint8Array, p: number): number {
  return ((buf[p] << 24) >>> 0) + (buf[p + 1] << 16) + (buf[p + 2] << 8) + buf[p + 3];
}

function isAllZero(buf: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] !== 0) return false;
  return true;
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}
