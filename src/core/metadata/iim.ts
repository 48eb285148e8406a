import { createHash } from 'node:crypto';
import type { IptcFields } from '../../schemas/feedItem';
import { iimDateToIso, joinIsoDateTime, readIimTime } from './dates';
import {
  IIM_CODED_CHARACTER_SET,
  IIM_DATE_CREATED,
  IIM_FIELD_BY_DATASET,
  IIM_TIME_CREATED,
  LIST_FIELDS,
  type IptcFieldName,
} from './fieldTables';
import { IRB_IPTC, irbStart, readIrbResources, startsWithAscii } from './photoshopIrb';
import { decodeCp1252, decodeUtf8 } from './textCodecs';

/**
 * One IIM dataset as stored. `value` is the text (trailing NULs removed, decoded with the
 * block's character set); integer datasets (e.g. 2:00 record version) are given in decimal
 * and binary ones (2:125 rasterized caption, 2:202 preview, 8:10 subfile) in base64.
 */
export interface IimDataset {
  record: number;
  dataset: number;
  value: string;
}

export interface IimBlock {
  /** Every dataset in the order the file stores them (records may repeat or come out of order). */
  datasets: IimDataset[];
  /** The IptcFields this block gives on its own (empty values left out). */
  iptc: IptcFields;
  /**
   * Values whose stored size reached the IIM maximum for their dataset, so the writer may
   * have cut them: "credit", or "keywords#2" for the third keyword.
   */
  atLimit: ReadonlySet<string>;
  /** True when 1:90 declares UTF-8 (ESC % G). */
  utf8: boolean;
  /** MD5 of the IIM block, as ExifTool's CurrentIPTCDigest; compared with Photoshop's IPTCDigest. */
  digest: string;
  warnings: string[];
}

const ESC_UTF8 = '\x1b%G';

// Datasets ExifTool reads as integers (ExifTool IPTC.pm formats int8u/int16u/int32u).
const INT_DATASETS = new Set([
  '1:0',
  '1:20',
  '1:22',
  '1:120',
  '1:122',
  '2:0',
  '2:200',
  '2:201',
  '7:10',
  '7:20',
  '7:90',
  '7:95',
  '9:10',
]);
const BINARY_DATASETS = new Set(['2:125', '2:202', '8:10']);

/**
 * Parse an IIM block. Accepts raw IIM (starts with 0x1C), a Photoshop IRB with or without
 * its "Photoshop 3.0" header (what sharp's metadata().iptc holds for a JPEG), or the 8BIM
 * resources alone. Never throws: damage is reported in `warnings` and every dataset read
 * before it is kept.
 */
export function parseIim(buf: Uint8Array): IimBlock {
  const warnings: string[] = [];
  const iim = locateIim(buf, warnings);
  if (!iim) return emptyBlock(warnings);
  return parseIimDatasets(iim, warnings);
}

function locateIim(buf: Uint8Array, warnings: string[]): Uint8Array | undefined {
  if (buf.length === 0) return undefined;
  if (buf[0] === 0x1c) return buf;
  let start = irbStart(buf);
  if (start < 0 && startsWithAscii(buf, 0, '8BIM')) start = 0;
  if (start < 0) {
    warnings.push('IPTC block is neither IIM (0x1C) nor a Photoshop resource block; ignored');
    return undefined;
  }
  const found = readIrbResources(buf, start, warnings, 'Photoshop resources').filter((r) => r.id === IRB_IPTC);
  if (found.length > 1) warnings.push(`Photoshop resources hold ${found.length} IPTC blocks; only the first is read`);
  return found[0]?.data;
}

interface RawDataset {
  record: number;
  dataset: number;
  bytes: Uint8Array;
}

