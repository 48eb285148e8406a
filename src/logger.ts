import pino, { type Logger } from 'pino';

/**
 * Logs go to stderr so that `--json` output and `export` on stdout stay machine-readable.
 * Pretty on a TTY, JSON lines otherwise.
 */
export function createLogger(level: string): Logger {
  const pretty = process.stderr.isTTY && !process.env.CI;
  if (pretty) {
    return pino({
      level,
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true, ignore: 'pid,hostname' } },
    });
  }
  return pino({ level }, pino.destination(2));
}

export type { Logger };
