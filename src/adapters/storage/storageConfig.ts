import * as path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../config';
import { maskUrlCredentials } from '../../core/secrets';
import { keyProblem } from '../../core/storageKeys';

/**
 * Where photowire keeps its objects, read from the environment:
 *   PHOTOWIRE_STORAGE  unset: the local folder PHOTOWIRE_DATA_DIR (default ./data); a path: that
 *                      folder; `s3://bucket/prefix`: an S3 bucket, keys under `prefix/`
 *   S3_ENDPOINT        an S3-compatible server (`http://127.0.0.1:9000` for MinIO); unset = AWS S3
 *   S3_REGION          default AWS_REGION, else us-east-1
 *   S3_FORCE_PATH_STYLE  true/false; default true with S3_ENDPOINT (MinIO, Ceph), false for AWS
 *   PHOTOWIRE_STORAGE_ATTEMPTS    tries of one S3 request on a 5xx or a timeout (default 4)
 *   PHOTOWIRE_STORAGE_TIMEOUT_MS  one S3 request's time limit (default 30000)
 * Credentials come from the standard AWS chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
 * AWS_PROFILE, an instance or container role): never from here, never printed.
 */
export type StorageConfig =
  | { kind: 'local'; root: string }
  | {
      kind: 's3';
      bucket: string;
      /** '' or ending in '/'. */
      prefix: string;
      endpoint: string | undefined;
      region: string;
      forcePathStyle: boolean;
      attempts: number;
      timeoutMs: number;
    };

// S3's bucket naming rules (3-63 characters, lowercase letters, digits, dots and hyphens, a letter
// or digit at both ends); Ceph and MinIO take the same.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const bool = z.enum(['true', 'false', '1', '0'], 'true or false').transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PHOTOWIRE_STORAGE: z.string().min(1).optional(),
  PHOTOWIRE_DATA_DIR: z.string().min(1).default('./data'),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'an http:// or https:// URL' })
    .refine(
      (u) => !/\/\/[^/]*@/.test(u),
      'no user or password in the URL: credentials come from the AWS credential chain',
    )
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'a region name such as us-east-1')
    .optional(),
  AWS_REGION: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  PHOTOWIRE_STORAGE_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  PHOTOWIRE_STORAGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
});

export function parseStorageConfig(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  const picked = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = String(i.path[0]);
        const value = picked[name];
        return `${name}=${value === undefined ? 'unset' : JSON.stringify(maskUrlCredentials(value))}: ${i.message}`;
      }),
    );
  }
  const e = parsed.data;
  const target = e.PHOTOWIRE_STORAGE;
  if (target === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    return { kind: 'local', root: path.resolve(target ?? e.PHOTOWIRE_DATA_DIR) };
  }
  const m = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(target);
  const shownTarget = JSON.stringify(maskUrlCredentials(target));
  if (!m)
    throw new ConfigError([`PHOTOWIRE_STORAGE=${shownTarget}: a folder path or s3://bucket/prefix (no other scheme)`]);
  const bucket = m[1]!;
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new ConfigError([
      `PHOTOWIRE_STORAGE=${shownTarget}: the bucket name ${JSON.stringify(bucket)} is not one S3 accepts (3-63 lowercase letters, digits, dots, hyphens)`,
    ]);
  }
  const rawPrefix = (m[2] ?? '').replace(/\/+$/, '');
  const why = rawPrefix === '' ? null : keyProblem(rawPrefix);
  if (why) throw new ConfigError([`PHOTOWIRE_STORAGE=${shownTarget}: the prefix ${JSON.stringify(rawPrefix)} ${why}`]);
  return {
    kind: 's3',
    bucket,
    prefix: rawPrefix === '' ? '' : `${rawPrefix}/`,
    endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
    region: e.S3_REGION ?? (e.AWS_REGION || 'us-east-1'),
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    attempts: e.PHOTOWIRE_STORAGE_ATTEMPTS,
    timeoutMs: e.PHOTOWIRE_STORAGE_TIMEOUT_MS,
  };
}

/** The storage as logs and errors name it: bucket, prefix and endpoint, never a credential. */
export function describeStorage(cfg: StorageConfig): string {
  if (cfg.kind === 'local') return `local folder ${cfg.root}`;
  return `s3://${cfg.bucket}/${cfg.prefix} at ${cfg.endpoint ? maskUrlCredentials(cfg.endpoint) : `AWS S3 (${cfg.region})`}`;
}
