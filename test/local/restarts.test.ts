import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startDynamoLocal } from '../../lib/local/dynamodb';
import { newEngineCredentials, startS3 } from '../../lib/local/services';
import { type Engine, supervise } from '../../lib/local/supervise';
import { freePort } from '../../shared/kernel/net/free-port';
import { killWith, leftWith } from '../helpers/processes';

/**
 * The local platform's engines are watched as a process manager would watch them: killed, each is
 * started again on the same port and data folder (lib/local/supervise.ts), so a client that keeps
 * its endpoint works again within seconds, and every write it was told had succeeded is still there.
 */
const credentials = newEngineCredentials();
const said: string[] = [];
const gaveUp: string[] = [];
const options = { say: (line: string) => said.push(line), giveUp: (reason: string) => gaveUp.push(reason) };

/** Waits until `call` succeeds (the engine is back), trying for at most 60 s. */
async function eventually<T>(call: () => Promise<T>): Promise<T> {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const exited = (e: Engine) => new Promise((r) => e.process.once('exit', r));

/** Each test's engine folder: no process of an engine started on it (killed or restarted) outlives the file. */
const folders: string[] = [];
const folder = (prefix: string) => {
  const dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, prefix));
  folders.push(dir);
  return dir;
};
afterAll(async () => {
  const left = (await Promise.all(folders.map((dir) => leftWith(dir)))).flat();
  for (const dir of folders) killWith(dir);
  expect(left).toEqual([]);
});

it('DynamoDB Local killed is started again, and an acknowledged write is read back', async () => {
  const dbPath = folder('restart-dynamo-');
  const port = await freePort();
  const start = () => startDynamoLocal({ port, dbPath, credentials });
  const watched = supervise('DynamoDB Local', await start(), start, options);
  const client = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'local', credentials });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: 'kept',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    await client.send(new PutItemCommand({ TableName: 'kept', Item: { pk: { S: 'acknowledged' } } }));

    const first = watched.current();
    const gone = exited(first);
    first.process.kill('SIGKILL');
    await gone;

    const read = await eventually(() =>
      client.send(new GetItemCommand({ TableName: 'kept', Key: { pk: { S: 'acknowledged' } }, ConsistentRead: true })),
    );
    expect(read.Item).toEqual({ pk: { S: 'acknowledged' } });
    expect(watched.restarts()).toBe(1);
    expect(watched.current()).not.toBe(first);
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^DynamoDB Local stopped unexpectedly \(SIGKILL\); starting it again\.$/),
        expect.stringMatching(/^DynamoDB Local is running again \(\d+ ms\)\.$/),
      ]),
    );
    expect(gaveUp).toEqual([]);
  } finally {
    client.destroy();
    await watched.stop();
  }
}, 120_000);

it('the S3 server killed is started again with its objects', async () => {
  const directory = folder('restart-s3-');
  const port = await freePort();
  const start = () => startS3({ port, directory, buckets: ['kept'], credentials });
  const watched = supervise('The S3 server', await start(), start, options);
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'eu-central-1',
    forcePathStyle: true,
    credentials,
  });
  try {
    await client.send(new PutObjectCommand({ Bucket: 'kept', Key: 'a.txt', Body: 'acknowledged' }));
    const first = watched.current();
    const gone = exited(first);
    first.process.kill('SIGKILL');
    await gone;
    const read = await eventually(() => client.send(new GetObjectCommand({ Bucket: 'kept', Key: 'a.txt' })));
    expect(await read.Body?.transformToString()).toBe('acknowledged');
    expect(watched.restarts()).toBe(1);
  } finally {
    client.destroy();
    await watched.stop();
  }
}, 120_000);

it('an engine that keeps dying is given up on, with the reason', async () => {
  const directory = folder('restart-giveup-');
  const port = await freePort();
  const reasons: string[] = [];
  const start = () => startS3({ port, directory, buckets: [], credentials });
  const watched = supervise('The S3 server', await start(), start, {
    say: () => undefined,
    giveUp: (r) => reasons.push(r),
    maxRestarts: 1,
  });
  try {
    for (let i = 0; i < 2; i++) {
      const e = watched.current();
      const gone = exited(e);
      e.process.kill('SIGKILL');
      await gone;
      await eventually(async () => {
        if (reasons.length === 0 && watched.current() === e) throw new Error('not yet');
      });
    }
    expect(reasons).toEqual(['The S3 server stopped 2 times within a minute (last: SIGKILL)']);
    expect(watched.restarts()).toBe(1);
  } finally {
    await watched.stop();
  }
}, 120_000);
