/**
 * Every error code photowire uses, each with its message, whether the fault is transient
 * (retryable), the CLI's exit code and the API's HTTP status: one table (fastify's
 * `createError` registry is the model), read by `PhotowireError`, `exitCodeOf`, `httpStatusOf`
 * and `isRetryable`. Codes are documented in docs/ERRORS.md; never rename one, only add.
 *
 * Exit codes: 0 ok, 1 an item or feed failed (or a bug), 2 configuration, Redis, rules files or usage.
 */
export interface ErrorSpec {
  readonly message: string;
  /** What a user reads in docs/ERRORS.md (markdown, links relative to docs/), when it says more than the message. */
  readonly doc?: string;
  /** A transient fault (network, 5xx, timeouts, storage): another attempt may succeed. */
  readonly retryable: boolean;
  readonly exitCode: 1 | 2;
  readonly httpStatus: number;
}

const spec = (
  message: string,
  httpStatus: number,
  opts: { retryable?: boolean; exitCode?: 1 | 2; doc?: string } = {},
): ErrorSpec => ({
  message,
  ...(opts.doc ? { doc: opts.doc } : {}),
  retryable: opts.retryable ?? false,
  exitCode: opts.exitCode ?? 1,
  httpStatus,
});
const transient = { retryable: true } as const;
const setup = { exitCode: 2 } as const;

/** Codes an item or a feed fails with: shown in `status`, `failed`, `export` and run summaries. */
const ITEM_ERRORS = {
  FEED_UNREADABLE: spec('the feed file could not be read', 404),
  FEED_UNKNOWN_FORMAT: spec('the feed is not a format photowire reads', 415, {
    doc: 'the feed is not a format photowire reads (the message says what is expected)',
  }),
  FEED_MALFORMED: spec('the feed (or one of its lines) could not be parsed', 422, {
    doc: 'the feed or one of its lines could not be parsed (bad JSON, invalid UTF-8, malformed XML)',
  }),
  FEED_TOO_LARGE: spec('the feed file is over the size cap', 413, {
    doc: 'the feed file is over `PHOTOWIRE_MAX_FEED_MB`, or a folder holds more than 250,000 files and folders or nests deeper than 32 levels',
  }),
  FEED_LINE_TOO_LONG: spec('a line (or CSV record) of the feed is over the per-line cap: it is not parsed', 413, {
    doc: 'an NDJSON line or CSV record is over 4 MB (see [Input limits](RECORDS.md#input-limits)); the line is not read, the other items go on',
  }),
  XML_ENTITY_REFUSED: spec(
    'the XML declares entities (or a DOCTYPE that does more than name external DTDs), which are never expanded',
    422,
    {
      doc: 'the XML declares entities, or a DOCTYPE whose internal subset does more than name external DTD modules ([WIRE-FORMATS.md](WIRE-FORMATS.md)): nothing is expanded or fetched',
    },
  ),
  ITEM_DUPLICATE_ID: spec('another item of the same feed has this id', 422),
  ITEM_INVALID: spec('the item does not match the item schema', 422),
  PATH_OUTSIDE_FEED: spec("the item's image path leaves the feed's folder", 422, {
    doc: "the image path leaves the feed's folder (`..`, an absolute path, a symlink), or a symlink was dropped into a hot folder",
  }),
  IMAGE_NOT_FOUND: spec('the image file named by the item does not exist', 422),
  IMAGE_UNSUPPORTED: spec('the file is not an image format photowire reads', 415, {
    doc: 'the file is not an image format photowire reads (an HTML error page or text saved as `.jpg`, SVG, PDF...)',
  }),
  IMAGE_CORRUPT: spec('the image could not be decoded', 422, {
    doc: 'the image could not be decoded (empty, truncated: the message says "cut short", damaged)',
  }),
  IMAGE_TOO_LARGE: spec('the image is over the pixel or file-size cap', 413, {
    doc: 'over `PHOTOWIRE_MAX_PIXELS` (checked from the header, before decoding) or `PHOTOWIRE_MAX_FILE_MB`',
  }),
  STORAGE_FAILED: spec('the data directory could not be written', 503, {
    ...transient,
    doc: 'the data directory could not be written: full, read-only (retried; `photowire retry` once fixed)',
  }),
  WORKER_LOST: spec(
    'the worker processing the item died or stopped answering, three times (killed, out of memory, a crash in the image decoder)',
    500,
    {
      doc: "the worker processing the item died or stopped answering three times (killed, out of memory, a crash in the image decoder), or the item's job was gone when its batch closed (the item queue emptied, Redis lost its data); `photowire retry` runs it again",
    },
  ),
  FETCH_REFUSED: spec('the URL is not http(s) or its host is not in PHOTOWIRE_FETCH_ALLOW', 403, {
    doc: 'the URL is not http(s) or its host is not in `PHOTOWIRE_FETCH_ALLOW`',
  }),
  FETCH_FAILED: spec('the URL could not be downloaded (timeout, HTTP error or too large), after retries', 502, {
    ...transient,
    doc: 'the URL could not be downloaded: HTTP error, or timeouts/network errors after the retries',
  }),
  INTERNAL: spec('an unexpected error (a bug): see the logs', 500, {
    ...transient,
    doc: 'an unexpected error after the last attempt: see the logs',
  }),
  PICTURE_MISSING: spec(
    "the picture a delivery's item names is not in its folder (a hot folder waits PHOTOWIRE_PAIR_WAIT for it first)",
    422,
    {
      doc: "a delivery's item (NewsML-G2, NITF, manifest) names a picture that is not in its folder; in a hot folder, not even after `PHOTOWIRE_PAIR_WAIT` (the record keeps the item's metadata)",
    },
  ),
  FEED_EMPTY: spec('the folder holds no picture and no feed photowire reads: every file was skipped', 422, {
    doc: 'a folder feed holds no picture and no feed photowire reads: every file was skipped (each is named in the message)',
  }),
} as const satisfies Record<string, ErrorSpec>;

