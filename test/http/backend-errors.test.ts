import { type BackendError, backendError, isBackendError } from '../../shared/kernel/ground/backend-errors';
import { HttpError, httpErrorOf } from '../../shared/kernel/http/http-error';
import { dynamo } from '../../shared/kernel/store/client';
import { newDatabase } from '../databases/helpers';
import { TestPlatform } from '../helpers/platform';

/** Spec part A, "Errors" §5: every row of the backend error table, and one answer through a route. */
const backend = (name: string, message?: string): BackendError => ({ name, message, $metadata: {} });
/** The answer the http layer gives a backend error (by its kind, through the one mapping). */
const toHttpError = (err: BackendError, fileRoute = false): HttpError =>
  httpErrorOf(backendError(err, fileRoute)) ?? new HttpError(500, 'unmapped');

describe('the backend error table', () => {
  it.each(['ValidationException', 'InvalidArgument', 'InvalidRequest', 'MalformedXML', 'SerializationException'])(
    '%s → 400 with the backend message, or the generic one',
    (name) => {
      expect(toHttpError(backend(name, 'One or more parameter values were invalid')).toJSON()).toEqual({
        error: 'One or more parameter values were invalid',
      });
      const bare = toHttpError(backend(name));
      expect([bare.status, bare.message]).toEqual([400, 'The backend rejected the request.']);
    },
  );

  it('ConditionalCheckFailedException and TransactionCanceledException → 409', () => {
    const changed = toHttpError(backend('ConditionalCheckFailedException', 'The conditional request failed'));
    expect([changed.status, changed.message]).toEqual([
      409,
      'The item changed since it was read. Reload and try again.',
    ]);
    const canceled = toHttpError(backend('TransactionCanceledException', 'Transaction cancelled'));
    expect([canceled.status, canceled.message]).toEqual([
      409,
      'An item with the new key already exists, or the original was changed or deleted.',
    ]);
  });

  it.each(['ResourceNotFoundException', 'NoSuchBucket', 'NotFound'])('%s → 404 not found in the backend', (name) => {
    const err = toHttpError(backend(name));
    expect([err.status, err.message]).toEqual([
      404,
      'Not found in the backend. It may have been deleted outside the platform.',
    ]);
  });

  it('a missing file → 404 File not found.', () => {
    expect(toHttpError(backend('NoSuchKey')).message).toBe('File not found.');
    expect(toHttpError(backend('NotFound'), true).message).toBe('File not found.');
  });

  it.each([
    'ResourceInUseException',
    'LimitExceededException',
    'OperationAborted',
    'BucketNotEmpty',
    'IndexNotFoundException',
    'ContinuousBackupsUnavailableException',
  ])('%s → 409 with the backend message, or the generic one', (name) => {
    expect(toHttpError(backend(name, 'Table is being updated')).toJSON()).toEqual({ error: 'Table is being updated' });
    const bare = toHttpError(backend(name));
    expect([bare.status, bare.message]).toEqual([409, 'The resource is busy. Try again shortly.']);
  });

  it.each([
    'ProvisionedThroughputExceededException',
    'ThrottlingException',
    'RequestLimitExceeded',
    'SlowDown',
    // SQS, SES and STS, Lambda, CodeCommit say it their own ways.
    'RequestThrottled',
    'Throttling',
    'TooManyRequestsException',
    'ThrottledException',
  ])('%s → 429 with Retry-After', (name) => {
    const err = toHttpError(backend(name, 'Rate exceeded'));
    expect([err.status, err.message]).toEqual([429, 'The backend is throttling requests. Try again in a moment.']);
    expect(err.headers).toEqual({ 'retry-after': '1' });
  });

  it('a transaction cancelled because a part was throttled → 429; cancelled by a condition → 409', () => {
    const throttled = toHttpError({
      ...backend('TransactionCanceledException', 'Transaction cancelled, please refer cancellation reasons'),
      CancellationReasons: [{ Code: 'None' }, { Code: 'ThrottlingError' }],
    });
    expect([throttled.status, throttled.message, throttled.headers]).toEqual([
      429,
      'The backend is throttling requests. Try again in a moment.',
      { 'retry-after': '1' },
    ]);
    const conditional = toHttpError({
      ...backend('TransactionCanceledException'),
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
    });
    expect([conditional.status, conditional.headers]).toEqual([409, {}]);
  });

  it.each(['InternalServerError', 'ServiceUnavailable', 'TimeoutError', 'ECONNRESET'])(
    '%s (anything else) → 502 with Retry-After, never the backend message',
    (name) => {
      const err = toHttpError(backend(name, 'stack trace with secrets'));
      expect(err.toJSON()).toEqual({ error: 'The backend request failed. Try again.' });
      expect([err.status, err.headers]).toEqual([502, { 'retry-after': '2' }]);
    },
  );
});

it('a backend connection cut below the SDK (no $metadata) is a backend error; our own errors are not', () => {
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  expect(isBackendError(reset)).toBe(true);
  expect(toHttpError(reset).status).toBe(502);
  expect(isBackendError(new Error('boom'))).toBe(false);
  expect(isBackendError(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(false);
});

describe('a backend error through a route', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await TestPlatform.start();
  });
  afterAll(() => p.close());

  it('a throttled scan answers 429, not 500', async () => {
    const db = await newDatabase(p);
    // The handlers run in this process and share the client: DynamoDB's throttling is raised at the
    // AWS SDK's boundary for the scan, and the route's own code runs unchanged.
    const name = 'throttle-scan';
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'ScanCommand') {
          throw Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded.'), {
            name: 'ProvisionedThroughputExceededException',
            $fault: 'client',
            $metadata: { httpStatusCode: 400 },
          });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const res = await p.post(`${db.path}/scan`, {});
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: 'The backend is throttling requests. Try again in a moment.' });
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      dynamo.middlewareStack.remove(name);
    }
  });
});
