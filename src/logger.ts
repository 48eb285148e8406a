import pino, { type Logger, type LoggerOptions } from 'pino';
import { maskSecrets } from './core/secrets';

/**
 * Keys whose value is a secret whatever it holds: pino removes them before a line is written.
 * Everything else is walked by `maskDeep` so a URL with a password (REDIS_URL) or an
 * Authorization value quoted in an error message is masked wherever it appears.
 */
export const REDACT_PATHS = [
  'token',
  'apiToken',
  'password',
  'secret',
  'authorization',
  '*.token',
  '*.apiToken',
  '*.password',
  '*.secret',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
];

/** Mask secrets in every string of a log object (bounded depth: log objects are small). */
export function maskDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, depth + 1));
  if (value instanceof Error) {
    const out: Record<string, unknown> = { type: value.name, message: maskSecrets(value.message) };
    if (value.stack) out.stack = maskSecrets(value.stack);
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) out.code = code;
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = maskDeep(v, depth + 1);
  return out;
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '***' },
    serializers: { err: (err: unknown) => maskDeep(err) },
    formatters: { log: (obj) => maskDeep(obj) as Record<string, unknown> },
    hooks: {
      // The message string itself (`logger.info('connecting to redis://:pw@host')`).
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? maskSecrets(a) : a)) as Parameters<typeof method>);
      },
    },
  };
}

/**
 * Logs go to stderr so that `--json` output and `export` on stdout stay machine-readable.
 * Pretty on a TTY, JSON lines otherwise. Secrets are masked in both (test/unit/logger.test.ts).
 */
export function createLogger(level: string): Logger {
  const pretty = process.stderr.isTTY && !process.env.CI;
  if (pretty) {
    return pino({
      ...loggerOptions(level),
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true, ignore: 'pid,hostname' } },
    });
  }
  return pino(loggerOptions(level), pino.destination(2));
}

export type { Logger };
