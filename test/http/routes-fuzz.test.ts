import { Agent, request } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { jsonSchemaOf } from '../../lib/openapi';
import type { Route } from '../../shared/kernel/http/route';
import { addMember } from '../../shared/kernel/identity/orgs';
import { deploy, startDeployments, upload, waitFinal } from '../deployments/helpers';
import { tarOfDir } from '../fixtures/tar';
import { TestPlatform } from '../helpers/platform';
import { allRoutes } from '../helpers/routes';
import {
  encode,
  fromSchema,
  type JsonSchema,
  mutated,
  ODD_KEYS,
  queryValue,
  RAW_BODIES,
  RAW_SEGMENTS,
  wild,
} from './fuzz-arbitraries';
import { seeds } from './fuzz-seeds';

/**
 * Every route of the route table, fuzzed (fast-check): path parameters (the ids of this file's
 * records, ids of the right shape, any text, segments that are not valid percent-encoding), query
 * strings (digits and what is not quite digits, enum members, odd text, prototype names) and
 * bodies (from the route's schema as JSON Schema, and anything else). Whatever arrives, the answer
 * is never a 5xx, and an error is the API's `{ error }`. The seed is fixed, so a run is
 * reproducible; FUZZ_SEED=<n> FUZZ_RUNS=<n> explore further. `npm test` runs 12 cases a route (about
 * 3,700 requests): the same every run, since the seed is fixed; more runs of one seed find nothing
 * a new seed wouldn't, so exploring is a matter of other seeds, not of a longer npm test.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

let p: TestPlatform;
let deployments: Awaited<ReturnType<typeof startDeployments>>;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
/** The ids a parameter of each name takes when it names a record of this file's organization. */
let known: Record<string, string[]>;
let bodySeeds: Record<string, unknown[]>;

beforeAll(async () => {
  p = await TestPlatform.start();
  deployments = await startDeployments();
  const org = `/v1/orgs/${p.org.orgId}`;
  const created = async (path: string, body: unknown) => {
    const res = await p.post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const slug = `fuzz-${Date.now().toString(36)}`;
  const project = (await created(`${org}/projects`, { name: 'Fuzz', slug, framework: 'static' })).project;
  // Never a parameter: the organization always holds something, so fuzzing its delete can't empty it.
  await created(`${org}/projects`, { name: 'Keeper', slug: `${slug}-keeper`, framework: 'static' });
  const database = (await created(`${org}/resources`, { type: 'database', name: `${slug}-db` })).resource;
  const bucket = (await created(`${org}/resources`, { type: 'bucket', name: `${slug}-files` })).resource;
  const env = await p.post(`${org}/projects/${project.projectId}/env`, {
    vars: [{ key: 'API_URL', value: 'https://api' }],
    targets: ['production'],
  });
  expect(env.status).toBeLessThan(300);
  const deployment = await deploy(p, project.projectId, tarOfDir(join(__dirname, '..', 'fixtures', 'static-site')));
  await waitFinal(p, deployment.deploymentId);
  // Another organization the owner administers: a transfer can reach it.
  const other = await p.newOrg();
  await addMember(other.org.orgId, p.owner.email, 'owner', 'Test owner');
  known = {
    orgId: [p.org.orgId],
    projectId: [project.projectId],
    database: [database.resourceId],
    bucket: [bucket.resourceId],
    type: ['database', 'bucket', 'repository'],
    key: ['API_URL', 'DB_PASSWORD'],
    indexName: ['byTeam', 'byN'],
    ruleId: ['rule-1'],
    deploymentId: [deployment.deploymentId],
  };
  bodySeeds = seeds({ otherOrgId: other.org.orgId, uploadId: await upload(p, project.projectId, Buffer.alloc(64)) });
});
afterAll(async () => {
  agent.destroy();
  await deployments?.close();
  await p?.close();
});

const PREFIX: Record<string, string> = {
  orgId: 'org_',
  projectId: 'prj_',
  resourceId: 'res_',
  deploymentId: 'dpl_',
};
const ULID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'.split('');

/** An id of the platform's shape (prefix + 26 base32 characters) that names nothing. */
const shapedId = (name: string) =>
  fc
    .array(fc.constantFrom(...ULID_ALPHABET), { minLength: 26, maxLength: 26 })
    .map((cs) => `${PREFIX[name] ?? ''}${cs.join('')}`);

/** The file's records a parameter can name on this route (a database's id on database routes…). */
function knownFor(name: string, route: Route): string[] {
  if (name !== 'resourceId') return known[name] ?? [];
  if (route.path.includes('/databases/')) return known.database ?? [];
  if (route.path.includes('/storage/')) return known.bucket ?? [];
  return [...(known.database ?? []), ...(known.bucket ?? [])];
}

/** A path segment for parameter `name` naming one of the file's records (or of its shape). */
function realSegment(name: string, route: Route): fc.Arbitrary<string> {
  const own = knownFor(name, route);
  return own.length ? fc.constantFrom(...own) : shapedId(name);
}

/** A path segment for parameter `name`, encoded as a client would (or raw, when it is the point). */
function oddSegment(name: string, route: Route): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: realSegment(name, route) },
    { weight: 2, arbitrary: shapedId(name) },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }).map(encode) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(2048)) },
  );
}

