import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { entryOf, routeGroups } from '../../lib/route-groups';
import { bundleFile, DIST } from '../../scripts/build';
import { TestPlatform } from '../helpers/platform';

/**
 * A Lambda bundle at work, as AWS runs it: built as `npm run build` and the stack build it (code
 * splitting, the SDK's barrels narrowed, the start in one chunk: lib/bundle.ts), imported by a
 * fresh node process with PLATFORM_TARGET=aws, and called with API Gateway's event. The AWS
 * adapters talk to this run's DynamoDB Local and S3 server through the SDK's endpoint variables.
 * What it proves: the chunks link (every name one module, the lazily loaded route modules and SDK
 * clients found), and the answers are the route's.
 */
const run = promisify(execFile);

const RUNNER = [
  'const m = await import(process.env.BUNDLE);',
  "const r = await m.handler(JSON.parse(process.env.EVENT), { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 30000 });",
  "process.stdout.write('\\n' + JSON.stringify(r));",
].join('\n');

const event = (method: string, path: string, token: string, body?: unknown) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: path,
  rawQueryString: '',
  headers: { authorization: `Bearer ${token}`, host: 'api.example.test', 'content-type': 'application/json' },
  requestContext: {
    accountId: 'test',
    apiId: 'test',
    domainName: 'api.example.test',
    domainPrefix: 'api',
    http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'bundle-test' },
    requestId: `bundle-test-${Date.now()}`,
    routeKey: '$default',
    stage: '$default',
    time: new Date().toUTCString(),
    timeEpoch: Date.now(),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
  isBase64Encoded: false,
});

async function invokeBundle(group: string, e: ReturnType<typeof event>) {
  const g = routeGroups.find((x) => x.name === group);
  if (!g) throw new Error(`no group ${group}`);
  const b = await bundleFile(`run-${group}`, entryOf(g), join(DIST, 'bundle-runs', group, 'index.mjs'));
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', RUNNER], {
    env: {
      ...process.env,
      PLATFORM_TARGET: 'aws',
      BUNDLE: pathToFileURL(b.outfile).href,
      EVENT: JSON.stringify(e),
      LOG_LEVEL: 'silent',
    },
    timeout: 30_000,
  });
  const result = JSON.parse(stdout.trim().split('\n').pop() as string) as { statusCode: number; body?: string };
  return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
}

let platform: TestPlatform;
beforeAll(async () => {
  platform = await TestPlatform.start();
});
afterAll(() => platform.close());

it("a read through a bundle: GET /v1/orgs/:orgId answers the organization, as the gateway's handler does", async () => {
  const key = await platform.apiKey(['org:read']);
  const path = `/v1/orgs/${platform.org.orgId}`;
  const viaBundle = await invokeBundle('orgs', event('GET', path, key));
  const viaGateway = await platform.get(path, { token: key });
  expect(viaBundle.status).toBe(200);
  expect(viaBundle.body.org.orgId).toBe(platform.org.orgId);
  expect(viaBundle.body).toEqual(viaGateway.body);
}, 60_000);

it('a write that loads an SDK client later: a bucket upload link from the storage bundle (S3 presigner)', async () => {
  const key = await platform.apiKey();
  const created = await platform.post(
    `/v1/orgs/${platform.org.orgId}/resources`,
    { type: 'bucket', name: `bundle-run-${Date.now().toString(36)}` },
    { token: key },
  );
  expect(created.status).toBe(201);
  const bucketId = created.body.resource.resourceId as string;
  const res = await invokeBundle(
    'storage',
    event('POST', `/v1/orgs/${platform.org.orgId}/storage/${bucketId}/uploads`, key, {
      files: [{ key: 'hello.txt', contentType: 'text/plain', size: 5 }],
    }),
  );
  expect(res.status).toBe(200);
  expect(res.body.uploads).toHaveLength(1);
  // Signed by the S3 client the bundle loaded with this route (not at start): the link works.
  const put = await fetch(res.body.uploads[0].url, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    body: 'hello',
  });
  expect(put.status).toBe(200);
}, 60_000);
