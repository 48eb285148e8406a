import { codeOf, ERROR_CODES, type ErrorCode } from '../../core/errors';

/**
 * Is another attempt of the item's job worth making? The error registry decides
 * (src/core/errors.ts): a PhotowireError says so itself (a download that timed out or got a 5xx:
 * yes; bad input, a 404: no), a known code follows the table (STORAGE_FAILED: yes), an error
 * without one (a Redis hiccup, a bug) is retried until the attempts run out.
 */
export { isRetryable } from '../../core/errors';

/** The record's code for a failure: the item code the error carries, else INTERNAL. */
export function failureCode(err: unknown): ErrorCode {
  const code = codeOf(err);
  return code !== undefined && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : 'INTERNAL';
}

export function failureMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
