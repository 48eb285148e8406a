import { PhotowireError } from '../core/errors';

/**
 * A mistake in how a command was called (no feed given, a port already taken): the CLI prints
 * the message and the hint on one line each, never a stack, and exits 2 like a bad setting (USAGE).
 */
export class UsageError extends PhotowireError {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super('USAGE', message);
    this.name = 'UsageError';
  }
}
