import { randomBytes } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { S3Storage } from '../../src/adapters/storage/s3Storage';
import { parseStorageConfig } from '../../src/config';
import type { S3Env } from './services';

/** A fresh bucket name per test file (S3 rules: lowercase, digits, hyphens). */
export function uniqueBucket(label: string): string {
  return `pwtest-${label}-${randomBytes(4).toString('hex')}`;
}

/** An S3Storage on the test server, configured the way PHOTOWIRE_STORAGE/S3_* would. */
export function s3Storage(
  env: S3Env,
  target: string,
  extra: Record<string, string> = {},
  opts: { partSizeBytes?: number; secret?: string; accessKey?: string } = {},
): S3Storage {
  const cfg = parseStorageConfig({
    PHOTOWIRE_STORAGE: target,
    S3_ENDPOINT: env.S3_ENDPOINT,
    S3_REGION: env.S3_REGION,
    S3_FORCE_PATH_STYLE: env.S3_FORCE_PATH_STYLE,
    ...extra,
  });
  if (cfg.kind !== 's3') throw new Error(`not an s3 target: ${target}`);
  return new S3Storage(cfg, {
    credentials: {
      accessKeyId: opts.accessKey ?? env.AWS_ACCESS_KEY_ID,
      secretAccessKey: opts.secret ?? env.AWS_SECRET_ACCESS_KEY,
    },
    partSizeBytes: opts.partSizeBytes,
  });
}

function rawClient(env: S3Env): S3Client {
  return new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE !== 'false',
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export async function createBucket(env: S3Env, bucket: string): Promise<void> {
  const c = rawClient(env);
  try {
    await c.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    c.destroy();
  }
}

/** Delete every object of the bucket, then the bucket (the RGW's memory is shared by test files). */
export async function dropBucket(env: S3Env, bucket: string): Promise<void> {
  const c = rawClient(env);
  try {
    let token: string | undefined;
    do {
      const page = await c.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await c.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    await c.send(new DeleteBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if ((err as Error).name !== 'NoSuchBucket') throw err;
  } finally {
    c.destroy();
  }
}
