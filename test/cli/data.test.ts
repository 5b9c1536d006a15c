import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestPlatform } from '../helpers/platform';
import { until } from '../helpers/until';
import { Cli } from './helpers';

/**
 * `db` and `bucket` on the local platform (embedded DynamoDB and S3), each command a child process: items
 * written, queried and scanned with filters, `--json` against the API's answer, tables at a fixed
 * width; a 50 MB file copied to a bucket and back through the presigned links, byte-equal.
 */
let p: TestPlatform;
let cli: Cli;
let key: string;
const stamp = Date.now().toString(36);
const db = `orders-${stamp}`;
const bucket = `files-${stamp}`;

const json = async (argv: string[]) => {
  const res = await cli.run([...argv, '--json']);
  expect({ argv, code: res.code, stderr: res.stderr }).toEqual({ argv, code: 0, stderr: '' });
  return JSON.parse(res.stdout);
};

const sha256 = (file: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => hash.update(d))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

beforeAll(async () => {
  p = await TestPlatform.start();
  key = await p.apiKey();
  cli = new Cli();
  expect((await cli.run(['login', '--url', p.baseUrl, '--token', key])).code).toBe(0);
});
afterAll(async () => {
  await p?.close();
});

describe('db', () => {
  it('create, put, get, query and scan with filters, replace, delete', async () => {
    const made = await json(['db', 'create', db, '--pk', 'customer', '--sk', 'placedAt:N']);
    expect(made.resource).toMatchObject({ name: db, type: 'database' });
    for (const [customer, placedAt, total, status] of [
      ['c1', 1, 120, 'open'],
      ['c1', 2, 40, 'paid'],
      ['c1', 3, 300, 'open'],
      ['c2', 1, 75, 'open'],
    ] as const) {
      const put = await cli.run(['db', 'put', db, '--item', JSON.stringify({ customer, placedAt, total, status })]);
      expect(put).toEqual({ code: 0, stdout: `Created the item in ${db}.\n`, stderr: '' });
    }
    const got = await cli.run(['db', 'get', db, '--key', '{"customer":"c1","placedAt":2}']);
    expect(JSON.parse(got.stdout)).toEqual({ customer: 'c1', placedAt: 2, total: 40, status: 'paid' });

    cli.columns = 50;
    const query = await cli.run(['db', 'query', db, '--pk', 'c1', '--sk', '>= 2', '--where', 'status = open']);
    expect(query.stdout).toMatchInlineSnapshot(`
"customer  placedAt  total  status
c1        3         300    open
1 item.
"
`);
    const scanned = await json(['db', 'scan', db, '--where', 'total > 100', '--where', 'status = open']);
    const api = await p.post(
      `/v1/orgs/${p.org.orgId}/databases/${made.resource.resourceId}/scan`,
      {
        limit: 100,
        filters: [
          { attribute: 'total', op: '>', value: { N: '100' } },
          { attribute: 'status', op: '=', value: { S: 'open' } },
        ],
      },
      { token: key },
    );
    expect(scanned.items).toEqual(api.body.items);
    expect(scanned.count).toBe(2);
    const any = await json(['db', 'scan', db, '--any', '--where', 'total between 70 80', '--where', 'status = paid']);
    expect(any.count).toBe(2);

    expect((await cli.run(['db', 'put', db, '--item', '{"customer":"c2","placedAt":1,"total":1}'])).code).toBe(1);
    const replaced = await cli.run([
      'db',
      'put',
      db,
      '--replace',
      '--item',
      '{"customer":"c2","placedAt":1,"total":80}',
    ]);
    expect(replaced.stdout).toBe(`Replaced the item in ${db}.\n`);
    expect((await cli.run(['db', 'delete', db, '--key', '{"customer":"c2","placedAt":1}'])).code).toBe(0);
    const list = await json(['db', 'list']);
    expect(list).toEqual((await p.get(`/v1/orgs/${p.org.orgId}/databases`, { token: key })).body);

    const bad = await cli.run(['db', 'scan', db, '--where', 'total ~ 3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: Can't read the filter total ~ 3/);
    expect((await cli.run(['db', 'get', db, '--key', 'nope'])).code).toBe(2);
  });

  it('indexes: add one, list them', async () => {
    const added = await cli.run(['db', 'index-create', db, 'by-status', '--pk', 'status']);
    expect(added).toEqual({ code: 0, stdout: `Added index by-status to ${db}.\n`, stderr: '' });
    cli.columns = 80;
    const indexes = await cli.run(['db', 'indexes', db]);
    expect(indexes.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^INDEX +KIND +PARTITION +SORT +PROJECTION +STATUS$/),
      expect.stringMatching(/^\(table\) +- +customer:S +placedAt:N +ALL +\S+/),
      expect.stringMatching(/^by-status +global +status:S +ALL/),
    ]);
    // The API removes an index only once it is built: wait for that first.
    await until(async () => {
      const t = (await json(['db', 'indexes', db])).table;
      return t.status === 'ACTIVE' && t.indexes.every((i: { status?: string }) => i.status === 'ACTIVE');
    });
    expect((await cli.run(['db', 'index-delete', db, 'by-status'])).stdout).toBe(
      `Removed index by-status from ${db}.\n`,
    );
    const after = await json(['db', 'indexes', db]);
    expect(
      after.table.indexes.filter(
        (i: { name: string; status?: string }) => i.name === 'by-status' && i.status !== 'DELETING',
      ),
    ).toEqual([]);
  });
});