export function parseIimDatasets(block: Uint8Array, warnings: string[]): IimBlock {
  const raw = splitDatasets(block, warnings);

  // 1:90 governs the whole object (IIM 4.2 s.1.5.5), wherever the writer put it.
  const charsetDs = raw.find((d) => d.record === 1 && d.dataset === IIM_CODED_CHARACTER_SET);
  const charset = charsetDs ? decodeCp1252(stripTrailingNuls(charsetDs.bytes)) : undefined;
  const utf8 = charset === ESC_UTF8;
  // Reuters declares "ESC % 5" on every photo; only worth a word when it changes some text.
  if (
    charset !== undefined &&
    !utf8 &&
    charset.startsWith('\x1b%') &&
    raw.some((d) => d.record >= 2 && d.record <= 6 && hasHighByte(d.bytes))
  ) {
    warnings.push(
      `IIM coded character set ${JSON.stringify(charset)} is not one photowire knows; text read as Latin-1`,
    );
  }

  const datasets: IimDataset[] = [];
  const lists = new Map<IptcFieldName, string[]>();
  const scalars = new Map<IptcFieldName, string>();
  const atLimit = new Set<string>();
  const writers: string[] = [];
  let date: string | undefined;
  let time: string | undefined;

  for (const d of raw) {
    const key = `${d.record}:${d.dataset}`;
    const text = stripTrailingNuls(d.bytes);
    let value: string;
    if (INT_DATASETS.has(key) || (!isKnownText(d) && looksLikeInt(d.bytes))) value = String(readUInt(d.bytes));
    else if (BINARY_DATASETS.has(key))
      value = Buffer.from(d.bytes.buffer, d.bytes.byteOffset, d.bytes.byteLength).toString('base64');
    // ExifTool translates records 2-6 only; the envelope is ASCII by definition.
    else value = utf8 && d.record >= 2 && d.record <= 6 ? decodeUtf8(text) : decodeCp1252(text);
    datasets.push({ record: d.record, dataset: d.dataset, value });

    if (d.record !== 2) continue;
    if (d.dataset === IIM_DATE_CREATED) date = value;
    else if (d.dataset === IIM_TIME_CREATED) time = value;
    const spec = IIM_FIELD_BY_DATASET.get(d.dataset);
    if (!spec) continue;
    const full = text.length >= spec.maxBytes;
    if (spec.field === 'writer') {
      // repeatable in IIM but one string in our schema: joined the way ExifTool prints lists
      writers.push(value);
      if (full) atLimit.add('writer');
    } else if (LIST_FIELDS.has(spec.field)) {
      const list = lists.get(spec.field) ?? [];
      if (full) atLimit.add(`${spec.field}#${list.length}`);
      list.push(value);
      lists.set(spec.field, list);
    } else {
      // a non-repeatable dataset written twice: the last one wins, as in ExifTool
      scalars.set(spec.field, value);
      if (full) atLimit.add(spec.field);
      else atLimit.delete(spec.field);
    }
  }

  const fields: IptcFields = {};
  for (const [field, value] of scalars) if (value !== '') (fields as Record<string, unknown>)[field] = value;
  const writer = writers.filter((w) => w !== '').join(', ');
  if (writer !== '') fields.writer = writer;
  for (const [field, list] of lists) {
    const kept = list.filter((v) => v !== '');
    if (kept.length > 0) (fields as Record<string, unknown>)[field] = kept;
  }
  // drop indexes of empty list items so "#i" keeps pointing at the same value
  const shifted = reindexAtLimit(atLimit, lists);

  if (date !== undefined && date !== '') {
    const isoDate = iimDateToIso(date);
    if (isoDate === undefined)
      warnings.push(`IIM 2:55 Date Created ${JSON.stringify(date)} is not a CCYYMMDD date; ignored`);
    else {
      const read = time === undefined || time === '' ? {} : readIimTime(time);
      const isoTime = read.iso;
      if (read.problem)
        warnings.push(
          `IIM 2:60 Time Created ${JSON.stringify(time)} ${read.problem}${isoTime === undefined ? '; date kept without it' : ''}`,
        );
      fields.dateCreated = joinIsoDateTime(isoDate, isoTime);
    }
  }

  const digest = createHash('md5').update(block).digest('hex');
  return { datasets, iptc: fields, atLimit: shifted, utf8, digest, warnings };
}

function splitDatasets(buf: Uint8Array, warnings: string[]): RawDataset[] {
  const out: RawDataset[] = [];
  const end = buf.length;
  let pos = 0;
  while (pos + 5 <= end) {
    if (buf[pos] !== 0x1c) {
      // iMatch and others pad the block with NULs
      if (!zeroFrom(buf, pos))
        warnings.push(
          `IIM: bad dataset marker 0x${buf[pos].toString(16)} at byte ${pos}; the rest of the IPTC block is ignored`,
        );
      return out;
    }
    const record = buf[pos + 1];
    const dataset = buf[pos + 2];
    let len = (buf[pos + 3] << 8) | buf[pos + 4];
    pos += 5;
    if (len & 0x8000) {
      // extended dataset: the low bits give how many bytes hold the real length
      const n = len & 0x7fff;
      if (n > 4 || pos + n > end) {
        warnings.push(
          `IIM: dataset ${record}:${dataset} has an invalid extended length; the rest of the IPTC block is ignored`,
        );
        return out;
      }
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + buf[pos + i];
      pos += n;
    }
    if (pos + len > end) {
      warnings.push(
        `IIM: dataset ${record}:${dataset} claims ${len} bytes but only ${end - pos} remain (truncated IPTC block); it is ignored`,
      );
      return out;
    }
    out.push({ record, dataset, bytes: buf.subarray(pos, pos + len) });
    pos += len;
  }
  if (pos < end && !zeroFrom(buf, pos))
    warnings.push(`IIM: ${end - pos} stray bytes at the end of the IPTC block ignored`);
  return out;
}

function isKnownText(d: RawDataset): boolean {
  return (
    d.record === 2 &&
    (IIM_FIELD_BY_DATASET.has(d.dataset) || d.dataset === IIM_DATE_CREATED || d.dataset === IIM_TIME_CREATED)
  );
}

// ExifTool's guess for datasets its tables do not describe.
function looksLikeInt(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.length > 4 || bytes.length === 3) return false;
  return bytes.some((b) => b <= 0x08);
}

function readUInt(bytes: Uint8Array): number {
  let v = 0;
  for (const b of bytes.subarray(0, 6)) v = v * 256 + b;
  return v;
}

export function stripTrailingNuls(bytes: Uint8Array): Uint8Array {
  let n = bytes.length;
  while (n > 0 && bytes[n - 1] === 0) n--;
  return bytes.subarray(0, n);
}

function hasHighByte(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b >= 0x80) return true;
  return false;
}

function zeroFrom(buf: Uint8Array, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

function reindexAtLimit(atLimit: Set<string>, lists: Map<IptcFieldName, string[]>): Set<string> {
  const out = new Set<string>();
  for (const key of atLimit) {
    const m = /^(\w+)#(\d+)$/.exec(key);
    if (!m) {
      out.add(key);
      continue;
    }
    const list = lists.get(m[1] as IptcFieldName) ?? [];
    const idx = Number(m[2]);
    const emptiesBefore = list.slice(0, idx).filter((v) => v === '').length;
    out.add(`${m[1]}#${idx - emptiesBefore}`);
  }
  return out;
}

function emptyBlock(warnings: string[]): IimBlock {
  return { datasets: [], iptc: {}, atLimit: new Set(), utf8: false, digest: '', warnings };
}
