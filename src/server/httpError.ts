/** An error the API answers with its own status and a stable code, never a stack. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (what: string) => new HttpError(404, 'NOT_FOUND', what);
export const badRequest = (message: string) => new HttpError(400, 'BAD_REQUEST', message);