describe('bucket', () => {
  it('cp of a 50 MB file up and down, byte-equal; ls; rm; settings', async () => {
    const made = await p.post(`/v1/orgs/${p.org.orgId}/resources`, { type: 'bucket', name: bucket }, { token: key });
    expect(made.status).toBe(201);
    const dir = mkdtempSync(join(tmpdir(), 'platform-cli-bucket-'));
    cli.cwd = dir;
    const file = join(dir, 'big.bin');
    writeFileSync(file, randomBytes(50 * 1024 * 1024));

    const up = await cli.run(['bucket', 'cp', 'big.bin', `${bucket}:backups/`]);
    expect(up.stderr).toBe('');
    expect(up.stdout).toMatch(
      new RegExp(`^Uploaded big\\.bin to ${bucket}:backups/big\\.bin \\(50\\.0 MB in [\\d.]+ s\\)\\.\\n$`),
    );
    const down = await cli.run(['bucket', 'cp', `${bucket}:backups/big.bin`, 'copy.bin'], { tty: true });
    expect(down.code).toBe(0);
    expect(statSync(join(dir, 'copy.bin')).size).toBe(50 * 1024 * 1024);
    expect(await sha256(join(dir, 'copy.bin'))).toBe(await sha256(file));
    // On a terminal, the progress line was drawn and cleared on stderr.
    const drawn = down.stderr.split('\r\u001b[K').filter(Boolean);
    for (const line of drawn)
      expect(line).toMatch(/^Downloading backups\/big\.bin: [\d.]+ [KMG]?B at [\d.]+ [KMG]?B\/s$/);
    expect(down.stderr.endsWith('\n')).toBe(false);

    expect(await json(['bucket', 'list'])).toEqual(
      (await p.get(`/v1/orgs/${p.org.orgId}/storage`, { token: key })).body,
    );
    const ls = await json(['bucket', 'ls', `${bucket}:backups/`]);
    expect(ls.files).toEqual([expect.objectContaining({ key: 'backups/big.bin', size: 50 * 1024 * 1024 })]);
    cli.columns = 60;
    expect((await cli.run(['bucket', 'ls', bucket])).stdout).toBe('SIZE  MODIFIED  NAME\n-     -         backups/\n');
    expect(await json(['bucket', 'settings', bucket, '--versioning', 'on'])).toMatchObject({ versioning: 'Enabled' });
    expect((await cli.run(['bucket', 'rm', `${bucket}:backups/big.bin`])).stdout).toBe(`Deleted 1 from ${bucket}.\n`);
    expect((await json(['bucket', 'ls', `${bucket}:backups/`])).files).toEqual([]);
    const both = await cli.run(['bucket', 'cp', 'big.bin', 'other.bin']);
    expect(both.code).toBe(2);
  });
});
