import { DomainError, type ErrorKind } from '../ground/errors';

/** An answer of the http layer with its status: `{ error: message, ...extra }` with `headers`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toJSON(): Record<string, unknown> {
    return { error: this.message, ...this.extra };
  }
}

/** The one mapping of meaning to status. */
export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  notAllowed: 405,
  conflict: 409,
  precondition: 412,
  tooLarge: 413,
  unprocessable: 422,
  throttled: 429,
  internal: 500,
  backend: 502,
  unavailable: 503,
};

/**
 * Seconds a caller waits before repeating what may succeed then (`Retry-After`): a throttled
 * request soon, a failed backend or a part-way stop a little later.
 */
export const RETRY_AFTER_OF_KIND: Partial<Record<ErrorKind, number>> = { throttled: 1, backend: 2, unavailable: 2 };

/** The http answer of an error of ours (an HttpError as it is, a DomainError by its kind), else undefined. */
export function httpErrorOf(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (!(err instanceof DomainError)) return undefined;
  const wait = RETRY_AFTER_OF_KIND[err.kind];
  const headers = wait === undefined ? err.headers : { 'retry-after': String(wait), ...err.headers };
  return new HttpError(STATUS_OF_KIND[err.kind], err.message, err.extra, headers);
}

/** The status an error of ours answers with, else undefined (a backend's or an unexpected error). */
export const statusOf = (err: unknown): number | undefined => httpErrorOf(err)?.status;
