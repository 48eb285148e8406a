import { parse } from 'csv-parse/sync';
import { MAX_FEED_LINE_BYTES } from './capItems';
import { InputError, type ErrorCode } from '../errors';
import type { FeedItem, IptcFields } from '../../schemas/feedItem';
import { compact, nonEmpty } from './xml/fields';
import { resolveImageRef } from './xml/resolveImageRef';

/**
 * CSV manifests (RFC 4180: comma-separated, fields optionally in double quotes with `""` for a
 * quote, newlines allowed inside quotes, CRLF or LF, optional UTF-8 BOM). The first non-blank
 * row names the columns, case-insensitively and ignoring spaces, `-`, `_` and `.`
 * ("Credit Line" = "creditline"); see COLUMNS for the names and their aliases.
 *
 * Bad rows do not sink the manifest: a row with the wrong number of fields, broken quoting or a
 * repeated id is listed in `errors` with its line and left out; every other row becomes an item.
 * Unknown columns are ignored with a warning. `keywords` and `byline` hold several values
 * separated by `;`. Text cells are kept exactly as written; ids, versions, dates and image
 * paths are trimmed. Image paths are file paths relative to the manifest (no %-decoding).
 */
export interface CsvManifest {
  items: FeedItem[];
  errors: Array<{ line: number; code: ErrorCode; message: string }>;
  warnings: string[];
}

type Target = keyof IptcFields | 'id' | 'version' | 'image';

const COLUMNS: Record<string, Target> = {
  caption: 'caption',
  description: 'caption',
  captionabstract: 'caption',
  headline: 'headline',
  credit: 'credit',
  creditline: 'credit',
  byline: 'byline',
  creator: 'byline',
  bylinetitle: 'bylineTitle',
  creatorjobtitle: 'bylineTitle',
  source: 'source',
  copyright: 'copyright',
  copyrightnotice: 'copyright',
  date: 'dateCreated',
  datecreated: 'dateCreated',
  city: 'city',
  sublocation: 'sublocation',
  state: 'state',
  province: 'state',
  provincestate: 'state',
  country: 'country',
  countrycode: 'countryCode',
  id: 'id',
  guid: 'id',
  version: 'version',
  keywords: 'keywords',
  keyword: 'keywords',
  image: 'image',
  file: 'image',
  path: 'image',
  filename: 'image',
  title: 'objectName',
  objectname: 'objectName',
  transmissionreference: 'transmissionReference',
  jobid: 'transmissionReference',
  instructions: 'specialInstructions',
  specialinstructions: 'specialInstructions',
  writer: 'writer',
  captionwriter: 'writer',
};

const TRIMMED = new Set<Target>(['id', 'version', 'image', 'dateCreated', 'countryCode']);
const LISTS = new Set<Target>(['keywords', 'byline', 'bylineTitle']);

export function parseCsvManifest(text: string, feedPath: string): CsvManifest {
  const records = readRecords(text);
  const header = records.shift();
  if (!header) throw new InputError('FEED_MALFORMED', `${feedPath}: the CSV manifest is empty (no header row)`);
  if (header.error)
    throw new InputError('FEED_MALFORMED', `${feedPath} line ${header.line}: header row: ${header.error}`);

  const warnings: string[] = [];
  const columns = mapHeader(header, feedPath, warnings);
  const targets = new Set(columns.filter((c): c is Target => c !== null));
  if (!targets.has('caption') && !targets.has('image')) {
    throw new InputError(
      'FEED_MALFORMED',
      `${feedPath} line ${header.line}: the header row names neither a caption nor an image column (got ${header.fields.map((f) => JSON.stringify(f)).join(', ')})`,
    );
  }

  const items: FeedItem[] = [];
  const errors: CsvManifest['errors'] = [];
  const idLines = new Map<string, number>();
  for (const record of records) {
    const where = `${feedPath} line ${record.line}`;
    if (record.error) {
      const tooLong = record.error.startsWith('FEED_LINE_TOO_LONG: ');
      errors.push({
        line: record.line,
        code: tooLong ? 'FEED_LINE_TOO_LONG' : 'FEED_MALFORMED',
        message: `${where}: ${tooLong ? record.error.slice(20) : record.error}`,
      });
      continue;
    }
    if (record.fields.length !== header.fields.length) {
      errors.push({
        line: record.line,
        code: 'FEED_MALFORMED',
        message: `${where}: ${record.fields.length} fields, but the header row has ${header.fields.length}`,
      });
      continue;
    }
    const item = toItem(record, columns, feedPath, items.length);
    if (item.agencyId !== undefined) {
      const firstLine = idLines.get(item.agencyId);
      if (firstLine !== undefined) {
        errors.push({
          line: record.line,
          code: 'ITEM_DUPLICATE_ID',
          message: `${where}: id ${JSON.stringify(item.agencyId)} is already used by line ${firstLine}`,
        });
        continue;
      }
      idLines.set(item.agencyId, record.line);
    }
    items.push(item);
  }
  return { items, errors, warnings };
}

function normalizeHeader(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_.-]+/g, '');
}

function mapHeader(header: CsvRecord, feedPath: string, warnings: string[]): Array<Target | null> {
  const taken = new Map<Target, string>();
  return header.fields.map((name) => {
    const target = Object.prototype.hasOwnProperty.call(COLUMNS, normalizeHeader(name))
      ? COLUMNS[normalizeHeader(name)]
      : undefined;
    if (target === undefined) {
      warnings.push(
        `${feedPath} line ${header.line}: column ${JSON.stringify(name)} is not one photowire reads; its values are ignored`,
      );
      return null;
    }
    const earlier = taken.get(target);
    if (earlier !== undefined) {
      warnings.push(
        `${feedPath} line ${header.line}: column ${JSON.stringify(name)} is ignored: column ${JSON.stringify(earlier)} already gives ${target}`,
      );
      return null;
    }
    taken.set(target, name);
    return target;
  });
}

