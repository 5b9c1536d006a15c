/**
 * Records the API Gateway HTTP API (payload 2.0) events the middleware unit tests are fed
 * (test/fixtures/apigw-events/*.json): real HTTP requests, sent with Node's own client to a server
 * that turns each into its event exactly as the local gateway does (lib/local/gateway.ts
 * `toEvent`), with the bearer token, request ids and times scrubbed. Run again after the gateway's
 * event shape changes: `npx tsx scripts/record-events.ts`.
 */
import { writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { toEvent } from '../lib/local/gateway';
import { groupFor } from '../lib/route-groups';

const out = join(__dirname, '..', 'test', 'fixtures', 'apigw-events');
const ORG = 'org_01J0000000000000000000000';
const TOKEN = 'Bearer <token>';

const samples: { name: string; method: string; path: string; headers?: Record<string, string>; body?: Buffer }[] = [
  {
    name: 'get-projects',
    method: 'GET',
    path: `/v1/orgs/${ORG}/projects?include=summary`,
    headers: { authorization: TOKEN },
  },
  { name: 'get-no-auth', method: 'GET', path: `/v1/orgs/${ORG}/projects` },
  {
    name: 'post-project-json',
    method: 'POST',
    path: `/v1/orgs/${ORG}/projects`,
    headers: { authorization: TOKEN, 'content-type': 'application/json', 'idempotency-key': 'k-1' },
    body: Buffer.from(JSON.stringify({ name: 'Site', slug: 'site', framework: 'static' })),
  },
  {
    name: 'post-project-bad-json',
    method: 'POST',
    path: `/v1/orgs/${ORG}/projects`,
    headers: { authorization: TOKEN, 'content-type': 'application/json' },
    body: Buffer.from('{"name": '),
  },
  {
    name: 'put-object-binary',
    method: 'PUT',
    path: `/v1/orgs/${ORG}/storage/buckets/b/objects/a.bin`,
    headers: { authorization: TOKEN, 'content-type': 'application/octet-stream' },
    body: Buffer.from([0, 1, 2, 254, 255]),
  },
  {
    name: 'malformed-path',
    method: 'GET',
    path: `/v1/orgs/${ORG}/projects/%E0%A4%A`,
    headers: { authorization: TOKEN },
  },
  {
    name: 'patch-project-if-match',
    method: 'PATCH',
    path: `/v1/orgs/${ORG}/projects/prj_1`,
    headers: { authorization: TOKEN, 'content-type': 'application/json', 'if-match': '"abc"' },
    body: Buffer.from(JSON.stringify({ name: 'Renamed' })),
  },
  {
    name: 'get-project-if-none-match',
    method: 'GET',
    path: `/v1/orgs/${ORG}/projects/prj_1`,
    headers: { authorization: TOKEN, 'if-none-match': '"abc"' },
  },
];

const groupOf = (path: string) => {
  const group = groupFor(path);
  if (!group) throw new Error(`no route group serves ${path}`);
  return group;
};

async function main() {
  let current = samples[0] as (typeof samples)[number];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = toEvent(req, Buffer.concat(chunks), groupOf(current.path.split('?')[0] ?? current.path));
      const scrubbed = {
        ...event,
        headers: { ...event.headers, host: 'localhost' },
        requestContext: { ...event.requestContext, requestId: 'recorded', time: 'recorded', timeEpoch: 0 },
      };
      writeFileSync(join(out, `${current.name}.json`), `${JSON.stringify(scrubbed, null, 2)}\n`);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  for (const sample of samples) {
    current = sample;
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: sample.method, path: sample.path, headers: sample.headers },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(sample.body);
    });
  }
  server.close();
}

void main();
