import type { Readable } from 'node:stream';
import { ConfigError } from '../../config';
import { PhotowireError } from '../../core/errors';
import { keyProblem } from '../../core/storageKeys';

/**
 * The storage port: where originals, renditions, the rendition manifest, batch exports
 * and desk uploads live. Two adapters: the local directory (LocalDirStorage, the default) and
 * S3-compatible object storage (S3Storage). Keys are `/`-separated (src/core/storageKeys.ts).
 *
 * Promises every adapter keeps (test/integration/storage.contract.test.ts runs one suite on both):
 * - a reader sees no object or the whole object, never a part (local: temp file + rename; S3: one
 *   PUT or a completed multipart upload);
 * - `putIfAbsent` creates the object only when no object has the key, atomically: of N concurrent
 *   callers exactly one gets 'created' and its bytes are the ones stored (S3: `If-None-Match: *`,
 *   412 = 'exists'; local: link(2), which fails with EEXIST);
 * - storage faults reach the caller as StorageError (code STORAGE_FAILED) after the adapter's
 *   retries; a bucket that is missing or refuses the credentials is a StorageConfigError at `open`.
 */
export interface StoragePort {
  /** 'local' or 's3', and a description for logs: never a secret. */
  readonly kind: 'local' | 's3';
  readonly describe: string;
  /**
   * The folder the objects are files in, when they are on this machine (the local adapter), else
   * null: a reader that can use the file system (the desk streaming a rendition, confined to this
   * folder) asks this capability rather than the adapter's class.
   */
  readonly localRoot: string | null;

  /** Check the storage is usable (the folder can be written, the bucket exists and accepts the credentials). */
  open(): Promise<void>;
  /** Write (or overwrite) an object. A stream body is sent in parts (S3 multipart) without being held whole. */
  put(key: string, body: PutBody, opts?: PutOptions): Promise<void>;
  /** Create the object unless one exists: 'created', or 'exists' (then nothing was written). */
  putIfAbsent(key: string, body: Buffer | string, opts?: PutOptions): Promise<PutIfAbsentResult>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The object as a stream, or null when there is none (a large original, an export). */
  getStream(key: string): Promise<Readable | null>;
  /** Size and type of an object, or null when there is none. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Every object whose key starts with `prefix`, in key order, page after page. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** Remove an object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A URL the desk can hand a browser for the object: S3, a presigned GET valid `expiresInSeconds`;
   * local, the adapter's `urlBase` + key when one is set (the desk's own route), else a file:// URL.
   * `cacheControl`/`contentType`: S3 answers the presigned GET with these headers (signed
   * response-cache-control/response-content-type), whatever the object was stored with.
   */
  url(key: string, opts?: { expiresInSeconds?: number; cacheControl?: string; contentType?: string }): Promise<string>;
  /**
   * Where an object (or, for a key ending in `/`, a folder of them) is, for people and summaries:
   * local, the absolute file path; S3, `s3://bucket/prefix/key`. No I/O, never a secret.
   */
  locate(key: string): string;
  close(): Promise<void>;
}

export type PutBody = Buffer | string | Uint8Array | Readable | AsyncIterable<Uint8Array>;
export type PutIfAbsentResult = 'created' | 'exists';

export interface PutOptions {
  contentType?: string;
  /** e.g. `public, max-age=31536000, immutable` for content-addressed renditions. */
  cacheControl?: string;
  /**
   * Test hook (PHOTOWIRE_TEST_PAUSE_AT=render): runs once the body is ready and before the object
   * becomes visible (local: the temp file is written, not yet linked; S3: before the request).
   */
  beforeCommit?: () => Promise<void>;
  /**
   * The body's SHA-256 (64 lowercase hex digits) when the caller has it already, as for a
   * content-addressed original: S3 signs it as the payload hash (`x-amz-content-sha256`) instead
   * of hashing the body once more, and the server still checks the body against it (a mismatch is
   * refused, STORAGE_FAILED). A wrong value is therefore a failed put, never a wrong object.
   * The local folder ignores it.
   */
  sha256?: string;
}

export interface ObjectInfo {
  key: string;
  size: number;
  contentType?: string;
  etag?: string;
  lastModified?: Date;
}

/**
 * A storage fault seen by an item: a 5xx, a timeout, a full disk, after the adapter's retries.
 * Transient from the item's point of view (retryable, src/core/errors.ts): BullMQ retries the
 * job with backoff, and after the attempts the item fails STORAGE_FAILED; `photowire retry` recovers it.
 */
export class StorageError extends PhotowireError {
  declare readonly code: 'STORAGE_FAILED';
  constructor(message: string, options?: { cause?: unknown }) {
    super('STORAGE_FAILED', message, options);
    this.name = 'StorageError';
  }
}

export type StorageConfigReason = 'bucket-missing' | 'credentials-refused' | 'unreachable' | 'not-writable' | 'invalid';

/**
 * The storage named by the configuration cannot be used at all (exit 2 at start, like any
 * ConfigError): names the bucket and endpoint (or folder) and the reason, never a secret.
 */
export class StorageConfigError extends ConfigError {
  override readonly code = 'STORAGE_CONFIG' as const;
  constructor(
    readonly reason: StorageConfigReason,
    problem: string,
  ) {
    super([problem]);
    this.name = 'StorageConfigError';
  }
}

/** Refuse a bad key before any I/O (a programming error, not a storage fault). */
export function assertKey(key: string): void {
  const why = keyProblem(key);
  if (why) throw new Error(`refusing storage key ${JSON.stringify(key)}: ${why}`);
}

/** Is the body a stream (Readable or async iterable) rather than bytes in memory? */
export function isStreamBody(body: PutBody): body is Readable | AsyncIterable<Uint8Array> {
  return (
    typeof body !== 'string' &&
    !(body instanceof Uint8Array) &&
    typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function'
  );
}
