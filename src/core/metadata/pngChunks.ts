import { inflateSync } from 'node:zlib';
import { MetadataBudget, skippedWarning } from './budget';
import { decodeCp1252, decodeUtf8 } from './textCodecs';

/**
 * The metadata a PNG carries in its own chunks, read from the bytes (libvips ignores the
 * text chunks): XMP in iTXt "XML:com.adobe.xmp" (before or after the image data), and the
 * hex "Raw profile type iptc / xmp / 8bim / exif / APP1" text chunks ImageMagick and digiKam
 * write, plus the eXIf chunk. Every chunk up to IEND is looked at; CRCs are not checked
 * (ExifTool does not refuse a bad one either).
 */

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngMetadataBlocks {
  /** IIM, or a Photoshop IRB holding it, in the order found. */
  iptc: Uint8Array[];
  /** Photoshop IRBs ("Raw profile type 8bim"): may hold IIM and the IPTC digest. */
  irb: Uint8Array[];
  xmp: string[];
  exif: Uint8Array[];
  warnings: string[];
}

export function isPng(buf: Uint8Array): boolean {
  return buf.length >= 8 && PNG_SIGNATURE.every((b, i) => buf[i] === b);
}

/**
 * The chunks up to IEND. Text chunks past `budget`'s cap, and compressed ones once the file's
 * inflated bytes are spent, are skipped with one METADATA_SKIPPED warning each kind.
 */
export function readPngChunks(buf: Uint8Array, budget: MetadataBudget = new MetadataBudget()): PngMetadataBlocks {
  const out: PngMetadataBlocks = { iptc: [], irb: [], xmp: [], exif: [], warnings: [] };
  const spent = { chunks: 0, first: '' };
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 8;
  while (pos + 8 <= buf.length) {
    const len = view.getUint32(pos);
    const type = Buffer.from(buf.subarray(pos + 4, pos + 8)).toString('latin1');
    const start = pos + 8;
    if (start + len > buf.length) {
      out.warnings.push(
        `PNG: chunk ${JSON.stringify(type)} at byte ${pos} is cut off (file truncated); metadata after it is not read`,
      );
      break;
    }
    const data = buf.subarray(start, start + len);
    const where = `PNG ${type} chunk at byte ${pos}`;
    if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
      if (budget.takeTextChunk()) readTextChunk(type, data, where, out, budget, spent);
    } else if (type === 'eXIf') out.exif.push(data);
    else if (type === 'IEND') break;
    pos = start + len + 4;
  }
  const over = budget.skippedTextChunks();
  if (over > 0)
    out.warnings.push(
      skippedWarning(
        `PNG: ${over} text chunk(s)`,
        `are past the cap of ${budget.limits.textChunks} text chunks per file`,
      ),
    );
  if (spent.chunks > 0) {
    out.warnings.push(
      skippedWarning(
        `PNG: ${spent.chunks} compressed text chunk(s), the first at ${spent.first},`,
        `would inflate past the budget of ${budget.limits.inflatedBytes} bytes per file`,
      ),
    );
  }
  return out;
}

interface Spent {
  chunks: number;
  first: string;
}

