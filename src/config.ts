import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { describeHidden, maskUrlCredentials } from './core/secrets';

const intFromEnv = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const envSchema = z.object({
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  PHOTOWIRE_DATA_DIR: z.string().min(1).default('./data'),
  PHOTOWIRE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, dot, dash and underscore only')
    .default('photowire'),
  // One image in flight per core keeps both cores busy without oversubscribing libvips (see README "Performance").
  PHOTOWIRE_CONCURRENCY: intFromEnv(1, 256).default(Math.max(2, os.cpus().length)),
  PHOTOWIRE_MAX_PIXELS: intFromEnv(1, 2_000_000_000).default(100_000_000),
  PHOTOWIRE_MAX_FILE_MB: intFromEnv(1, 10_000).default(200),
  PHOTOWIRE_MAX_FEED_MB: intFromEnv(1, 10_000).default(64),
  PHOTOWIRE_DEDUP_THRESHOLD: z.coerce.number().gt(0).lte(1).optional(),
  PHOTOWIRE_CREDIT_RULES: z.string().min(1).optional(),
  PHOTOWIRE_BOILERPLATE_RULES: z.string().min(1).optional(),
  // Rights, embargo and kill rules added to the shipped ones (docs/RIGHTS.md).
  PHOTOWIRE_RIGHTS_RULES: z.string().min(1).optional(),
  PHOTOWIRE_KILL_REF_WINDOW_HOURS: z.coerce.number().gt(0).lte(24 * 365).default(72),
  PHOTOWIRE_KILL_WEBHOOK: z.url({ protocol: /^https?$/, error: 'an http(s) URL whose host is in PHOTOWIRE_FETCH_ALLOW' }).optional(),
  PHOTOWIRE_ATTEMPTS: intFromEnv(1, 50).default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  // The desk (photowire serve). A short token would fall to the brute force a rate limit only slows.
  PHOTOWIRE_API_TOKEN: z.string().min(16, 'use at least 16 characters (e.g. `openssl rand -hex 24`)').optional(),
  PHOTOWIRE_FEED_ROOTS: z.string().min(1).optional(),
  PHOTOWIRE_UPLOAD_MAX_MB: intFromEnv(1, 100_000).default(512),
  PHOTOWIRE_API_RATE_LIMIT: intFromEnv(1, 1_000_000).default(600),
  PHOTOWIRE_BOARD_WRITE: z.enum(['0', '1'], '0 or 1').default('0'),
  // Sources (hot folders, scheduled imports, HTTP feeds): see README "Sources".
  PHOTOWIRE_SETTLE_MS: intFromEnv(0, 86_400_000).default(5000),
  PHOTOWIRE_SCAN_MS: intFromEnv(100, 3_600_000).default(2000),
  PHOTOWIRE_STALE_HOURS: z.coerce.number().gt(0).lte(24 * 365).default(24),
  PHOTOWIRE_SCHEDULES: z.string().min(1).optional(),
  PHOTOWIRE_FETCH_ALLOW: z
    .string()
    .regex(/^[A-Za-z0-9_.*:\[\], -]*$/, 'a comma-separated list of host names (host, host:port or *.domain)')
    .optional(),
  PHOTOWIRE_FETCH_TIMEOUT_MS: intFromEnv(100, 3_600_000).default(30_000),
  PHOTOWIRE_FETCH_RETRIES: intFromEnv(0, 10).default(3),
  // Reliability (docs/RELIABILITY.md): how long a dead worker's items stay locked before another takes them.
  PHOTOWIRE_LOCK_MS: intFromEnv(500, 3_600_000).default(120_000),
  // How long a wait goes on for a batch whose ledger vanished, or a Redis that does not answer (src/sources/waitForBatch.ts).
  PHOTOWIRE_LEDGER_LOST_MS: intFromEnv(0, 86_400_000).default(60_000),
  // Test-only: hold each item at one step so a test can kill or signal a worker there. Never set in production.
  PHOTOWIRE_TEST_PAUSE_AT: z
    .string()
    .regex(/^(render|dedup)(:\d+)?$/, 'render or dedup, optionally :<ms> (test-only)')
    .optional(),
});

