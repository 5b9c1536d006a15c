import type { Server } from 'node:http';
import { createGateway, listen } from '../../lib/local/gateway';

import { httpHandler } from '../../shared/kernel/http/handler';
import { created, route } from '../../shared/kernel/http/route';
import { TestPlatform } from '../helpers/platform';
import { createProject } from '../projects/fixtures';

/**
 * Idempotency keys (issue 21, as Stripe defines them), in the one middy stack: a retried write
 * runs once; a replay answers the kept response with `Idempotent-Replayed: true`; another body is
 * 422; a request still running is 409; a 5xx is not kept, so a retry runs again.
 */
let p: TestPlatform;
const projects = () => `/v1/orgs/${p.org.orgId}/projects`;
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
const uniqueKey = () => `key-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const countOf = async (slug: string) =>
  ((await p.get(projects())).body.projects as { slug: string }[]).filter((x) => x.slug === slug).length;

it('a retried create runs once: the same answer, marked replayed', async () => {
  const key = uniqueKey();
  const body = { name: 'Once', slug: `once-${Date.now().toString(36)}` };
  const first = await p.post(projects(), body, withKey(key));
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const again = await p.post(projects(), body, withKey(key));
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
  expect(await countOf(body.slug)).toBe(1);
  // Without the key, the same body is a new request (here: the slug is taken).
  expect((await p.post(projects(), body)).status).toBe(409);
});

it('the same key with another body is 422; with another route too', async () => {
  const key = uniqueKey();
  const slug = `mismatch-${Date.now().toString(36)}`;
  expect((await p.post(projects(), { name: 'A', slug }, withKey(key))).status).toBe(201);
  const other = await p.post(projects(), { name: 'B', slug }, withKey(key));
  expect(other.status).toBe(422);
  expect(other.body).toEqual({ error: 'This idempotency key was used with another request.' });
  const project = await createProject(p);
  const patched = await p.patch(`${projects()}/${project.projectId}`, { name: 'A' }, withKey(key));
  expect(patched.status).toBe(422);
});

it('20 parallel identical requests: one effect; the others replay or are told it is in progress', async () => {
  const key = uniqueKey();
  const body = { name: 'Parallel', slug: `parallel-${Date.now().toString(36)}` };
  const answers = await Promise.all(Array.from({ length: 20 }, () => p.post(projects(), body, withKey(key))));
  const statuses = answers.map((a) => a.status);
  expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
  expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
  for (const a of answers.filter((x) => x.status === 409)) {
    expect(a.body).toEqual({ error: 'A request with this idempotency key is in progress.' });
  }
  const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.project.projectId));
  expect(ids.size).toBe(1);
  expect(await countOf(body.slug)).toBe(1);
  // Settled: every later try replays.
  const later = await p.post(projects(), body, withKey(key));
  expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
});

it('an error below 500 is kept and replayed; keys are per caller; a key over 255 characters is 400', async () => {
  const key = uniqueKey();
  const missing = await p.patch(`${projects()}/prj_nothing`, { name: 'x' }, withKey(key));
  expect(missing.status).toBe(404);
  const again = await p.patch(`${projects()}/prj_nothing`, { name: 'x' }, withKey(key));
  expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([404, 'true']);
  // Another caller's same key is its own.
  const admin = await p.person('admin');
  const theirs = await p.patch(`${projects()}/prj_nothing`, { name: 'x' }, { ...withKey(key), token: admin.token });
  expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  const long = await p.post(projects(), { name: 'L', slug: 'long-key' }, withKey('k'.repeat(256)));
  expect(long.status).toBe(400);
  expect(long.body).toEqual({ error: 'Idempotency-Key is at most 255 characters.' });
  // Reads ignore it.
  const read = await p.get(projects(), withKey(key));
  expect([read.status, read.headers.get('idempotent-replayed')]).toEqual([200, null]);
});

it('an empty or blank key is 400 and does nothing; so is one over 255 characters', async () => {
  const slug = `blank-${Date.now().toString(36)}`;
  for (const key of ['', '   ', '\t']) {
    const res = await p.post(projects(), { name: 'Blank', slug }, withKey(key));
    expect([JSON.stringify(key), res.status, res.body]).toEqual([
      JSON.stringify(key),
      400,
      { error: 'Idempotency-Key must not be empty.' },
    ]);
  }
  const long = await p.post(projects(), { name: 'Long', slug }, withKey('k'.repeat(256)));
  expect([long.status, long.body]).toEqual([400, { error: 'Idempotency-Key is at most 255 characters.' }]);
  expect(await countOf(slug)).toBe(0);
  // 255 is the most, and it works.
  expect((await p.post(projects(), { name: 'Longest', slug }, withKey('k'.repeat(255)))).status).toBe(201);
});

describe('a 5xx is not kept', () => {
  let server: Server;
  let base: string;
  let calls = 0;
  beforeAll(async () => {
    // A route of its own on the same stack: it fails once with a 500, then creates.
    const routes = [
      route({
        method: 'POST',
        path: '/v1/probe',
        access: 'token',
        run: async () => {
          calls++;
          if (calls === 1) throw new Error('a failure of the platform');
          return created({ call: calls });
        },
      }),
    ];
    server = createGateway({
      groups: [{ name: 'probe', prefixes: ['/v1/probe'], needs: ['table'] }],
      load: async () => httpHandler(routes) as never,
    });
    base = `http://127.0.0.1:${await listen(server, 0)}`;
  });
  afterAll(() => server.close());

  it('a retry after a 500 runs again, and its success is what later tries replay', async () => {
    const key = uniqueKey();
    const send = () =>
      fetch(`${base}/v1/probe`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.owner.token}`, 'idempotency-key': key },
      });
    expect((await send()).status).toBe(500);
    const second = await send();
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual({ call: 2 });
    const third = await send();
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(await third.json()).toEqual({ call: 2 });
    expect(calls).toBe(2);
  });
});
