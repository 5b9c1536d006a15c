/**
 * What went wrong, by meaning. Every layer below HTTP (the domains, the ports, the machinery) throws
 * these; the http layer chooses the status (`STATUS_OF_KIND` in shared/kernel/http/http-error.ts)
 * and answers `{ error: message, ...extra }` with `headers`.
 */
export type ErrorKind =
  /** The request can't be taken as it is (its input). */
  | 'invalid'
  /** No valid credential. */
  | 'unauthenticated'
  /** The caller may not. */
  | 'forbidden'
  | 'notFound'
  /** The method isn't one the resource takes. */
  | 'notAllowed'
  /** The resource's state forbids it now (taken, changed, busy). */
  | 'conflict'
  /** A precondition the caller gave doesn't hold. */
  | 'precondition'
  | 'tooLarge'
  /** Well formed, but its content can't be processed. */
  | 'unprocessable'
  /** Too many requests: try again later. */
  | 'throttled'
  /** A system the platform stands on failed. */
  | 'backend'
  /** Stopped part-way for now; repeating the request finishes it. */
  | 'unavailable'
  /** The platform's own failure. */
  | 'internal';

/** The one error family below HTTP: a kind, the message the caller reads, and what goes with it. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toJSON(): Record<string, unknown> {
    return { error: this.message, ...this.extra };
  }
}

/** True when `err` is a DomainError (of `kind`, when given). */
export const isDomainError = (err: unknown, kind?: ErrorKind): err is DomainError =>
  err instanceof DomainError && (kind === undefined || err.kind === kind);

/** True when `err` is the caller's (a DomainError whose kind is not the platform's or a backend's failure). */
export const isCallersError = (err: unknown): err is DomainError =>
  err instanceof DomainError && !PLATFORMS.has(err.kind);
const PLATFORMS: ReadonlySet<ErrorKind> = new Set(['backend', 'unavailable', 'internal']);

export const invalid = (message: string, extra?: Record<string, unknown>) => new DomainError('invalid', message, extra);
export const unauthorized = () => new DomainError('unauthenticated', 'Unauthorized');
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message = 'Not found') => new DomainError('notFound', message);
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new DomainError('conflict', message, extra);
export const tooLarge = (message: string, extra?: Record<string, unknown>) =>
  new DomainError('tooLarge', message, extra);
export const unprocessable = (message: string, extra?: Record<string, unknown>) =>
  new DomainError('unprocessable', message, extra);

export interface FieldIssue {
  path: string;
  message: string;
}

export const invalidRequest = (issues: FieldIssue[]) => new DomainError('invalid', 'Invalid request', { issues });