/** Codes of the program itself: configuration, services, rules files, usage, the API. */
const PROGRAM_ERRORS = {
  CONFIG_INVALID: spec('the configuration (environment variables) is invalid', 500, setup),
  STORAGE_CONFIG: spec(
    'the storage named by PHOTOWIRE_STORAGE cannot be used (bucket, credentials, endpoint or folder)',
    503,
    setup,
  ),
  REDIS_UNAVAILABLE: spec('no Redis answers (or it refused the credentials)', 503, { ...setup, ...transient }),
  REDIS_OUT_OF_MEMORY: spec(
    'Redis is out of memory (maxmemory reached with noeviction) and refuses writes; nothing stored is lost',
    503,
    {
      ...setup,
      ...transient,
      doc: 'Redis reached `maxmemory` with `noeviction` and refuses writes ("OOM command not allowed when used memory > \'maxmemory\'"): `run`, `ingest` and `retry` (and their waits, also with workers in other processes) stop with this one line; nothing stored is lost and queued items stay queued: raise `maxmemory` or free memory, then `photowire retry <batch> --wait` with a worker running',
    },
  ),
  LEDGER_LOST: spec(
    "a wait gave up: a batch's ledger, or Redis, was gone for longer than PHOTOWIRE_LEDGER_LOST_MS",
    503,
    setup,
  ),
  USAGE: spec('the command was called wrongly (a missing argument, a bad option, a port in use)', 400, setup),
  CREDIT_RULES_UNREADABLE: spec('the credit rules file could not be read', 500, setup),
  CREDIT_RULES_INVALID: spec('the credit rules file is not valid', 500, setup),
  BOILERPLATE_RULES_UNREADABLE: spec('the boilerplate rules file could not be read', 500, setup),
  BOILERPLATE_RULES_INVALID: spec('the boilerplate rules file is not valid', 500, setup),
  RIGHTS_RULES_UNREADABLE: spec('the rights rules file could not be read', 500, setup),
  RIGHTS_RULES_INVALID: spec('the rights rules file is not valid', 500, setup),
  DEFAULT_TEXT_RULES_UNREADABLE: spec(
    'the default-text rules file (camera and software defaults) could not be read',
    500,
    setup,
  ),
  DEFAULT_TEXT_RULES_INVALID: spec(
    'the default-text rules file (camera and software defaults) is not valid',
    500,
    setup,
  ),
  RULES_PHRASE_INVALID: spec('a phrase of a rights rule cannot be compiled', 400, setup),
  JSON_SYNTAX: spec('a JSON text could not be parsed', 400, setup),
  SCHEDULE_INVALID: spec('a schedule cannot be used (name, cron, interval, time zone or source)', 400, setup),
  HOT_FOLDER_INVALID: spec('a hot folder cannot be watched (missing, not a folder)', 400, setup),
  BAD_REQUEST: spec('the request is not valid', 400),
  UNAUTHORIZED: spec('the request needs the API token', 401),
  PATH_SUBMIT_DISABLED: spec('feeds cannot be named by path on this server', 403),
  PATH_OUTSIDE_ROOTS: spec('the path is not under an allowed feed root (PHOTOWIRE_FEED_ROOTS)', 403),
  BOARD_READ_ONLY: spec('the queue board is read-only', 403),
  CROSS_SITE_REFUSED: spec('a request that changes something came from a page of another site or origin', 403),
  HOST_NOT_ALLOWED: spec(
    'the Host header names none of the addresses this server answers to (PHOTOWIRE_ALLOWED_HOSTS)',
    421,
  ),
  TOO_MANY_OPEN: spec('this client already has as many uploads or event streams open as it may', 429),
  NOT_FOUND: spec('no such resource', 404),
  RENDITION_GONE: spec(
    "the photo was killed or withdrawn: its renditions are served only to the desk's Details view",
    410,
    {
      doc: "a rendition (thumbnail, preview) of a killed or withdrawn photo: answered 410 with `Cache-Control: private, no-store` to anything but the desk's Details view (see [docs/RIGHTS.md](RIGHTS.md#in-the-pipeline))",
    },
  ),
  BATCH_ARCHIVED: spec(
    'the batch is archived (removed from Redis by retention, read from its export in storage): it is read-only',
    409,
    {
      doc: 'the batch is archived (removed from Redis by retention, read from its export in storage): read-only, so `retry` (CLI and API) and `failed --batch` refuse it; `status` and `export` still read it',
    },
  ),
  UPLOAD_TOO_LARGE: spec('the upload is over its size or file-count cap', 413),
  RATE_LIMITED: spec('too many requests', 429),
  KILL_TARGET_AMBIGUOUS: spec(
    'the bare agency id was seen from more than one provider: name the agency (--agency) whose photo is meant',
    409,
    setup,
  ),
} as const satisfies Record<string, ErrorSpec>;

