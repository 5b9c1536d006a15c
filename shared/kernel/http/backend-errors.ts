import { HttpError } from './http-error';

/**
 * Spec part A, "Errors" §5: how a DynamoDB or S3 failure reaches the caller. The one table for
 * every database and storage route; `toHttpError` is applied by the middy stack to anything a
 * route lets escape, so routes only catch what they answer with a more precise message.
 */
const table: { names: string[]; status: number; message: (err: BackendError, fileRoute: boolean) => string }[] = [
  {
    names: ['ValidationException', 'InvalidArgument', 'InvalidRequest', 'MalformedXML', 'SerializationException'],
    status: 400,
    message: (err) => cleanMessage(err) ?? 'The backend rejected the request.',
  },
  {
    names: ['ConditionalCheckFailedException'],
    status: 409,
    message: () => 'The item changed since it was read. Reload and try again.',
  },
  {
    names: ['TransactionCanceledException'],
    status: 409,
    message: () => 'An item with the new key already exists, or the original was changed or deleted.',
  },
  {
    names: ['ResourceNotFoundException', 'NoSuchBucket', 'NoSuchKey', 'NotFound'],
    status: 404,
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
    status: 409,
    message: (err) => cleanMessage(err) ?? 'The resource is busy. Try again shortly.',
  },
  {
    names: ['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'SlowDown'],
    status: 429,
    message: () => 'The backend is throttling requests. Try again in a moment.',
  },
];

export interface BackendError {
  name: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $fault?: 'client' | 'server';
}

/** True for errors thrown by an AWS SDK v3 client (they carry `$metadata`). */
export function isBackendError(err: unknown): err is BackendError {
  return (
    typeof err === 'object' && err !== null && '$metadata' in err && typeof (err as BackendError).name === 'string'
  );
}

/** A backend message is passed on only when it is plain text of a sensible length. */
function cleanMessage(err: BackendError): string | undefined {
  const m = err.message?.trim();
  if (!m || m === 'UnknownError' || m.length > 500 || m === err.name) return undefined;
  return m;
}

/** Maps a backend error to the spec's status and message. `fileRoute`: the call addressed one file. */
export function toHttpError(err: BackendError, fileRoute = false): HttpError {
  const row = table.find((r) => r.names.includes(err.name));
  if (!row) return new HttpError(502, 'The backend request failed. Try again.');
  return new HttpError(row.status, row.message(err, fileRoute));
}
