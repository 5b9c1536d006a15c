import { DomainError, type ErrorKind } from './errors';

/**
 * Spec part A, "Errors" §5: how a DynamoDB or S3 failure reaches the caller, by meaning (the http
 * layer's one mapping gives the kind: 'invalid', 409, 404, 409, 429, else 502). The one table for every
 * route; the middy stack applies `backendError` to anything a route lets escape, so code only
 * catches what it answers with a more precise message.
 */
/**
 * Throttling, as each service names it: DynamoDB, S3 (`SlowDown`), SQS, Lambda, SES, STS, the
 * scheduler, CodeBuild and CodeCommit. The SDK retries these itself first (with jitter); what still
 * fails reaches the caller as 429.
 */
/** The spec's words for throttling, whoever throttles: the backend, or the platform shedding work it can't finish in time. */
export const THROTTLED_MESSAGE = 'The backend is throttling requests. Try again in a moment.';

const THROTTLED = [
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'SlowDown',
  'Throttling',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestThrottled',
  'RequestThrottledException',
  'AccountLimitExceededException',
];

const table: {
  names: string[];
  kind: ErrorKind;
  /** When the row applies beyond its names (by default, always). */
  when?: (err: BackendError) => boolean;
  message: (err: BackendError, fileRoute: boolean) => string;
}[] = [
  {
    names: ['ValidationException', 'InvalidArgument', 'InvalidRequest', 'MalformedXML', 'SerializationException'],
    kind: 'invalid',
    message: (err) => cleanMessage(err) ?? 'The backend rejected the request.',
  },
  {
    // A transaction DynamoDB cancelled because a part of it was throttled is throttling, not a conflict.
    names: ['TransactionCanceledException'],
    kind: 'throttled',
    when: (err) =>
      reasonsOf(err).includes('ThrottlingError') || reasonsOf(err).includes('ProvisionedThroughputExceeded'),
    message: () => THROTTLED_MESSAGE,
  },
  {
    names: ['ConditionalCheckFailedException'],
    kind: 'conflict',
    message: () => 'The item changed since it was read. Reload and try again.',
  },
  {
    names: ['TransactionCanceledException'],
    kind: 'conflict',
    message: () => 'An item with the new key already exists, or the original was changed or deleted.',
  },
  {
    names: ['ResourceNotFoundException', 'NoSuchBucket', 'NoSuchKey', 'NotFound'],
    kind: 'notFound',
    message: (err, fileRoute) =>
      err.name === 'NoSuchKey' || (fileRoute && err.name === 'NotFound')
        ? 'File not found.'
        : 'Not found in the backend. It may have been deleted outside the platform.',
  },
  {
    names: [
      'ResourceInUseException',
      'LimitExceededException',
      'OperationAborted',
      'BucketNotEmpty',
      'IndexNotFoundException',
      'ContinuousBackupsUnavailableException',
    ],
    kind: 'conflict',
    message: (err) => cleanMessage(err) ?? 'The resource is busy. Try again shortly.',
  },
  {
    names: THROTTLED,
    kind: 'throttled',
    message: () => THROTTLED_MESSAGE,
  },
];

export interface BackendError {
  name: string;
  message?: string;
  /** DynamoDB's reasons a transaction was cancelled, one per part (`Code`: `None`, `ConditionalCheckFailed`, `ThrottlingError`, …). */
  CancellationReasons?: { Code?: string }[];
  $metadata?: { httpStatusCode?: number };
  $fault?: 'client' | 'server';
}

/** A connection to a backend that failed below the SDK (a stream cut part-way has no `$metadata`). */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH']);

/**
 * True for errors thrown by an AWS SDK v3 client (they carry `$metadata`), and for a backend
 * connection that failed (reset, refused, timed out) where the SDK had no answer to describe.
 */
export function isBackendError(err: unknown): err is BackendError {
  if (typeof err !== 'object' || err === null || typeof (err as BackendError).name !== 'string') return false;
  return '$metadata' in err || NETWORK_CODES.has(String((err as { code?: unknown }).code));
}

/** A backend message is passed on only when it is plain text of a sensible length. */
function cleanMessage(err: BackendError): string | undefined {
  const m = err.message?.trim();
  if (!m || m === 'UnknownError' || m.length > 500 || m === err.name) return undefined;
  return m;
}

const reasonsOf = (err: BackendError) => (err.CancellationReasons ?? []).map((r) => r.Code ?? '');

/**
 * A backend error as the spec words it, by meaning (the http layer adds `Retry-After` to the kinds
 * worth repeating). `fileRoute`: the call addressed one file.
 */
export function backendError(err: BackendError, fileRoute = false): DomainError {
  const row = table.find((r) => r.names.includes(err.name) && (r.when?.(err) ?? true));
  if (!row) return new DomainError('backend', 'The backend request failed. Try again.');
  return new DomainError(row.kind, row.message(err, fileRoute));
}