interface Sent {
  method: string;
  path: string;
  body?: string;
}

/** The query string: the route's declared parameters (from its schema) and a few it never declared. */
function queryOf(route: Route): fc.Arbitrary<string> {
  const props = route.query ? Object.entries(jsonSchemaOf(route.query, route.path).properties ?? {}) : [];
  const declared = props.map(([name, s]) =>
    fc.option(
      queryValue(s as JsonSchema).map((v) => `${name}=${encode(v)}`),
      { nil: undefined, freq: 2 },
    ),
  );
  const extra = fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    fc
      .tuple(fc.constantFrom(...ODD_KEYS, 'limit', 'cursor'), queryValue(undefined))
      .map(([k, v]) => `${encode(k)}=${encode(v)}`),
    fc.constantFrom('limit=1&limit=2', 'cursor=%zz', '%zz=1', 'a', '=', '&&'),
  );
  return fc.tuple(fc.tuple(...declared), extra).map(([d, e]) => [...d, e].filter(Boolean).join('&'));
}

/** The body: a valid one with a part changed, one of the route's schema, anything, not JSON at all. */
function bodyOf(route: Route): fc.Arbitrary<string | undefined> {
  const schema = route.body ? (jsonSchemaOf(route.body, route.path) as JsonSchema) : undefined;
  const json = (a: fc.Arbitrary<unknown>) => a.map((v) => JSON.stringify(v) ?? 'null');
  if (!schema) {
    return fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, json(wild), fc.constantFrom(...RAW_BODIES));
  }
  const own = bodySeeds[`${route.method} ${route.path}`] ?? [];
  const seeded = own.length
    ? [
        { weight: 2, arbitrary: json(fc.constantFrom(...own)) },
        { weight: 8, arbitrary: json(fc.constantFrom(...own).chain(mutated)) },
      ]
    : [];
  return fc.oneof(
    ...seeded,
    { weight: 6, arbitrary: json(fromSchema(schema)) },
    { weight: 1, arbitrary: json(wild) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
  );
}

/** A body the route takes as it is: one of its seeds, else one of its schema's shape. */
function plainBodyOf(route: Route): fc.Arbitrary<string | undefined> {
  const own = bodySeeds[`${route.method} ${route.path}`] ?? [];
  if (own.length) return fc.constantFrom(...own).map((v) => JSON.stringify(v));
  if (!route.body) return fc.constant(undefined);
  return fromSchema(jsonSchemaOf(route.body, route.path) as JsonSchema).map((v) => JSON.stringify(v) ?? 'null');
}

