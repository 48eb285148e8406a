import { PhotowireError, type PhotowireCode } from '../core/errors';

/**
 * An error the API answers with a stable code, its message and the code's status from the one
 * table (src/core/errors.ts), never a stack.
 */
export class HttpError extends PhotowireError {
  constructor(code: PhotowireCode, message: string);
  /** The older form: `status` must be the table's for `code` (test/unit/core/errors.test.ts checks every call). */
  constructor(status: number, code: PhotowireCode, message: string);
  constructor(a: PhotowireCode | number, b: string, c?: string) {
    if (typeof a === 'number') super(b as PhotowireCode, c ?? '');
    else super(a, b);
    this.name = 'HttpError';
  }

  /** The HTTP status: the table's for the code. */
  get status(): number {
    return this.httpStatus;
  }
}

export const notFound = (what: string) => new HttpError('NOT_FOUND', what);
export const badRequest = (message: string) => new HttpError('BAD_REQUEST', message);

/** What the API sends for a PhotowireError: the table's status, `{ error: code, message }`. */
export function errorReply(err: PhotowireError): { status: number; body: { error: string; message: string } } {
  return { status: err.httpStatus, body: { error: err.code, message: err.message } };
}