function toItem(record: CsvRecord, columns: Array<Target | null>, feedPath: string, position: number): FeedItem {
  const cells = new Map<Target, string>();
  columns.forEach((target, i) => {
    if (target !== null) cells.set(target, record.fields[i]);
  });
  const single = (target: Target): string | undefined => {
    const raw = cells.get(target);
    if (raw === undefined || raw.trim() === '') return undefined;
    return TRIMMED.has(target) ? raw.trim() : raw;
  };
  const list = (target: Target): string[] | undefined =>
    nonEmpty(
      (cells.get(target) ?? '')
        .split(';')
        .map((v) => v.trim())
        .filter(Boolean),
    );

  const iptc: Record<string, unknown> = {};
  for (const target of cells.keys()) {
    if (target === 'id' || target === 'version' || target === 'image') continue;
    iptc[target] = LISTS.has(target) ? list(target) : single(target);
  }
  const where = `${feedPath} line ${record.line}`;
  const resolved = resolveImageRef(feedPath, cells.get('image'), false, where);
  const item: FeedItem = {
    source: { file: feedPath, position, line: record.line, format: 'csv' },
    captionRaw: cells.get('caption') ?? '',
    iptc: compact(iptc) as IptcFields,
    image: resolved.image,
  };
  const id = single('id');
  const version = single('version');
  if (id !== undefined) item.agencyId = id;
  if (version !== undefined) item.agencyVersion = version;
  if (resolved.error) item.error = resolved.error;
  return item;
}

interface CsvRecord {
  fields: string[];
  /** 1-based line where the record starts (a quoted field may span several lines). */
  line: number;
  error?: string;
}

const RECORD_DELIMITERS = ['\r\n', '\n', '\r'];

/**
 * Split CSV text into records with csv-parse (its sync API), skipping blank lines. Lenient where
 * RFC 4180 is silent or strict in ways hand-made files break: a lone `"` inside an unquoted field
 * is kept as a character (`relax_quotes`). A record with text after a closing quote is returned
 * with an error (csv-parse, relaxed, would keep it as text); an unterminated quote ends the file
 * (everything after it would be one field) and is reported at the line where its record starts.
 *
 * Lines are counted here from each record's raw text (CRLF, LF or a lone CR is one line):
 * csv-parse's own `info.lines` counts a CRLF inside a quoted field as two lines.
 *
 * Speed (measured when the hand-written tokenizer was replaced): a generated manifest of
 * 100,000 rows (24 MB, ten columns, one caption in ten quoted over two lines), whole
 * parseCsvManifest from dist/, best of 5, three alternating rounds on the shared 2-core box (load
 * ~10): hand-written 0.8-1.6 s, csv-parse 7.0.3 2.7-3.3 s, of which csv-parse's own pass is
 * ~1.1-1.3 s (`raw: true` adds ~20%). About 30 us a row, against tens of ms to process one item.
 */
function readRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  try {
    parse(text, {
      bom: true,
      raw: true,
      relax_quotes: true,
      relax_column_count: true,
      record_delimiter: RECORD_DELIMITERS,
      // a record over the per-line cap is not read into memory whole (src/core/feeds/capItems.ts)
      max_record_size: MAX_FEED_LINE_BYTES,
      // With `raw: true` csv-parse hands on_record `{ record, raw }` although its types say string[].
      on_record: (wrapped, context) => {
        const record = Array.isArray(wrapped) ? wrapped : (wrapped as unknown as { record: string[] }).record;
        const raw = context.raw ?? record.join(',');
        const start = line;
        line += countNewlines(raw);
        if (raw.trim() === '') return null;
        const error = record.some((f) => f.charCodeAt(0) === 0x22) ? textAfterClosingQuote(raw) : undefined;
        records.push(error === undefined ? { fields: record, line: start } : { fields: record, line: start, error });
        return null;
      },
    });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    records.push({
      fields: [],
      line,
      error:
        code === 'CSV_QUOTE_NOT_CLOSED'
          ? 'a quoted field is never closed (missing ")'
          : code === 'CSV_MAX_RECORD_SIZE'
            ? `FEED_LINE_TOO_LONG: a record is over the per-line cap of ${MAX_FEED_LINE_BYTES} characters; it and the rows after it are not read`
            : `unreadable CSV: ${(err as Error).message}`,
    });
  }
  return records;
}

/**
 * Relaxed quoting reads `"broken" tail` as the text `"broken" tail`. A field that starts with a
 * quote is rare, so only such records are read again strictly to tell that mistake from a field
 * quoted properly (`"""Yes"", she said"`); the strict reading names the field.
 */
function textAfterClosingQuote(raw: string): string | undefined {
  let field: number | undefined;
  parse(raw, {
    relax_column_count: true,
    skip_records_with_error: true,
    record_delimiter: RECORD_DELIMITERS,
    on_skip: (err) => {
      if (field === undefined && err?.code === 'CSV_INVALID_CLOSING_QUOTE')
        field = Number((err as { column?: unknown }).column) + 1;
    },
  });
  return field === undefined
    ? undefined
    : `unexpected text after a closing quote in field ${field} (a quote inside a quoted field is written "")`;
}

function countNewlines(chunk: string): number {
  let count = 0;
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && chunk.charCodeAt(i + 1) !== 0x0a)) count++;
  }
  return count;
}