/** The one table: every code, its message, retryable, exit code and HTTP status. */
export const ERRORS: { readonly [K in PhotowireCode]: ErrorSpec } = { ...ITEM_ERRORS, ...PROGRAM_ERRORS };

/** A code an item or feed fails with (records, summaries, docs/ERRORS.md's table). */
export type ErrorCode = keyof typeof ITEM_ERRORS;
/** Any code of the table. */
export type PhotowireCode = keyof typeof ITEM_ERRORS | keyof typeof PROGRAM_ERRORS;

/** The item codes and their messages (as before the table: callers read `ERROR_CODES[code]`). */
export const ERROR_CODES = Object.fromEntries(Object.entries(ITEM_ERRORS).map(([code, s]) => [code, s.message])) as {
  readonly [K in ErrorCode]: string;
};

export function isPhotowireCode(code: unknown): code is PhotowireCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, code);
}

export interface PhotowireErrorOptions {
  cause?: unknown;
  /** Overrides the table's `retryable` for this one error. */
  retryable?: boolean;
}

/**
 * The base of every error photowire throws on purpose: a stable `code`, and from the table
 * whether it is retryable, its exit code and its HTTP status.
 */
export class PhotowireError extends Error {
  /**
   * A transient fault: BullMQ's attempts/backoff may run it again. The table's value for the
   * code, unless the thrower knows better (FETCH_FAILED for a 404 is not worth another attempt).
   */
  readonly retryable: boolean;

