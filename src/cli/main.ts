import { CommanderError } from 'commander';
import { fail } from './program/action';
import { buildProgram } from './program/build';

/**
 * The photowire command line. Exit codes (one mapping, src/core/errors.ts `exitCodeOf`): 0 ok,
 * 1 an item or feed failed (or a bug), 2 configuration, Redis, rules files or usage.
 */
buildProgram()
  .parseAsync(process.argv)
  .catch((err) => {
    if (err instanceof CommanderError) {
      // Commander has printed its message (and the hint); help and --version are not failures.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    fail(err);
  });