/**
 * A request with one part made odd (the path, the query or the body) and the others plain, so
 * that the odd part reaches the route's code; now and then all three at once.
 */
function requestOf(route: Route): fc.Arbitrary<Sent> {
  const path = (odd: boolean) =>
    fc.tuple(
      ...route.segments.map((s) => {
        if (!s.startsWith(':')) return fc.constant(s);
        return odd ? oddSegment(s.slice(1), route) : realSegment(s.slice(1), route);
      }),
    );
  const sent = (segments: string[], query: string, body: string | undefined): Sent => ({
    method: route.method,
    path: `/${segments.join('/')}${query ? `?${query}` : ''}`,
    body,
  });
  const none = fc.constant('');
  return fc
    .oneof(
      { weight: 2, arbitrary: fc.tuple(path(true), none, plainBodyOf(route)) },
      { weight: route.query ? 3 : 1, arbitrary: fc.tuple(path(false), queryOf(route), plainBodyOf(route)) },
      { weight: route.body ? 6 : 1, arbitrary: fc.tuple(path(false), none, bodyOf(route)) },
      { weight: 1, arbitrary: fc.tuple(path(true), queryOf(route), bodyOf(route)) },
    )
    .map(([segments, query, body]) => sent(segments, query, body));
}

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** Sent with http.request, so the path goes exactly as generated (fetch would normalize it). */
function send(sent: Sent): Promise<Answer> {
  const url = new URL(p.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: sent.method,
        path: sent.path,
        headers: {
          authorization: `Bearer ${p.owner.token}`,
          // A length even on GET and DELETE, where Node would otherwise send the body unframed.
          ...(sent.body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(sent.body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}

/** The catch-alls: a 5xx with one of these messages is never a deliberate answer. */
const CATCH_ALL = new Set(['Internal error', 'The backend request failed. Try again.']);

/**
 * What went wrong with an answer, or undefined: no 5xx but one the route documents as a deliberate
 * answer of its own (501 for what is not built yet), and errors in the API's `{ error }` shape.
 */
function problemWith(route: Route, answer: Answer): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const error = (body as { error?: unknown } | null | undefined)?.error;
  if (answer.status >= 500) {
    const deliberate =
      typeof error === 'string' && !CATCH_ALL.has(error) && route.errors?.[answer.status]?.includes(error);
    return deliberate ? undefined : `answered ${answer.status}`;
  }
  if (answer.status < 400) return undefined;
  return typeof error === 'string' && error !== '' ? undefined : `answered ${answer.status} without { error }`;
}

async function fuzz(route: Route): Promise<void> {
  await fc.assert(
    fc.asyncProperty(requestOf(route), async (sent) => {
      const answer = await send(sent);
      const problem = problemWith(route, answer);
      if (problem) {
        const body = sent.body === undefined ? '' : ` with body ${sent.body.slice(0, 500)}`;
        throw new Error(`${sent.method} ${sent.path.slice(0, 500)}${body} ${problem}: ${answer.text.slice(0, 500)}`);
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
}

/**
 * Routes that delete or move the file's records run last, so that the others meet the records;
 * the organization itself is never emptied (see the keeper project).
 */
const destructive = (r: Route) => r.method === 'DELETE' || r.path.endsWith('/transfer');
const routes = allRoutes().groups.flatMap((g) => g.routes.map((route) => ({ group: g.group, route })));
const chunks = [
  ...allRoutes().groups.map((g) => ({
    name: g.group,
    routes: g.routes.filter((r) => !destructive(r)),
  })),
  { name: 'deleting and moving', routes: routes.filter((r) => destructive(r.route)).map((r) => r.route) },
].filter((c) => c.routes.length > 0);

/**
 * Conditional reads over the whole table (issue 21), before anything is deleted: every GET that
 * answers 200 with JSON for the file's records carries an ETag and answers 304 to it (or, when the
 * answer changes by itself, a presigned link or a clock, 200 with another ETag).
 */
describe('conditional reads over the route table', () => {
  it('every GET that answers 200 with JSON answers 304 to its own ETag', async () => {
    const checked: string[] = [];
    for (const { route } of routes) {
      if (route.method !== 'GET' || route.access === 'public') continue;
      const path = `/${route.segments.map((s) => (s.startsWith(':') ? realSegmentNow(s.slice(1), route) : s)).join('/')}`;
      const first = await p.get(path, { record: false });
      if (first.status !== 200 || !(first.headers.get('content-type') ?? '').includes('json')) continue;
      const etag = first.headers.get('etag');
      expect([path, etag]).toEqual([path, expect.stringMatching(/^"[A-Za-z0-9_-]{27}"$/)]);
      const again = await p.get(path, { headers: { 'if-none-match': etag as string }, record: false });
      if (again.status === 200) expect([path, again.headers.get('etag')]).not.toEqual([path, etag]);
      else expect([path, again.status, again.text]).toEqual([path, 304, '']);
      checked.push(path);
    }
    expect(checked.length).toBeGreaterThan(40);
  });

  it('every write whose path has a GET answering 200 is 412 for an ETag it no longer has, and changes nothing', async () => {
    const checked: string[] = [];
    for (const { route } of routes) {
      if (!['PUT', 'PATCH', 'DELETE', 'POST'].includes(route.method) || route.access === 'public') continue;
      const path = `/${route.segments.map((s) => (s.startsWith(':') ? realSegmentNow(s.slice(1), route) : s)).join('/')}`;
      const before = await p.get(path, { record: false });
      if (before.status !== 200 || !(before.headers.get('content-type') ?? '').includes('json')) continue;
      const res = await p.call(route.method, path, { body: {}, headers: { 'if-match': '"stale"' }, record: false });
      expect([route.method, path, res.status]).toEqual([route.method, path, 412]);
      // Still there (a DELETE refused deleted nothing).
      expect([path, (await p.get(path, { record: false })).status]).toEqual([path, 200]);
      checked.push(`${route.method} ${path}`);
    }
    expect(checked.length).toBeGreaterThan(15);
  });
});

describe.each(chunks)('$name', ({ routes: chunk }) => {
  it(`answers no 5xx and errors as { error }, whatever the request (${chunk.length} routes)`, async () => {
    // Every route of the chunk is fuzzed even when one fails, and each failure is told.
    const failures: string[] = [];
    for (const route of chunk) {
      await fuzz(route).catch((err: Error) => failures.push(`${route.method} ${route.path}: ${err.message}`));
    }
    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  });
});

/** Every whole-number query parameter of the table (integer or number in its schema). */
const numericQuery = routes.flatMap(({ route }) => {
  const props = route.query ? Object.entries(jsonSchemaOf(route.query, route.path).properties ?? {}) : [];
  return props
    .filter(([, s]) => ['integer', 'number'].includes(String((s as JsonSchema).type)))
    .map(([name]) => ({ route, name, label: `${route.method} ${route.path}?${name}` }));
});

describe.each(numericQuery)('$label', ({ route, name }) => {
  it.each(['0x10', '1e2', '%20', '1.5', '-1'])(`is 400 for ${name}=%s (decimal digits only)`, async (value) => {
    const segments = route.segments.map((s) => (s.startsWith(':') ? realSegmentNow(s.slice(1), route) : s));
    const answer = await send({ method: route.method, path: `/${segments.join('/')}?${name}=${value}` });
    expect([answer.status, JSON.parse(answer.text).error]).toEqual([400, 'Invalid request']);
  });
});

/** The first of the file's records a parameter can name (for the deterministic checks). */
function realSegmentNow(name: string, route: Route): string {
  return knownFor(name, route)[0] ?? `${PREFIX[name] ?? ''}00000000000000000000000000`;
}
