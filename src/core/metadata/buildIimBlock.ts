import type { IptcFields } from '../../schemas/feedItem';
import { isoToIimDateTime } from './dates';
import {
  IIM_CODED_CHARACTER_SET,
  IIM_DATE_CREATED,
  IIM_FIELDS,
  IIM_RECORD_VERSION,
  IIM_TIME_CREATED,
} from './fieldTables';
import { encodeCp1252 } from './textCodecs';

export interface BuildIimOptions {
  /** Declare UTF-8 with 1:90 ESC % G; otherwise text is written as Latin-1 (Windows-1252). */
  utf8: boolean;
  /**
   * Write values longer than the IIM maximum for their dataset as they are. By default they
   * are cut at the maximum, as Photoshop and ExifTool do (that cut is what the reader later
   * repairs from XMP).
   */
  allowOverLength?: boolean;
}

/**
 * Serialize fields as raw IIM datasets (record 1 only for the character set, then record 2
 * in dataset order). Throws a RangeError naming the field when a value cannot be written:
 * a character outside Latin-1 without `utf8`, or a dateCreated that is not ISO 8601.
 */
export function buildIimBlock(fields: IptcFields, opts: BuildIimOptions): Buffer {
  const parts: Buffer[] = [];
  if (opts.utf8) parts.push(dataset(1, IIM_CODED_CHARACTER_SET, Buffer.from('\x1b%G', 'latin1')));
  const version = Buffer.alloc(2);
  version.writeUInt16BE(4, 0); // IIM 4
  parts.push(dataset(2, IIM_RECORD_VERSION, version));

  const entries: Array<{ ds: number; bytes: Buffer }> = [];
  for (const spec of IIM_FIELDS) {
    const v = fields[spec.field];
    if (v === undefined) continue;
    const values = Array.isArray(v) ? v : [v as string];
    for (const text of values) {
      let bytes = encodeText(text, spec.field, opts.utf8);
      if (!opts.allowOverLength && bytes.length > spec.maxBytes) bytes = cut(bytes, spec.maxBytes, opts.utf8);
      entries.push({ ds: spec.dataset, bytes });
    }
  }
  if (fields.dateCreated !== undefined) {
    const dt = isoToIimDateTime(fields.dateCreated);
    if (!dt)
      throw new RangeError(
        `dateCreated ${JSON.stringify(fields.dateCreated)} is not an ISO 8601 date; IIM 2:55 needs one`,
      );
    entries.push({ ds: IIM_DATE_CREATED, bytes: Buffer.from(dt.date, 'latin1') });
    if (dt.time) entries.push({ ds: IIM_TIME_CREATED, bytes: Buffer.from(dt.time, 'latin1') });
  }
  entries.sort((a, b) => a.ds - b.ds); // stable: repeated datasets keep their order
  for (const e of entries) parts.push(dataset(2, e.ds, e.bytes));
  return Buffer.concat(parts);
}

function encodeText(text: string, field: string, utf8: boolean): Buffer {
  if (utf8) return Buffer.from(text, 'utf8');
  const enc = encodeCp1252(text);
  if ('unencodable' in enc) {
    const cp = enc.unencodable.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new RangeError(
      `${field}: character ${JSON.stringify(enc.unencodable)} (U+${cp}) cannot be written in Latin-1 IIM; use { utf8: true }`,
    );
  }
  return enc.bytes;
}

/** Cut to `max` bytes, never inside a UTF-8 sequence. */
function cut(bytes: Buffer, max: number, utf8: boolean): Buffer {
  let n = max;
  if (utf8) while (n > 0 && (bytes[n] & 0xc0) === 0x80) n--;
  return bytes.subarray(0, n);
}

function dataset(record: number, ds: number, value: Buffer): Buffer {
  if (value.length < 0x8000) {
    const head = Buffer.from([0x1c, record, ds, value.length >> 8, value.length & 0xff]);
    return Buffer.concat([head, value]);
  }
  // extended dataset: 0x8004 says the length follows in 4 bytes
  const head = Buffer.alloc(9);
  head.set([0x1c, record, ds, 0x80, 0x04]);
  head.writeUInt32BE(value.length, 5);
  return Buffer.concat([head, value]);
}