  constructor(
    readonly code: PhotowireCode,
    message: string,
    options?: PhotowireErrorOptions,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PhotowireError';
    this.retryable = options?.retryable ?? ERRORS[code].retryable;
  }

  get exitCode(): 1 | 2 {
    return ERRORS[this.code].exitCode;
  }

  get httpStatus(): number {
    return ERRORS[this.code].httpStatus;
  }
}

/**
 * Bad input: not retried (it fails the same way again, whatever its code's default). Carries a
 * stable code and says which file/item and why.
 */
export class InputError extends PhotowireError {
  declare readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: PhotowireErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? false });
    this.name = 'InputError';
  }
}

export function isInputError(err: unknown): err is InputError {
  return err instanceof InputError;
}

/** The table's code of an error: a PhotowireError's, or a known `code` property (`Object.assign(new Error(), { code })`). */
export function codeOf(err: unknown): PhotowireCode | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return isPhotowireCode(code) ? code : undefined;
}

/**
 * Is another attempt worth it? A PhotowireError says so itself (bad input never); an error with a
 * known code follows the table; an error without one (a dropped connection, a bug) is retried,
 * as BullMQ always did, and is INTERNAL once its attempts are spent.
 */
export function isRetryable(err: unknown): boolean {
  if (err instanceof PhotowireError) return err.retryable;
  const code = codeOf(err);
  return code === undefined ? true : ERRORS[code].retryable;
}

/** The CLI's exit code for a failure: from the table; 1 for anything else (a bug). */
export function exitCodeOf(err: unknown): 1 | 2 {
  if (err instanceof PhotowireError) return err.exitCode;
  const code = codeOf(err);
  return code === undefined ? 1 : ERRORS[code].exitCode;
}

/** The API's status for a failure: from the table; else the error's own 4xx/5xx `statusCode` (fastify's); else 500. */
export function httpStatusOf(err: unknown): number {
  if (err instanceof PhotowireError) return err.httpStatus;
  const code = codeOf(err);
  if (code !== undefined) return ERRORS[code].httpStatus;
  const status = (err as { statusCode?: unknown } | null | undefined)?.statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

/**
 * Codes that say the feed itself is bad at an item (a line that is not JSON, an invalid or
 * duplicate item, a path outside the folder) or the feed as a whole: a retry reads the same feed
 * and fails the same way, so the desk offers "fix the feed and drop it again" instead of Retry.
 */
export const FEED_LEVEL_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'FEED_UNREADABLE',
  'FEED_UNKNOWN_FORMAT',
  'FEED_MALFORMED',
  'FEED_TOO_LARGE',
  'FEED_LINE_TOO_LONG',
  'XML_ENTITY_REFUSED',
  'ITEM_DUPLICATE_ID',
  'ITEM_INVALID',
  'PATH_OUTSIDE_FEED',
]);

/** Can `photowire retry` (or the desk's Retry) change this failure's outcome? */
export function retryCanHelp(code: string): boolean {
  return !FEED_LEVEL_CODES.has(code);
}

/**
 * Codes of warnings: the item is stored and the batch goes on, but something it carried was cut or
 * skipped. A warning's text starts with its code (or carries it as `code`) and names the file. Listed
 * in docs/RECORDS.md ("Warning codes"); never rename one, only add.
 */
export const WARNING_CODES = {
  METADATA_SKIPPED:
    "a photo's embedded metadata is over a budget (inflated bytes, text chunks, XMP size): the excess is skipped, the photo kept",
  FIELD_CAPPED: 'a text field of a feed item or photo is over its cap: it is stored cut, with its length and the cap',
} as const;
export type WarningCode = keyof typeof WARNING_CODES;
