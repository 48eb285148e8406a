/**
 * A mistake in how a command was called (no feed given, a port already taken): the CLI prints
 * the message and the hint on one line each, never a stack, and exits 2 like a bad setting.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
