import { PhotowireError, exitCodeOf } from '../../core/errors';
import { escapeTerminalLines } from '../../core/terminalText';
import { maskSecrets } from '../../core/secrets';
import { isRedisOutOfMemory, outOfMemoryError } from '../../adapters/redis/outOfMemory';
import { UsageError } from '../usageError';

/** One clear message (secrets masked); the stack only for what is not a known failure, and only at LOG_LEVEL=debug. */
export function report(err: unknown): void {
  // A coded refusal (BATCH_ARCHIVED, exit 1) is known too; INTERNAL and uncoded errors are bugs.
  const known = exitCodeOf(err) === 2 || (err instanceof PhotowireError && err.code !== 'INTERNAL');
  // The message may name a feed's file or quote its text: controls escaped, its own lines kept (a configuration error lists one problem a line).
  const message = escapeTerminalLines(err instanceof Error ? err.message : String(err));
  let text = `photowire: ${message}\n`;
  if (err instanceof UsageError && err.hint) text += `hint: ${escapeTerminalLines(err.hint)}\n`;
  if (!known) {
    const debug = process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace';
    text +=
      debug && err instanceof Error && err.stack
        ? `${err.stack}\n`
        : 'this looks like a bug in photowire: run again with LOG_LEVEL=debug for the details, and report them\n';
  }
  process.stderr.write(maskSecrets(text));
}

/**
 * Exit with the failure's code (src/core/errors.ts: 1 an item or feed failed, or a bug; 2
 * configuration, Redis or usage). A write Redis refused for want of memory (the command's own:
 * creating a ledger, queueing a retry) is REDIS_OUT_OF_MEMORY, said in one line, not a bug.
 */
export function fail(err: unknown): void {
  const e = !(err instanceof PhotowireError) && isRedisOutOfMemory(err) ? outOfMemoryError('Redis', null) : err;
  report(e);
  process.exitCode = exitCodeOf(e);
}

/** Run a command and exit with its code; known failures print one clear message, not a stack. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<number>) {
  return async (...args: A) => {
    try {
      process.exitCode = await fn(...args);
    } catch (err) {
      fail(err);
    }
  };
}
