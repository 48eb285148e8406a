import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { maskUrlCredentials } from '../../core/secrets';
import { describeStorage, type StorageConfig } from './storageConfig';
import { assertKey, isStreamBody, StorageConfigError, StorageError } from './storagePort';
import type { ObjectInfo, PutBody, PutIfAbsentResult, PutOptions, StoragePort } from './storagePort';

export type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

export interface S3StorageOptions {
  /** Explicit keys (tests); unset = the standard AWS credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Part size of streamed (multipart) uploads; S3's minimum is 5 MiB. */
  partSizeBytes?: number;
}

/**
 * S3-compatible object storage through the AWS SDK v3 (AWS S3, MinIO, Ceph RGW).
 *
 * - Retries: the SDK's standard strategy, `attempts` tries per request on a 5xx, a throttle or a
 *   timeout, with exponential backoff and full jitter (base 100 ms); then StorageError (STORAGE_FAILED).
 * - putIfAbsent: PutObject with `If-None-Match: *`; 412 = 'exists' (S3, Ceph RGW, MinIO honour it;
 *   test/integration/storage.contract.test.ts races 20 writers). AWS answers 409 to a conditional
 *   write that overlaps another in flight: asked again, it then says 412 or 200.
 * - Stream bodies go through lib-storage's Upload (one PUT when small, else multipart in parts of
 *   `partSizeBytes`; a failed multipart upload is aborted, so nothing half-written becomes visible).
 * - Checksums WHEN_REQUIRED: the SDK's default aws-chunked trailing CRC32 on stream bodies is
 *   refused by Ceph 16's radosgw (411); S3, MinIO and RGW all verify Content-MD5/SigV4 payloads anyway.
 */
export class S3Storage implements StoragePort {
  readonly kind = 's3' as const;
  readonly localRoot = null;
  readonly describe: string;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;
  private readonly where: string;

  constructor(
    readonly cfg: S3StorageConfig,
    opts: S3StorageOptions = {},
  ) {
    this.describe = describeStorage(cfg);
    this.bucket = cfg.bucket;
    this.prefix = cfg.prefix;
    this.partSize = Math.max(5 * 1024 * 1024, opts.partSizeBytes ?? 8 * 1024 * 1024);
    this.where = cfg.endpoint ? maskUrlCredentials(cfg.endpoint) : `AWS S3 (${cfg.region})`;
    const config: S3ClientConfig = {
      region: cfg.region,
      forcePathStyle: cfg.forcePathStyle,
      maxAttempts: cfg.attempts,
      retryMode: 'standard',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Without throwOnRequestTimeout the SDK only logs a warning and waits on forever for a stalled
      // answer (test/integration/storage.s3.test.ts, "never gets an answer").
      requestHandler: {
        requestTimeout: cfg.timeoutMs,
        connectionTimeout: Math.min(cfg.timeoutMs, 10_000),
        throwOnRequestTimeout: true,
      },
    };
    if (cfg.endpoint) config.endpoint = cfg.endpoint;
    if (opts.credentials) config.credentials = opts.credentials;
    this.client = new S3Client(config);
  }

  private full(key: string): string {
    assertKey(key);
    return this.prefix + key;
  }

