import * as os from 'node:os';
import * as path from 'node:path';
import ms, { type StringValue } from 'ms';
import { z } from 'zod';
import { parseRedisClusterNodes, type RedisClusterNodes } from './core/redisClusterNodes';
import { PhotowireError } from './core/errors';
import { describeHidden, maskUrlCredentials } from './core/secrets';
import { keyProblem } from './core/storageKeys';

/**
 * How docs/CONFIGURATION.md describes a variable (the table is generated from these: `npm run docs`,
 * checked by test/unit/config.test.ts): its default as a reader sees it, and what it does.
 */
export interface EnvDoc {
  default: string;
  meaning: string;
}

/** Which environment variable each config property is read from (one variable per property), and its doc. */
const envNames = z.registry<{ env: string } & EnvDoc>();

/** A config property read from the environment variable `name`; '' counts as unset. */
function fromEnv<S extends z.ZodType>(name: string, schema: S, doc: EnvDoc): S {
  envNames.add(schema as z.ZodType, { env: name, ...doc });
  return schema;
}

const intFromEnv = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const MB = 1024 * 1024;
/** An interval in `ms` syntax (`1d`, `6h`, `90s`) or plain milliseconds; `0` is 0 (off). Null when it is neither. */
export function parseInterval(v: string): number | null {
  const t = v.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const n = ms(t as StringValue);
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}
/**
 * A duration in an environment variable (`ms` syntax or milliseconds), `fallback` when unset;
 * a value that does not parse, or that `invalid` rejects, fails with `message`.
 */
