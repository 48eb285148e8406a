import * as os from 'node:os';
import * as path from 'node:path';
import ms, { type StringValue } from 'ms';
import { z } from 'zod';
import { parseRedisClusterNodes, type RedisClusterNodes } from './core/redisClusterNodes';
import { PhotowireError } from './core/errors';
import { describeHidden, maskUrlCredentials } from './core/secrets';

/** Which environment variable each config property is read from (one variable per property). */
const envNames = z.registry<{ env: string }>();

/** A config property read from the environment variable `name`; '' counts as unset. */
function fromEnv<S extends z.ZodType>(name: string, schema: S): S {
  envNames.add(schema as z.ZodType, { env: name });
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
  ),
  /** PHOTOWIRE_DATA_DIR: originals, renditions, batch exports; an absolute path. */
  dataDir: fromEnv(
    'PHOTOWIRE_DATA_DIR',
    z
      .string()
      .min(1)
      .default('./data')
      .transform((d) => path.resolve(d)),
  ),
  /** PHOTOWIRE_PREFIX: prefix of every Redis key and queue. */
  prefix: fromEnv(
    'PHOTOWIRE_PREFIX',
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, dot, dash and underscore only')
      .default('photowire'),
  ),
  /** PHOTOWIRE_CONCURRENCY: items in flight per worker process. One image in flight per core keeps both cores busy without oversubscribing libvips (see docs/HOW-IT-WORKS.md, "Performance"). */
  concurrency: fromEnv('PHOTOWIRE_CONCURRENCY', intFromEnv(1, 256).default(Math.max(2, os.cpus().length))),
  /**
   * PHOTOWIRE_CHUNK_SIZE: caption-only items (no photo) go as one job per chunk of batch indexes of
   * this size (one BullMQ job per item cost more than the item); 1 gives one job per item,
   * as photos always have (src/core/itemChunks.ts).
   */
  chunkSize: fromEnv('PHOTOWIRE_CHUNK_SIZE', intFromEnv(1, 1000).default(100)),
  /** PHOTOWIRE_MAX_PIXELS: pixel cap per image. */
  maxPixels: fromEnv('PHOTOWIRE_MAX_PIXELS', intFromEnv(1, 2_000_000_000).default(100_000_000)),
  /** PHOTOWIRE_MAX_FILE_MB: size cap per image file, in bytes. */
  maxFileBytes: fromEnv(
    'PHOTOWIRE_MAX_FILE_MB',
    intFromEnv(1, 10_000)
      .default(200)
      .transform((mb) => mb * MB),
  ),
  /** PHOTOWIRE_MAX_FEED_MB: size cap per feed file (manifest, XML, text), in bytes. */
  maxFeedBytes: fromEnv(
    'PHOTOWIRE_MAX_FEED_MB',
    intFromEnv(1, 10_000)
      .default(64)
      .transform((mb) => mb * MB),
  ),
  /** PHOTOWIRE_CREDIT_RULES: an operator's credit rules file (docs/CREDITS.md). */
  creditRulesPath: fromEnv('PHOTOWIRE_CREDIT_RULES', z.string().min(1).optional().transform(unset)),
  /** PHOTOWIRE_BOILERPLATE_RULES: wire-boilerplate rules added to the shipped ones (src/core/captions/BOILERPLATE.md). */
  boilerplateRulesPath: fromEnv('PHOTOWIRE_BOILERPLATE_RULES', z.string().min(1).optional().transform(unset)),
  /** PHOTOWIRE_DEFAULT_TEXT_RULES: camera and software defaults added to src/core/metadata/default-texts.json (docs/METADATA.md). */
  defaultTextRulesPath: fromEnv('PHOTOWIRE_DEFAULT_TEXT_RULES', z.string().min(1).optional().transform(unset)),
  /** PHOTOWIRE_RIGHTS_RULES: a rights rules file extending src/core/rights/default-rules.json (docs/RIGHTS.md). */
  rightsRulesPath: fromEnv('PHOTOWIRE_RIGHTS_RULES', z.string().min(1).optional().transform(unset)),
  /** PHOTOWIRE_KILL_WEBHOOK: a JSON POST per kill, to a host in PHOTOWIRE_FETCH_ALLOW (docs/RIGHTS.md). */
  killWebhook: fromEnv(
    'PHOTOWIRE_KILL_WEBHOOK',
    z
      .url({ protocol: /^https?$/, error: 'an http(s) URL whose host is in PHOTOWIRE_FETCH_ALLOW' })
      .optional()
      .transform(unset),
  ),
  /** PHOTOWIRE_KILL_REF_WINDOW_HOURS: a kill naming a reused transmission reference (NYPS101) reaches records received this near it. */
  killRefWindowHours: fromEnv(
    'PHOTOWIRE_KILL_REF_WINDOW_HOURS',
    z.coerce
      .number()
      .gt(0)
      .lte(24 * 365)
      .default(72),
  ),
  /** PHOTOWIRE_ATTEMPTS: attempts for transient faults. */
  attempts: fromEnv('PHOTOWIRE_ATTEMPTS', intFromEnv(1, 50).default(5)),
  /** LOG_LEVEL: unset, each command picks its own (`run` keeps the terminal for progress and the summary). */
  logLevel: fromEnv(
    'LOG_LEVEL',
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .optional()
      .transform((l): string | undefined => l),
  ),
  /** PHOTOWIRE_API_TOKEN: bearer token of the HTTP API; `serve` refuses a non-loopback address without one. A short token would fall to the brute force a rate limit only slows. */
  apiToken: fromEnv(
    'PHOTOWIRE_API_TOKEN',
    z.string().min(16, 'use at least 16 characters (e.g. `openssl rand -hex 24`)').optional().transform(unset),
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
  ),
  /** PHOTOWIRE_UPLOAD_MAX_MB: most bytes one upload to the API may carry, all its files together. */
  uploadMaxBytes: fromEnv(
    'PHOTOWIRE_UPLOAD_MAX_MB',
    intFromEnv(1, 100_000)
      .default(512)
      .transform((mb) => mb * MB),
  ),
  /** PHOTOWIRE_API_RATE_LIMIT: API requests per minute per client address. */
  apiRateLimit: fromEnv('PHOTOWIRE_API_RATE_LIMIT', intFromEnv(1, 1_000_000).default(600)),
  /**
   * PHOTOWIRE_ALLOWED_HOSTS: Host names (`host` or `host:port`) the desk answers to beside the
   * addresses it is bound to (a proxy's public name); any other Host is refused, so a DNS-rebinding
   * page cannot read the desk through a name of its own.
   */
  allowedHosts: fromEnv(
    'PHOTOWIRE_ALLOWED_HOSTS',
    hostList(/^[A-Za-z0-9_.:\[\], -]*$/, 'a comma-separated list of host names (host or host:port)'),
  ),
  /** PHOTOWIRE_HTTP_REQUEST_TIMEOUT_MS: the desk cuts a request whose headers and body have not all arrived within this (a trickled upload). */
  httpRequestTimeoutMs: fromEnv('PHOTOWIRE_HTTP_REQUEST_TIMEOUT_MS', intFromEnv(500, 86_400_000).default(600_000)),
  /** PHOTOWIRE_HTTP_BODY_IDLE_MS: the desk cuts a request whose body has sent nothing for this long. */
  httpBodyIdleMs: fromEnv('PHOTOWIRE_HTTP_BODY_IDLE_MS', intFromEnv(100, 3_600_000).default(30_000)),
  /** PHOTOWIRE_UPLOADS_PER_CLIENT: feed submissions (POST /api/feeds) one client address may have in flight at once. */
  uploadsPerClient: fromEnv('PHOTOWIRE_UPLOADS_PER_CLIENT', intFromEnv(1, 1000).default(4)),
  /** PHOTOWIRE_EVENT_STREAMS_PER_CLIENT: /api/events streams one client address may hold open at once. */
  eventStreamsPerClient: fromEnv('PHOTOWIRE_EVENT_STREAMS_PER_CLIENT', intFromEnv(1, 10_000).default(8)),
  /** PHOTOWIRE_STORAGE_PROXY: with S3 storage, the desk streams renditions through itself instead of redirecting to a presigned URL. */
  storageProxy: fromEnv(
    'PHOTOWIRE_STORAGE_PROXY',
    z
      .enum(['0', '1'], '0 or 1')
      .default('0')
      .transform((v) => v === '1'),
  ),
  /** PHOTOWIRE_BOARD_WRITE: the queue board's destructive actions (pause, empty, clean, retry, remove); off by default. */
  boardWrite: fromEnv(
    'PHOTOWIRE_BOARD_WRITE',
    z
      .enum(['0', '1'], '0 or 1')
      .default('0')
      .transform((v) => v === '1'),
  ),
  /** PHOTOWIRE_SETTLE_MS: a dropped file is taken once its size and mtime have not changed for this long (docs/SOURCES.md). */
  settleMs: fromEnv('PHOTOWIRE_SETTLE_MS', intFromEnv(0, 86_400_000).default(5000)),
  /** PHOTOWIRE_SCAN_MS: how often hot folders are scanned. */
  scanMs: fromEnv('PHOTOWIRE_SCAN_MS', intFromEnv(100, 3_600_000).default(2000)),
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
  ),
  /** PHOTOWIRE_STALE_HOURS: a source with nothing new for longer is reported stale. */
  staleHours: fromEnv(
    'PHOTOWIRE_STALE_HOURS',
    z.coerce
      .number()
      .gt(0)
      .lte(24 * 365)
      .default(24),
  ),
  /** PHOTOWIRE_SCHEDULES: a JSON file of schedules applied when `photowire scheduler` starts; an absolute path. */
  schedulesPath: fromEnv(
    'PHOTOWIRE_SCHEDULES',
    z
      .string()
      .min(1)
      .optional()
      .transform((p) => (p ? path.resolve(p) : undefined)),
  ),
  /** PHOTOWIRE_FETCH_ALLOW: hosts HTTP feeds and images may be fetched from (lower case); empty refuses every URL. */
  fetchAllow: fromEnv(
    'PHOTOWIRE_FETCH_ALLOW',
    hostList(/^[A-Za-z0-9_.*:\[\], -]*$/, 'a comma-separated list of host names (host, host:port or *.domain)'),
  ),
  /** PHOTOWIRE_FETCH_TIMEOUT_MS: timeout of one download attempt, body included. */
  fetchTimeoutMs: fromEnv('PHOTOWIRE_FETCH_TIMEOUT_MS', intFromEnv(100, 3_600_000).default(30_000)),
  /** PHOTOWIRE_FETCH_RETRIES: further attempts of a feed's download after a timeout, network error or 408/429/5xx (a photo's download is retried by its item job's PHOTOWIRE_ATTEMPTS). */
  fetchRetries: fromEnv('PHOTOWIRE_FETCH_RETRIES', intFromEnv(0, 10).default(3)),
  /** PHOTOWIRE_LOCK_MS: BullMQ lock of an item job; a killed worker's items are taken again once it has expired (docs/RELIABILITY.md). */
  lockMs: fromEnv('PHOTOWIRE_LOCK_MS', intFromEnv(500, 3_600_000).default(120_000)),
  /** PHOTOWIRE_RETENTION_DAYS: a batch finished longer ago leaves Redis (records, ledger, indexes, jobs, runs); its export stays in storage (src/app/retention). */
  retentionDays: fromEnv('PHOTOWIRE_RETENTION_DAYS', z.coerce.number().gt(0).lte(36_500).default(30)),
  /** PHOTOWIRE_RETENTION_EVERY: how often the worker process runs the retention pass (a BullMQ job scheduler), `ms` syntax (`1d`, `6h`, `90s`) or milliseconds; 0 turns the scheduled pass off. */
  retentionEveryMs: fromEnv(
    'PHOTOWIRE_RETENTION_EVERY',
    durationFromEnv(
      '1d',
      (every) => every > 0 && every < 1000,
      'an interval of at least 1s such as 1d, 6h or 90s (ms syntax), or 0 for off',
    ),
  ),
  /** PHOTOWIRE_DEDUP_RETENTION_DAYS: caption clusters not seen for longer leave the caption index (a later resend starts a new cluster). */
  dedupRetentionDays: fromEnv('PHOTOWIRE_DEDUP_RETENTION_DAYS', z.coerce.number().gt(0).lte(36_500).default(90)),
  /** PHOTOWIRE_LEDGER_LOST_MS: a wait gives up (exit 2, with the reason) once a batch's ledger, or Redis, has been gone this long (src/sources/waitForBatch.ts). */
  ledgerLostMs: fromEnv('PHOTOWIRE_LEDGER_LOST_MS', intFromEnv(0, 86_400_000).default(60_000)),
  /** PHOTOWIRE_TEST_PAUSE_AT: test-only pause point (see src/app/items/testPause.ts); undefined in production. Never set in production. */
  testPauseAt: fromEnv(
    'PHOTOWIRE_TEST_PAUSE_AT',
    z
      .string()
      .regex(/^(render|dedup|chunk)(:\d+)?$/, 'render, dedup or chunk, optionally :<ms> (test-only)')
      .optional()
      .transform(unset),
  ),
});

export type Config = z.output<typeof configSchema>;

/** The environment variable of each config property. */
export const CONFIG_ENV = Object.fromEntries(
  Object.entries(configSchema.shape).map(([key, schema]) => {
    const env = envNames.get(schema)?.env;
    if (env === undefined) throw new Error(`config property ${key} names no environment variable (use fromEnv)`);
    return [key, env];
  }),
) as { readonly [K in keyof Config]: string };

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
  const keys = Object.keys(CONFIG_ENV) as (keyof Config)[];
  const raw = Object.fromEntries(keys.map((k) => [k, env[CONFIG_ENV[k]] === '' ? undefined : env[CONFIG_ENV[k]]]));
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const key = String(i.path[0]) as keyof Config;
        const name = CONFIG_ENV[key];
        return `${name}=${shown(name, raw[key])}: ${i.message}`;
      }),
    );
  }
  return parsed.data;
}