  /**
   * Does the bucket exist and take our credentials? HeadBucket: 404 = missing, 403 = refused, no
   * answer = unreachable; each a StorageConfigError naming bucket and endpoint (exit 2 at start).
   */
  async open(): Promise<void> {
    const named = `PHOTOWIRE_STORAGE=s3://${this.bucket}/${this.prefix}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const status = statusOf(err);
      const name = (err as Error).name;
      if (status === 404 || name === 'NoSuchBucket' || name === 'NotFound') {
        throw new StorageConfigError(
          'bucket-missing',
          `${named}: the bucket "${this.bucket}" does not exist at ${this.where} (create it, or fix the name or S3_ENDPOINT)`,
        );
      }
      if (status === 403 || status === 401 || name === 'CredentialsProviderError' || /credential/i.test(name)) {
        throw new StorageConfigError(
          'credentials-refused',
          `${named}: the bucket "${this.bucket}" at ${this.where} refuses the credentials (${status ? `HTTP ${status}` : this.safeMessage(err)}): check AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the AWS profile, and the bucket's policy`,
        );
      }
      throw new StorageConfigError(
        'unreachable',
        `${named}: no usable answer from ${this.where} for the bucket "${this.bucket}" (${this.safeMessage(err)})`,
      );
    }
  }

  async put(key: string, body: PutBody, opts: PutOptions = {}): Promise<void> {
    const Key = this.full(key);
    assertSha256(opts.sha256);
    try {
      if (isStreamBody(body)) {
        const upload = new Upload({
          client: this.client,
          params: {
            Bucket: this.bucket,
            Key,
            Body: body instanceof Readable ? body : Readable.from(body),
            ContentType: opts.contentType,
            CacheControl: opts.cacheControl,
          },
          partSize: this.partSize,
          queueSize: 4,
          leavePartsOnError: false,
        });
        await upload.done();
      } else {
        const put = new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: body,
          ContentType: opts.contentType,
          CacheControl: opts.cacheControl,
        });
        if (opts.sha256 !== undefined) signKnownPayloadHash(put, opts.sha256);
        await this.client.send(put);
      }
    } catch (err) {
      throw this.fault('put', Key, err);
    }
  }

  async putIfAbsent(key: string, body: Buffer | string, opts: PutOptions = {}): Promise<PutIfAbsentResult> {
    const Key = this.full(key);
    assertSha256(opts.sha256);
    if (opts.beforeCommit) await opts.beforeCommit();
    for (let conflict = 0; ; conflict++) {
      try {
        const put = new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: body,
          IfNoneMatch: '*',
          ContentType: opts.contentType,
          CacheControl: opts.cacheControl,
        });
        if (opts.sha256 !== undefined) signKnownPayloadHash(put, opts.sha256);
        await this.client.send(put);
        return 'created';
      } catch (err) {
        const status = statusOf(err);
        if (status === 412) return 'exists';
        if (status === 409 && conflict < this.cfg.attempts) continue;
        throw this.fault('put-if-absent', Key, err);
      }
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const Key = this.full(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      if (isMissingKey(err)) return null;
      throw this.fault('get', Key, err);
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    const Key = this.full(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      return res.Body as Readable;
    } catch (err) {
      if (isMissingKey(err)) return null;
      throw this.fault('get', Key, err);
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const Key = this.full(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return {
        key,
        size: res.ContentLength ?? 0,
        contentType: res.ContentType,
        etag: res.ETag,
        lastModified: res.LastModified,
      };
    } catch (err) {
      if (isMissingKey(err)) return null;
      throw this.fault('head', Key, err);
    }
  }

  /** ListObjectsV2 page after page (1000 keys each) through the continuation token. */
  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    if (prefix !== '') assertKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
    const Prefix = this.prefix + prefix;
    let ContinuationToken: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken }));
      } catch (err) {
        throw this.fault('list', Prefix, err);
      }
      for (const o of page.Contents ?? []) {
        if (!o.Key) continue;
        yield { key: o.Key.slice(this.prefix.length), size: o.Size ?? 0, etag: o.ETag, lastModified: o.LastModified };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async delete(key: string): Promise<void> {
    const Key = this.full(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (err) {
      if (isMissingKey(err)) return;
      throw this.fault('delete', Key, err);
    }
  }

  /** A presigned GET (SigV4 in the query string), valid for `expiresInSeconds` (default 15 minutes). */
  async url(
    key: string,
    opts: { expiresInSeconds?: number; cacheControl?: string; contentType?: string } = {},
  ): Promise<string> {
    const get = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.full(key),
      ResponseCacheControl: opts.cacheControl,
      ResponseContentType: opts.contentType,
    });
    return getSignedUrl(this.client, get, { expiresIn: opts.expiresInSeconds ?? 900 });
  }

  /** `s3://bucket/prefix/key` (a key ending in `/` names a folder of objects). */
  locate(key: string): string {
    if (key !== '') assertKey(key.endsWith('/') ? key.slice(0, -1) : key);
    return `s3://${this.bucket}/${this.prefix}${key}`;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /** A failed request after the SDK's retries: STORAGE_FAILED naming the object, the answer and the tries. */
  private fault(op: string, fullKey: string, err: unknown): StorageError {
    const status = statusOf(err);
    const attempts = (err as { $metadata?: { attempts?: number } }).$metadata?.attempts;
    const answer = status ? `HTTP ${status} ${(err as Error).name}` : this.safeMessage(err);
    const tries = attempts ? ` after ${attempts} attempt${attempts === 1 ? '' : 's'}` : '';
    return new StorageError(`s3 ${op} s3://${this.bucket}/${fullKey} at ${this.where}: ${answer}${tries}`, {
      cause: err,
    });
  }

  /** An SDK or network error's text, masked: it may quote a URL. */
  private safeMessage(err: unknown): string {
    const e = err as NodeJS.ErrnoException;
    return maskUrlCredentials(`${e.name ?? 'Error'}: ${e.code ? `${e.code} ` : ''}${e.message ?? String(err)}`).slice(
      0,
      300,
    );
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** PutOptions.sha256 must be a hex digest: refused before any request (a programming error, not a storage fault). */
function assertSha256(sha256: string | undefined): void {
  if (sha256 !== undefined && !SHA256_HEX.test(sha256))
    throw new Error(`PutOptions.sha256 must be 64 lowercase hex digits, got ${JSON.stringify(sha256.slice(0, 80))}`);
}

/**
 * Sign `sha256` as the request's payload hash: SigV4 takes an `x-amz-content-sha256` header that is
 * already there as the hash instead of computing one over the body (@smithy/signature-v4), and the
 * server verifies the body against it (Ceph RGW, AWS S3, MinIO: XAmzContentSHA256Mismatch). Saves
 * one SHA-256 of the body on our side; the integrity check is the same.
 */
function signKnownPayloadHash(cmd: PutObjectCommand, sha256: string): void {
  cmd.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers['x-amz-content-sha256'] = sha256;
      return next(args);
    },
    { step: 'build', name: 'photowireKnownPayloadHash' },
  );
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isMissingKey(err: unknown): boolean {
  const name = (err as Error).name;
  return name === 'NoSuchKey' || name === 'NotFound' || (statusOf(err) === 404 && name !== 'NoSuchBucket');
}
