/**
 * The engines of this test run (DynamoDB Local behind its signing proxy, the S3 server behind its
 * gate) answer only what the platform's key pair signed, as AWS does: unsigned requests, the
 * engines' published defaults, and headers a presigned link did not sign are refused.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CUSTOMER_BUCKET_PREFIX } from '../../shared/kernel/config';
import { storage } from '../../shared/ports/object-storage';
import { s3 } from '../storage/helpers';

const PUBLISHED_DEFAULTS = [
  { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  { accessKeyId: 'local', secretAccessKey: 'local' },
  { accessKeyId: 'fakeMyKeyId', secretAccessKey: 'fakeSecretAccessKey' },
];

const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (err: Error) => err.name,
  );

/** A raw request (fetch would refuse some headers), answered with its status and body. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the engines of the local platform', () => {
  it.each(PUBLISHED_DEFAULTS)('refuse requests signed with a published default ($accessKeyId)', async (credentials) => {
    const common = { region: 'eu-central-1', credentials, maxAttempts: 1 };
    const dynamo = new DynamoDBClient({ ...common, endpoint: process.env.DYNAMODB_SIGNED_ENDPOINT });
    const s3Client = new S3Client({ ...common, endpoint: process.env.AWS_ENDPOINT_URL_S3, forcePathStyle: true });
    const outcomes = await Promise.all([
      failure(dynamo.send(new ListTablesCommand({}))),
      failure(s3Client.send(new ListBucketsCommand({}))),
    ]);
    dynamo.destroy();
    s3Client.destroy();
    expect(outcomes).toEqual(['UnrecognizedClientException', 'InvalidAccessKeyId']);
  });

  it('refuse unsigned requests in each service’s own words', async () => {
    const dynamo = await send(
      `${process.env.DYNAMODB_SIGNED_ENDPOINT}/`,
      'POST',
      {
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        'content-type': 'application/x-amz-json-1.0',
      },
      '{}',
    );
    expect(dynamo.status).toBe(400);
    expect(JSON.parse(dynamo.body).__type).toMatch(/#MissingAuthenticationTokenException$/);
    const s3 = await send(`${process.env.AWS_ENDPOINT_URL_S3}/`, 'GET', {});
    expect(s3.status).toBe(403);
    expect(s3.body).toContain('<Code>AccessDenied</Code>');
  });

  it('answer the platform’s own key pair', async () => {
    const dynamo = new DynamoDBClient({ region: 'eu-central-1', endpoint: process.env.DYNAMODB_SIGNED_ENDPOINT });
    expect(await failure(dynamo.send(new ListTablesCommand({})))).toBe('answered');
    dynamo.destroy();
    expect(await failure(s3.send(new ListBucketsCommand({})))).toBe('answered');
  });

  it('refuse x-amz- headers a presigned link did not sign (no copy from another bucket through an upload link)', async () => {
    const mine = `${CUSTOMER_BUCKET_PREFIX}t-${randomBytes(6).toString('hex')}`;
    const theirs = `${CUSTOMER_BUCKET_PREFIX}t-${randomBytes(6).toString('hex')}`;
    await Promise.all([storage().createBucket(mine), storage().createBucket(theirs)]);
    await s3.send(new PutObjectCommand({ Bucket: theirs, Key: 'secret.txt', Body: 'theirs' }));
    const link = await storage().presignPut({ name: mine, region: 'eu-central-1' }, 'upload.txt', {
      expiresIn: 300,
      contentType: 'text/plain',
      size: 2,
    });
    const copied = await send(
      link,
      'PUT',
      { 'content-type': 'text/plain', 'content-length': '2', 'x-amz-copy-source': `/${theirs}/secret.txt` },
      'hi',
    );
    expect(copied.status).toBe(403);
    expect(copied.body).toContain('<Code>AccessDenied</Code>');
    expect(copied.body).toContain('<HeadersNotSigned>x-amz-copy-source</HeadersNotSigned>');
    await expect(storage().headObject({ name: mine }, 'upload.txt')).rejects.toMatchObject({ name: 'NotFound' });
    // The link itself still works for what it signed.
    const uploaded = await send(link, 'PUT', { 'content-type': 'text/plain', 'content-length': '2' }, 'hi');
    expect(uploaded.status).toBe(200);
    expect((await storage().headObject({ name: mine }, 'upload.txt')).size).toBe(2);
  });

  it('answer a browser’s CORS preflight of a presigned link (it carries no signature of its own)', async () => {
    const name = `${CUSTOMER_BUCKET_PREFIX}t-${randomBytes(6).toString('hex')}`;
    await storage().createBucket(name);
    const link = await storage().presignPut({ name, region: 'eu-central-1' }, 'from-a-browser.txt', {
      expiresIn: 300,
      contentType: 'text/plain',
      size: 2,
    });
    const preflight = await send(link, 'OPTIONS', {
      origin: 'http://127.0.0.1:4173',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type',
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers['access-control-allow-origin']).toBeTruthy();
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT');
  });
});