function durationFromEnv(fallback: string, invalid: (ms: number) => boolean, message: string) {
  return z
    .string()
    .optional()
    .transform((v, c) => {
      const ms = parseInterval(v ?? fallback);
      if (ms === null || invalid(ms)) {
        c.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return ms;
    });
}
/** Unset stays undefined (the property is always there, its value may be undefined). */
const unset = <T>(v: T | undefined): T | undefined => v;

/**
 * The configuration, each variable written once: its env name, validation, default, transform and
 * meaning. Its output is the config (`Config`); docs/CONFIGURATION.md has a row for each variable
 * (test/unit/config.test.ts checks it).
 */
/** A comma-separated list of host names in an environment variable: trimmed, lower case, empty entries dropped. */
function hostList(allowed: RegExp, message: string) {
  return z
    .string()
    .regex(allowed, message)
    .optional()
    .transform((hosts) =>
      (hosts ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== ''),
    );
}

export const configSchema = z.object({
  /** REDIS_URL: Redis to use; unset: 127.0.0.1:6379, else a private redis-server (run only). */
  redisUrl: fromEnv(
    'REDIS_URL',
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional()
      .transform(unset),
    { default: 'unset: `127.0.0.1:6379`, else a private `redis-server` (run only)', meaning: 'Redis to use' },
  ),
  /** REDIS_CLUSTER_NODES: a Redis Cluster's nodes, `host:port,...` (entries may be redis(s):// URLs for credentials and TLS), instead of REDIS_URL. */
  redisClusterNodes: fromEnv(
    'REDIS_CLUSTER_NODES',
    z
      .string()
      .optional()
      .transform((v, ctx): RedisClusterNodes | undefined => {
        if (v === undefined) return undefined;
        try {
          return parseRedisClusterNodes(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }),
    {
      default: 'unset',
      meaning:
        "a Redis Cluster instead of `REDIS_URL`: `host:port,host:port,...`; an entry may be a `redis://user:password@host:port` (or `rediss://` for TLS) URL for the cluster's credentials (see [docs/SCALING.md](SCALING.md#redis-cluster))",
    },
  ),
  /** PHOTOWIRE_DATA_DIR: originals, renditions, batch exports; an absolute path. */
  dataDir: fromEnv(
    'PHOTOWIRE_DATA_DIR',
    z
      .string()
      .min(1)
      .default('./data')
      .transform((d) => path.resolve(d)),
    { default: '`./data`', meaning: 'originals, renditions, batch exports' },
  ),
  /** PHOTOWIRE_PREFIX: prefix of every Redis key and queue. */
  prefix: fromEnv(
    'PHOTOWIRE_PREFIX',
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, dot, dash and underscore only')
      .default('photowire'),
    { default: '`photowire`', meaning: 'prefix of every Redis key and queue' },
  ),
  /** PHOTOWIRE_CONCURRENCY: items in flight per worker process. One image in flight per core keeps both cores busy without oversubscribing libvips (see docs/HOW-IT-WORKS.md, "Performance"). */
  concurrency: fromEnv('PHOTOWIRE_CONCURRENCY', intFromEnv(1, 256).default(Math.max(2, os.cpus().length)), {
    default: 'number of cores, at least 2',
    meaning: 'jobs in flight per worker process: a photo, or a chunk of caption-only items',
  }),
  /**
   * PHOTOWIRE_CHUNK_SIZE: caption-only items (no photo) go as one job per chunk of batch indexes of
   * this size (one BullMQ job per item cost more than the item); 1 gives one job per item,
   * as photos always have (src/core/itemChunks.ts).
   */
  chunkSize: fromEnv('PHOTOWIRE_CHUNK_SIZE', intFromEnv(1, 1000).default(100), {
    default: '100',
    meaning:
      'caption-only items (no photo) go as one job per range of this many batch indexes, their records stored in one step; `1`: one job per item, as photos always are (see [docs/SCALING.md](SCALING.md#caption-only-items-in-chunks-issue-14))',
  }),
  /** PHOTOWIRE_MAX_PIXELS: pixel cap per image. */
  maxPixels: fromEnv('PHOTOWIRE_MAX_PIXELS', intFromEnv(1, 2_000_000_000).default(100_000_000), {
    default: '100000000',
    meaning: 'pixel cap per image',
  }),
  /** PHOTOWIRE_MAX_FILE_MB: size cap per image file, in bytes. */
  maxFileBytes: fromEnv(
    'PHOTOWIRE_MAX_FILE_MB',
    intFromEnv(1, 10_000)
      .default(200)
      .transform((mb) => mb * MB),
    { default: '200', meaning: 'size cap per image file' },
  ),
  /** PHOTOWIRE_MAX_FEED_MB: size cap per feed file (manifest, XML, text), in bytes. */
  maxFeedBytes: fromEnv(
    'PHOTOWIRE_MAX_FEED_MB',
    intFromEnv(1, 10_000)
      .default(64)
      .transform((mb) => mb * MB),
    { default: '64', meaning: 'size cap per feed file (manifest, XML, text)' },
  ),
  /** PHOTOWIRE_CREDIT_RULES: an operator's credit rules file (docs/CREDITS.md). */
  creditRulesPath: fromEnv('PHOTOWIRE_CREDIT_RULES', z.string().min(1).optional().transform(unset), {
    default: 'shipped rules',
    meaning: "an operator's credit rules file (see [Credits](CREDITS.md))",
  }),
  /** PHOTOWIRE_BOILERPLATE_RULES: wire-boilerplate rules added to the shipped ones (src/core/captions/BOILERPLATE.md). */
  boilerplateRulesPath: fromEnv('PHOTOWIRE_BOILERPLATE_RULES', z.string().min(1).optional().transform(unset), {
    default: 'shipped rules',
    meaning:
      'wire-boilerplate rules added to the shipped ones (`FILE PHOTO:`, `REFILE -`, `Picture taken ...`: [src/core/captions/BOILERPLATE.md](../src/core/captions/BOILERPLATE.md))',
  }),
  /** PHOTOWIRE_DEFAULT_TEXT_RULES: camera and software defaults added to src/core/metadata/default-texts.json (docs/METADATA.md). */
  defaultTextRulesPath: fromEnv('PHOTOWIRE_DEFAULT_TEXT_RULES', z.string().min(1).optional().transform(unset), {
    default: 'shipped rules',
    meaning:
      'camera and software defaults ("OLYMPUS DIGITAL CAMERA", "Created with GIMP") added to the shipped ones, dropped from embedded metadata ([docs/METADATA.md](METADATA.md))',
  }),
  /** PHOTOWIRE_RIGHTS_RULES: a rights rules file extending src/core/rights/default-rules.json (docs/RIGHTS.md). */
  rightsRulesPath: fromEnv('PHOTOWIRE_RIGHTS_RULES', z.string().min(1).optional().transform(unset), {
    default: 'shipped rules',
    meaning: 'rights, embargo and kill-notice rules added to the shipped ones ([docs/RIGHTS.md](RIGHTS.md))',
  }),
  /** PHOTOWIRE_KILL_WEBHOOK: a JSON POST per kill, to a host in PHOTOWIRE_FETCH_ALLOW (docs/RIGHTS.md). */
  killWebhook: fromEnv(
    'PHOTOWIRE_KILL_WEBHOOK',
    z
      .url({ protocol: /^https?$/, error: 'an http(s) URL whose host is in PHOTOWIRE_FETCH_ALLOW' })
      .optional()
      .transform(unset),
    {
      default: 'unset',
      meaning:
        'an http(s) URL that receives a JSON POST per kill (`{type, kill}`), a BullMQ job retried with backoff `PHOTOWIRE_FETCH_RETRIES` times, sent once per kill; its host must be in `PHOTOWIRE_FETCH_ALLOW`',
    },
  ),
  /** PHOTOWIRE_KILL_REF_WINDOW_HOURS: a kill naming a reused transmission reference (NYPS101) reaches records received this near it. */
  killRefWindowHours: fromEnv(
    'PHOTOWIRE_KILL_REF_WINDOW_HOURS',
    z.coerce
      .number()
      .gt(0)
      .lte(24 * 365)
      .default(72),
    {
      default: '72',
      meaning:
        "a kill naming a reused transmission reference (AP's `NYPS101`) reaches only records received this near it, and kills later arrivals only this long after it; guids reach every record (docs/RIGHTS.md)",
    },
  ),
  /** PHOTOWIRE_ATTEMPTS: attempts for transient faults. */
  attempts: fromEnv('PHOTOWIRE_ATTEMPTS', intFromEnv(1, 50).default(5), {
    default: '5',
    meaning: 'attempts for transient faults',
  }),
  /** LOG_LEVEL: unset, each command picks its own (`run` keeps the terminal for progress and the summary). */
  logLevel: fromEnv(
    'LOG_LEVEL',
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .optional()
      .transform((l): string | undefined => l),
    { default: '`info`', meaning: 'pino log level' },
  ),
  /** PHOTOWIRE_API_TOKEN: bearer token of the HTTP API; `serve` refuses a non-loopback address without one. A short token would fall to the brute force a rate limit only slows. */
  apiToken: fromEnv(
    'PHOTOWIRE_API_TOKEN',
    z.string().min(16, 'use at least 16 characters (e.g. `openssl rand -hex 24`)').optional().transform(unset),
    {
      default: 'unset',
      meaning:
        "bearer token of the desk's API (at least 16 characters); required when `serve` binds to anything but loopback",
    },
  ),
  /** PHOTOWIRE_FEED_ROOTS: absolute folders under which the API may ingest a feed named by path; empty refuses every path. */
  feedRoots: fromEnv(
    'PHOTOWIRE_FEED_ROOTS',
    z
      .string()
      .min(1)
      .optional()
      .transform((roots) =>
        (roots ?? '')
          .split(path.delimiter)
          .filter((r) => r.trim() !== '')
          .map((r) => path.resolve(r)),
      ),
    { default: 'unset: none', meaning: 'folders (`:`-separated) under which the desk may ingest a feed named by path' },
  ),
  /** PHOTOWIRE_UPLOAD_MAX_MB: most bytes one upload to the API may carry, all its files together. */
  uploadMaxBytes: fromEnv(
    'PHOTOWIRE_UPLOAD_MAX_MB',
    intFromEnv(1, 100_000)
      .default(512)
      .transform((mb) => mb * MB),
    { default: '512', meaning: 'most megabytes one upload to the desk may carry, all files together' },
  ),
  /** PHOTOWIRE_API_RATE_LIMIT: API requests per minute per client address. */
  apiRateLimit: fromEnv('PHOTOWIRE_API_RATE_LIMIT', intFromEnv(1, 1_000_000).default(600), {
    default: '600',
    meaning: 'desk API requests per minute per client address (thumbnails excepted)',
  }),
  /**
   * PHOTOWIRE_ALLOWED_HOSTS: Host names (`host` or `host:port`) the desk answers to beside the
   * addresses it is bound to (a proxy's public name); any other Host is refused, so a DNS-rebinding
   * page cannot read the desk through a name of its own.
   */
  allowedHosts: fromEnv(
    'PHOTOWIRE_ALLOWED_HOSTS',
    hostList(/^[A-Za-z0-9_.:\[\], -]*$/, 'a comma-separated list of host names (host or host:port)'),
    {
      default:
        'unset: only the bound address (for loopback also `localhost`, `127.0.0.1`, `[::1]`; for `0.0.0.0`/`::` every address of the machine and its host name), at the bound port',
      meaning:
        "further `Host` names the desk answers to, `host` (any port) or `host:port`, comma-separated: a proxy's public name. Any other `Host` is answered 421 `HOST_NOT_ALLOWED` (a DNS-rebinding page)",
    },
  ),
  /** PHOTOWIRE_HTTP_REQUEST_TIMEOUT_MS: the desk cuts a request whose headers and body have not all arrived within this (a trickled upload). */
  httpRequestTimeoutMs: fromEnv('PHOTOWIRE_HTTP_REQUEST_TIMEOUT_MS', intFromEnv(500, 86_400_000).default(600_000), {
    default: '600000',
    meaning:
      'a request to the desk (headers and body) must have arrived whole within this, or its connection is closed: a body trickled a byte at a time is cut (512 MB in 10 minutes needs about 7 Mbit/s)',
  }),
  /** PHOTOWIRE_HTTP_BODY_IDLE_MS: the desk cuts a request whose body has sent nothing for this long. */
  httpBodyIdleMs: fromEnv('PHOTOWIRE_HTTP_BODY_IDLE_MS', intFromEnv(100, 3_600_000).default(30_000), {
    default: '30000',
    meaning: 'a request body that sends nothing for this long is cut (its upload keeps nothing)',
  }),
  /** PHOTOWIRE_UPLOADS_PER_CLIENT: feed submissions (POST /api/feeds) one client address may have in flight at once. */
  uploadsPerClient: fromEnv('PHOTOWIRE_UPLOADS_PER_CLIENT', intFromEnv(1, 1000).default(4), {
    default: '4',
    meaning:
      'feed submissions (`POST /api/feeds`) one client address may have in flight at once; one more is 429 `TOO_MANY_OPEN` (behind a proxy, every client is the proxy)',
  }),
  /** PHOTOWIRE_EVENT_STREAMS_PER_CLIENT: /api/events streams one client address may hold open at once. */
  eventStreamsPerClient: fromEnv('PHOTOWIRE_EVENT_STREAMS_PER_CLIENT', intFromEnv(1, 10_000).default(8), {
    default: '8',
    meaning:
      '`/api/events` streams one client address may hold open at once (a desk tab holds one); one more is 429 `TOO_MANY_OPEN`',
  }),
  /** PHOTOWIRE_STORAGE_PROXY: with S3 storage, the desk streams renditions through itself instead of redirecting to a presigned URL. */
  storageProxy: fromEnv(
    'PHOTOWIRE_STORAGE_PROXY',
    z
      .enum(['0', '1'], '0 or 1')
      .default('0')
      .transform((v) => v === '1'),
    {
      default: '`0`',
      meaning:
        'with S3 storage, `1` makes the desk stream renditions through itself; `0` answers each with a 302 to a presigned URL (15 minutes, the redirect cached 5)',
    },
  ),
  /** PHOTOWIRE_BOARD_WRITE: the queue board's destructive actions (pause, empty, clean, retry, remove); off by default. */
  boardWrite: fromEnv(
    'PHOTOWIRE_BOARD_WRITE',
    z
      .enum(['0', '1'], '0 or 1')
      .default('0')
      .transform((v) => v === '1'),
    {
      default: '`0`',
      meaning:
        "`1` turns on the queue board's destructive actions (pause, empty, clean, retry all, remove); they need the token like everything else",
    },
  ),
  /** PHOTOWIRE_SETTLE_MS: a dropped file is taken once its size and mtime have not changed for this long (docs/SOURCES.md). */
  settleMs: fromEnv('PHOTOWIRE_SETTLE_MS', intFromEnv(0, 86_400_000).default(5000), {
    default: '5000',
    meaning: 'a dropped file is complete once its size and mtime are unchanged this long (see [Sources](SOURCES.md))',
  }),
  /** PHOTOWIRE_SCAN_MS: how often hot folders are scanned. */
  scanMs: fromEnv('PHOTOWIRE_SCAN_MS', intFromEnv(100, 3_600_000).default(2000), {
    default: '2000',
    meaning: 'how often hot folders are scanned',
  }),
  /**
   * PHOTOWIRE_PAIR_WAIT: in a hot folder, how long a delivery's XML item waits for the picture it
   * names, and a picture for the item that may name it, before either is taken alone (an item
   * then fails PICTURE_MISSING). `ms` syntax (`2m`, `90s`) or milliseconds; 0: no wait.
   */
  pairWaitMs: fromEnv(
    'PHOTOWIRE_PAIR_WAIT',
    durationFromEnv(
      '2m',
      (wait) => wait > 86_400_000,
      'a duration of at most 1d such as 2m or 90s (ms syntax), or 0 for no wait',
    ),
    {
      default: '2m',
      meaning:
        "how long a hot folder's delivery XML waits for its picture, and a picture for its XML (`ms` syntax or milliseconds; 0: no wait)",
    },
  ),
  /** PHOTOWIRE_STALE_HOURS: a source with nothing new for longer is reported stale. */
  staleHours: fromEnv(
    'PHOTOWIRE_STALE_HOURS',
    z.coerce
      .number()
      .gt(0)
      .lte(24 * 365)
      .default(24),
    { default: '24', meaning: 'a source with nothing new for longer is reported stale' },
  ),
  /** PHOTOWIRE_SCHEDULES: a JSON file of schedules applied when `photowire scheduler` starts; an absolute path. */
  schedulesPath: fromEnv(
    'PHOTOWIRE_SCHEDULES',
    z
      .string()
      .min(1)
      .optional()
      .transform((p) => (p ? path.resolve(p) : undefined)),
    { default: 'unset', meaning: 'a JSON file of schedules applied when `photowire scheduler` starts' },
  ),
  /** PHOTOWIRE_FETCH_ALLOW: hosts HTTP feeds and images may be fetched from (lower case); empty refuses every URL. */
  fetchAllow: fromEnv(
    'PHOTOWIRE_FETCH_ALLOW',
    hostList(/^[A-Za-z0-9_.*:\[\], -]*$/, 'a comma-separated list of host names (host, host:port or *.domain)'),
    {
      default: 'empty: no host',
      meaning: 'hosts HTTP feeds and photos may be fetched from: `host`, `host:port`, `*.domain`, comma-separated',
    },
  ),
  /** PHOTOWIRE_FETCH_TIMEOUT_MS: timeout of one download attempt, body included. */
  fetchTimeoutMs: fromEnv('PHOTOWIRE_FETCH_TIMEOUT_MS', intFromEnv(100, 3_600_000).default(30_000), {
    default: '30000',
    meaning: 'timeout of one download attempt, body included',
  }),
  /** PHOTOWIRE_FETCH_RETRIES: further attempts of a feed's download after a timeout, network error or 408/429/5xx (a photo's download is retried by its item job's PHOTOWIRE_ATTEMPTS). */
  fetchRetries: fromEnv('PHOTOWIRE_FETCH_RETRIES', intFromEnv(0, 10).default(3), {
    default: '3',
    meaning:
      "further attempts of a feed's download (and the kill webhook's) after a timeout, network error or 408/429/5xx; a photo's download is retried by its item job's `PHOTOWIRE_ATTEMPTS` instead",
  }),
  /** PHOTOWIRE_LOCK_MS: BullMQ lock of an item job; a killed worker's items are taken again once it has expired (docs/RELIABILITY.md). */
  lockMs: fromEnv('PHOTOWIRE_LOCK_MS', intFromEnv(500, 3_600_000).default(120_000), {
    default: '120000',
    meaning:
      "lock of an item being processed; a killed worker's items are taken by another worker once it expires (see [docs/RELIABILITY.md](RELIABILITY.md))",
  }),
  /** PHOTOWIRE_RETENTION_DAYS: a batch finished longer ago leaves Redis (records, ledger, indexes, jobs, runs); its export stays in storage (src/app/retention). */
  retentionDays: fromEnv('PHOTOWIRE_RETENTION_DAYS', z.coerce.number().gt(0).lte(36_500).default(30), {
    default: '30',
    meaning:
      'a batch finished longer ago is removed from Redis by the daily retention pass (records, ledger, indexes, finished jobs, run rows); its `records.ndjson` and `summary.json` stay in storage and the desk and `export` open it from there, read-only; a batch whose export is missing is kept (`photowire retention`)',
  }),
  /** PHOTOWIRE_RETENTION_EVERY: how often the worker process runs the retention pass (a BullMQ job scheduler), `ms` syntax (`1d`, `6h`, `90s`) or milliseconds; 0 turns the scheduled pass off. */
  retentionEveryMs: fromEnv(
    'PHOTOWIRE_RETENTION_EVERY',
    durationFromEnv(
      '1d',
      (every) => every > 0 && every < 1000,
      'an interval of at least 1s such as 1d, 6h or 90s (ms syntax), or 0 for off',
    ),
    {
      default: '`1d`',
      meaning:
        'how often the worker process runs the retention pass: a BullMQ job scheduler on the `photowire-retention` queue, upserted by every worker at start (restarts keep its next run); `ms` syntax (`6h`, `90s`) or milliseconds, at least 1 s; `0` turns it off (`photowire retention` still runs it by hand)',
    },
  ),
  /** PHOTOWIRE_DEDUP_RETENTION_DAYS: caption clusters not seen for longer leave the caption index (a later resend starts a new cluster). */
  dedupRetentionDays: fromEnv('PHOTOWIRE_DEDUP_RETENTION_DAYS', z.coerce.number().gt(0).lte(36_500).default(90), {
    default: '90',
    meaning:
      'caption clusters not seen for longer leave the caption index (their canonical captions and buckets); a later resend starts a new cluster',
  }),
  /** PHOTOWIRE_LEDGER_LOST_MS: a wait gives up (exit 2, with the reason) once a batch's ledger, or Redis, has been gone this long (src/sources/waitForBatch.ts). */
  ledgerLostMs: fromEnv('PHOTOWIRE_LEDGER_LOST_MS', intFromEnv(0, 86_400_000).default(60_000), {
    default: '60000',
    meaning:
      'how long `ingest --wait`, `run`, `retry --wait`, hot folders and schedules wait for a batch whose ledger is missing from Redis (or for a Redis that does not answer) before they give up with the reason (exit 2)',
  }),
  /** PHOTOWIRE_OPERATOR: who places and lifts kills from this process, for the audit trail (at most 100 characters). */
  operator: fromEnv(
    'PHOTOWIRE_OPERATOR',
    z
      .string()
      .optional()
      .transform((v) => v?.trim().slice(0, 100) || undefined),
    {
      default: 'the login',
      meaning: 'who places and lifts kills from the CLI, kept in the audit trail (the desk records `desk`)',
    },
  ),
  /** PHOTOWIRE_TEST_PAUSE_AT: test-only pause point (see src/app/items/testPause.ts); undefined in production. Never set in production. */
  testPauseAt: fromEnv(
    'PHOTOWIRE_TEST_PAUSE_AT',
    z
      .string()
      .regex(/^(render|dedup|chunk)(:\d+)?$/, 'render, dedup or chunk, optionally :<ms> (test-only)')
      .optional()
      .transform(unset),
    {
      default: 'unset',
      meaning:
        '**test-only**: `render` or `dedup`, optionally `:<ms>`; every item waits at that step so the fault tests can kill a worker there. Never set it in production',
    },
  ),
});

/** The configuration read from one variable per property. */
export type EnvConfig = z.output<typeof configSchema>;
/** The configuration: every property, and the storage its variables name together. */
export type Config = EnvConfig & { readonly storage: StorageConfig };

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

/** The storage variables: together they make one StorageConfig, so they are not properties of their own. */
const storageEnvSchema = z.object({
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

/** How docs/CONFIGURATION.md describes the storage variables, a row for each group. */
export const STORAGE_ENV_DOC: ReadonlyArray<{ names: string[] } & EnvDoc> = [
  {
    names: ['PHOTOWIRE_STORAGE'],
    default: 'unset: the local folder `PHOTOWIRE_DATA_DIR`',
    meaning:
      'a folder path, or `s3://bucket/prefix` for S3-compatible object storage (see [Storage](PRODUCTION.md#storage-aws-s3-or-any-s3-compatible-store)); the item stage stores originals, renditions and their manifests there (content-addressed, created only if absent)',
  },
  {
    names: ['S3_ENDPOINT', 'S3_REGION', 'S3_FORCE_PATH_STYLE'],
    default: 'AWS S3; `AWS_REGION` or `us-east-1`; `true` with an endpoint',
    meaning:
      'the S3 server (MinIO, Ceph RGW, ...), its region, path-style URLs; credentials from the standard AWS chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, a role)',
  },
  {
    names: ['PHOTOWIRE_STORAGE_ATTEMPTS', 'PHOTOWIRE_STORAGE_TIMEOUT_MS'],
    default: '4, 30000',
    meaning: "tries of one S3 request on a 5xx or a timeout (exponential backoff), and one request's time limit",
  },
];

export function parseStorageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const picked = Object.fromEntries(
    Object.keys(storageEnvSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = storageEnvSchema.safeParse(picked);
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

/** Each config property's variable and how docs/CONFIGURATION.md describes it, in the schema's order. */
export function configEnvDocs(): Array<{ key: keyof EnvConfig; env: string } & EnvDoc> {
  return Object.entries(configSchema.shape).map(([key, schema]) => {
    const doc = envNames.get(schema);
    if (doc === undefined) throw new Error(`config property ${key} names no environment variable (use fromEnv)`);
    return { key: key as keyof EnvConfig, ...doc };
  });
}

/** The environment variable of each config property. */
export const CONFIG_ENV = Object.fromEntries(
  Object.entries(configSchema.shape).map(([key, schema]) => {
    const env = envNames.get(schema)?.env;
    if (env === undefined) throw new Error(`config property ${key} names no environment variable (use fromEnv)`);
    return [key, env];
  }),
) as { readonly [K in keyof EnvConfig]: string };

/** Every bad variable, each named (exit 2). */
export class ConfigError extends PhotowireError {
  constructor(readonly problems: string[]) {
    super('CONFIG_INVALID', `invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose value is a secret: a configuration error names them but never shows them. */
const SECRET_VARS = new Set(['PHOTOWIRE_API_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN']);

/** A bad value as a configuration error shows it: secrets hidden, URL passwords masked. */
function shown(name: string, value: string | undefined): string {
  if (SECRET_VARS.has(name)) return describeHidden(value);
  return value === undefined ? 'unset' : JSON.stringify(maskUrlCredentials(value));
}

/** Read and validate the environment once; every bad variable is named in one error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const keys = Object.keys(CONFIG_ENV) as (keyof EnvConfig)[];
  const raw = Object.fromEntries(keys.map((k) => [k, env[CONFIG_ENV[k]] === '' ? undefined : env[CONFIG_ENV[k]]]));
  const parsed = configSchema.safeParse(raw);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => {
        const key = String(i.path[0]) as keyof EnvConfig;
        const name = CONFIG_ENV[key];
        return `${name}=${shown(name, raw[key])}: ${i.message}`;
      });
  let storage: StorageConfig | undefined;
  try {
    storage = parseStorageConfig({ ...env, PHOTOWIRE_DATA_DIR: parsed.data?.dataDir ?? env.PHOTOWIRE_DATA_DIR });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
  }
  if (!parsed.success || storage === undefined) throw new ConfigError(problems);
  return { ...parsed.data, storage };
}