export interface Config {
  redisUrl: string | undefined;
  dataDir: string;
  prefix: string;
  concurrency: number;
  maxPixels: number;
  maxFileBytes: number;
  maxFeedBytes: number;
  dedupThreshold: number | undefined;
  creditRulesPath: string | undefined;
  /** PHOTOWIRE_BOILERPLATE_RULES: wire-boilerplate rules added to the shipped ones (src/core/captions/BOILERPLATE.md). */
  boilerplateRulesPath: string | undefined;
  /** A rights rules file extending src/core/rights/default-rules.json (docs/RIGHTS.md). */
  rightsRulesPath: string | undefined;
  /** PHOTOWIRE_KILL_WEBHOOK: a JSON POST per kill, to a host in PHOTOWIRE_FETCH_ALLOW (docs/RIGHTS.md). */
  killWebhook: string | undefined;
  /** PHOTOWIRE_KILL_REF_WINDOW_HOURS: a kill naming a reused transmission reference (NYPS101) reaches records received this near it. */
  killRefWindowHours: number;
  attempts: number;
  /** Unset: each command picks its own (`run` keeps the terminal for progress and the summary). */
  logLevel: string | undefined;
  /** Bearer token of the HTTP API; `serve` refuses a non-loopback address without one. */
  apiToken: string | undefined;
  /** Absolute folders under which the API may ingest a feed named by path; empty refuses every path. */
  feedRoots: string[];
  /** Most bytes one upload to the API may carry, all its files together. */
  uploadMaxBytes: number;
  /** API requests per minute per client address. */
  apiRateLimit: number;
  /** The queue board's destructive actions (pause, empty, clean, retry, remove); off by default. */
  boardWrite: boolean;
  /** A dropped file is taken once its size and mtime have not changed for this long. */
  settleMs: number;
  /** How often hot folders are scanned. */
  scanMs: number;
  staleHours: number;
  /** A JSON file of schedules applied when `photowire scheduler` starts. */
  schedulesPath: string | undefined;
  /** Hosts HTTP feeds and images may be fetched from; empty refuses every URL. */
  fetchAllow: string[];
  fetchTimeoutMs: number;
  fetchRetries: number;
  /** BullMQ lock of an item job; a killed worker's items are taken again once it has expired. */
  lockMs: number;
  /** A wait gives up (exit 2, with the reason) once a batch's ledger, or Redis, has been gone this long. */
  ledgerLostMs: number;
  /** Test-only pause point (see src/workers/testPause.ts); undefined in production. */
  testPauseAt: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
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
  const picked = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0])}=${shown(String(i.path[0]), picked[String(i.path[0])])}: ${i.message}`));
  }
  const e = parsed.data;
  return {
    redisUrl: e.REDIS_URL,
    dataDir: path.resolve(e.PHOTOWIRE_DATA_DIR),
    prefix: e.PHOTOWIRE_PREFIX,
    concurrency: e.PHOTOWIRE_CONCURRENCY,
    maxPixels: e.PHOTOWIRE_MAX_PIXELS,
    maxFileBytes: e.PHOTOWIRE_MAX_FILE_MB * 1024 * 1024,
    maxFeedBytes: e.PHOTOWIRE_MAX_FEED_MB * 1024 * 1024,
    dedupThreshold: e.PHOTOWIRE_DEDUP_THRESHOLD,
    creditRulesPath: e.PHOTOWIRE_CREDIT_RULES,
    boilerplateRulesPath: e.PHOTOWIRE_BOILERPLATE_RULES,
    rightsRulesPath: e.PHOTOWIRE_RIGHTS_RULES,
    killWebhook: e.PHOTOWIRE_KILL_WEBHOOK,
    killRefWindowHours: e.PHOTOWIRE_KILL_REF_WINDOW_HOURS,
    attempts: e.PHOTOWIRE_ATTEMPTS,
    logLevel: e.LOG_LEVEL,
    apiToken: e.PHOTOWIRE_API_TOKEN,
    feedRoots: (e.PHOTOWIRE_FEED_ROOTS ?? '')
      .split(path.delimiter)
      .filter((r) => r.trim() !== '')
      .map((r) => path.resolve(r)),
    uploadMaxBytes: e.PHOTOWIRE_UPLOAD_MAX_MB * 1024 * 1024,
    apiRateLimit: e.PHOTOWIRE_API_RATE_LIMIT,
    boardWrite: e.PHOTOWIRE_BOARD_WRITE === '1',
    settleMs: e.PHOTOWIRE_SETTLE_MS,
    scanMs: e.PHOTOWIRE_SCAN_MS,
    staleHours: e.PHOTOWIRE_STALE_HOURS,
    schedulesPath: e.PHOTOWIRE_SCHEDULES ? path.resolve(e.PHOTOWIRE_SCHEDULES) : undefined,
    fetchAllow: (e.PHOTOWIRE_FETCH_ALLOW ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
    fetchTimeoutMs: e.PHOTOWIRE_FETCH_TIMEOUT_MS,
    fetchRetries: e.PHOTOWIRE_FETCH_RETRIES,
    lockMs: e.PHOTOWIRE_LOCK_MS,
    ledgerLostMs: e.PHOTOWIRE_LEDGER_LOST_MS,
    testPauseAt: e.PHOTOWIRE_TEST_PAUSE_AT,
  };
}