function readTextChunk(
  type: string,
  data: Uint8Array,
  where: string,
  out: PngMetadataBlocks,
  budget: MetadataBudget,
  spent: Spent,
): void {
  const nul = data.indexOf(0);
  if (nul < 0) {
    out.warnings.push(`${where}: no keyword terminator; ignored`);
    return;
  }
  const keyword = decodeCp1252(data.subarray(0, nul));
  // an XMP chunk is inflated no further than one packet may be (in any encoding): a 16 MB packet is never made
  const isXmp = keyword === 'XML:com.adobe.xmp';
  let text: string | undefined;
  if (type === 'tEXt') text = decodeCp1252(data.subarray(nul + 1));
  else if (type === 'zTXt') {
    const bytes = inflate(data.subarray(nul + 2), where, out.warnings, budget, spent, isXmp);
    if (bytes) text = decodeCp1252(bytes);
  } else {
    const compressed = data[nul + 1] === 1;
    const langEnd = data.indexOf(0, nul + 3);
    const transEnd = langEnd < 0 ? -1 : data.indexOf(0, langEnd + 1);
    if (transEnd < 0) {
      out.warnings.push(`${where}: iTXt header is damaged; ignored`);
      return;
    }
    const body = data.subarray(transEnd + 1);
    const bytes = compressed ? inflate(body, where, out.warnings, budget, spent, isXmp) : body;
    if (bytes) text = decodeUtf8(bytes);
  }
  if (text === undefined) return;
  if (isXmp) {
    out.xmp.push(text);
    return;
  }
  const raw = /^Raw profile type (\w+)$/i.exec(keyword);
  if (!raw) return;
  const kind = raw[1].toLowerCase();
  const bytes = decodeRawProfile(text, where, out.warnings);
  if (!bytes) return;
  if (kind === 'iptc') out.iptc.push(bytes);
  else if (kind === '8bim') out.irb.push(bytes);
  else if (kind === 'xmp') out.xmp.push(decodeUtf8(bytes));
  else if (kind === 'exif') out.exif.push(bytes);
  else if (kind === 'app1') {
    // ImageMagick stores an XMP (or EXIF) APP1 segment body here
    const head = Buffer.from(bytes.subarray(0, 29)).toString('latin1');
    if (head.startsWith('http://ns.adobe.com/xap/1.0/\0')) out.xmp.push(decodeUtf8(bytes.subarray(29)));
    else if (head.startsWith('Exif\0\0')) out.exif.push(bytes);
  }
}

/**
 * A raw profile: "\n<name>\n<spaces><decimal length>\n<hex digits over many lines>". The name
 * line is free text: ImageMagick writes "iptc", ExifTool "IPTC profile" (and its "iptc" profile
 * holds a Photoshop IRB, which the IIM reader unwraps).
 */
export function decodeRawProfile(text: string, where: string, warnings: string[]): Uint8Array | undefined {
  const m = /^[\r\n]{0,4}[^\n]{0,200}\n[ \t]{0,100}(\d{1,12})[ \t]{0,100}\r?\n([\s\S]*)$/.exec(text);
  if (!m) {
    warnings.push(`${where}: raw profile header is not "<name> <length>"; ignored`);
    return undefined;
  }
  const length = Number(m[1]);
  const hex = m[2].replace(/[^0-9a-fA-F]/g, '');
  if (hex.length < length * 2)
    warnings.push(
      `${where}: raw profile declares ${length} bytes but holds ${Math.floor(hex.length / 2)}; the bytes there are read`,
    );
  return Buffer.from(hex.slice(0, Math.min(hex.length - (hex.length % 2), length * 2)), 'hex');
}

/** Inflate within what is left of the file's budget (a small chunk must not become gigabytes). */
function inflate(
  bytes: Uint8Array,
  where: string,
  warnings: string[],
  budget: MetadataBudget,
  spent: Spent,
  isXmp: boolean,
): Buffer | undefined {
  const packetMax = budget.limits.xmpPacketChars * 4;
  const allowance = isXmp ? Math.min(budget.inflateAllowance(), packetMax) : budget.inflateAllowance();
  const overBudget = () => {
    if (spent.chunks++ === 0) spent.first = where;
    return undefined;
  };
  if (allowance === 0) return overBudget();
  try {
    const out = inflateSync(bytes, { maxOutputLength: allowance });
    budget.spendInflated(out.length);
    return out;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      if (isXmp && allowance === packetMax) {
        budget.spendInflated(allowance);
        warnings.push(
          skippedWarning(
            where,
            `inflates to more than ${packetMax} bytes, over the cap of ${budget.limits.xmpPacketChars} characters for one XMP packet`,
          ),
        );
        return undefined;
      }
      // the whole allowance was produced before zlib stopped: spent, as a bomb's chunk would spend it
      budget.spendInflated(allowance);
      return overBudget();
    }
    warnings.push(`${where}: compressed text could not be inflated (${(err as Error).message}); ignored`);
    return undefined;
  }
}
