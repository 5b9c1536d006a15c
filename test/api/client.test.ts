import { ApiError, type Client, createClient } from '../../client';
import { freePort } from '../../shared/kernel/net/free-port';
import { TestPlatform } from '../helpers/platform';

let p: TestPlatform;
let api: Client;

beforeAll(async () => {
  p = await TestPlatform.start();
  api = createClient({ baseUrl: p.baseUrl, token: p.owner.token });
});
afterAll(async () => {
  await p?.close();
});

describe('against the local platform', () => {
  it('calls routes with their typed inputs and answers their bodies', async () => {
    expect(await api.getHealth()).toMatchObject({ ok: true });
    const me = (await api.getMe()) as { me: { orgs: { orgId: string }[] } };
    expect(me.me.orgs.map((o) => o.orgId)).toEqual([p.org.orgId]);
    const slug = `client-${Date.now().toString(36)}`;
    const created = (await api.postProjects({
      orgId: p.org.orgId,
      body: { name: 'Client', slug, framework: 'static' },
    })) as { project: { projectId: string }; deployment: null };
    expect(created.deployment).toBeNull();
    const list = (await api.getProjects({ orgId: p.org.orgId, include: 'summary' })) as {
      projects: { slug: string }[];
    };
    expect(list.projects.map((x) => x.slug)).toContain(slug);
    const projectId = created.project.projectId;
    await api.putProjectsEnvByKey({
      orgId: p.org.orgId,
      projectId,
      key: 'PLAIN_VALUE',
      body: { value: 'v', targets: ['preview'], sensitive: false },
    });
    expect(await api.getProjectsEnv({ orgId: p.org.orgId, projectId })).toMatchObject({
      vars: [{ key: 'PLAIN_VALUE', value: 'v', targets: ['preview'], sensitive: false }],
    });
    // 204: no body.
    expect(await api.deleteProjectsEnvByKey({ orgId: p.org.orgId, projectId, key: 'PLAIN_VALUE' })).toBeUndefined();
  });

  it("throws ApiError with the status and the API's message, validation issues included", async () => {
    const taken = await api
      .postProjects({ orgId: p.org.orgId, body: { name: 'X', slug: 'dup-slug' } })
      .then(() => api.postProjects({ orgId: p.org.orgId, body: { name: 'X', slug: 'dup-slug' } }))
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ApiError);
    expect(taken).toMatchObject({ status: 409, message: 'A project with this slug exists.', issues: [] });

    const invalid = await api.postProjects({ orgId: p.org.orgId, body: { name: '', slug: 'x' } }).catch((e) => e);
    expect(invalid).toMatchObject({ status: 400, message: 'Invalid request' });
    expect((invalid as ApiError).issues.map((i) => i.path).sort()).toEqual(['name', 'slug']);

    const anonymous = createClient({ baseUrl: p.baseUrl });
    await expect(anonymous.getMe()).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
  });

  it('a platform that does not answer is an ApiError too (status 0), never a raw network error', async () => {
    const port = await freePort();
    const nowhere = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't' });
    const err = await nowhere.getMe().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, message: `Couldn't reach http://127.0.0.1:${port}: ECONNREFUSED` });
  });
});

describe('retries', () => {
  /** A network of scripted answers: each call takes the next (an Error is no answer at all). */
  function scripted(answers: (Response | Error)[]) {
    const calls: { method: string; key: string | undefined }[] = [];
    const fetchFn = (async (_url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      calls.push({ method: init.method as string, key: headers['idempotency-key'] });
      const next = answers.shift();
      if (!next || next instanceof Error) throw next ?? new Error('no more answers');
      return next;
    }) as unknown as typeof fetch;
    return { calls, fetchFn };
  }
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

  it('a write keeps one idempotency key across tries after no answer, a 5xx and a 409 in progress', async () => {
    const net = scripted([
      new TypeError('fetch failed'),
      json(503, { error: 'Unavailable' }, { 'retry-after': '0' }),
      json(409, { error: 'A request with this idempotency key is in progress.' }, { 'retry-after': '0' }),
      json(201, { project: { projectId: 'prj_1' } }),
    ]);
    const api = createClient({ baseUrl: 'http://api.test', fetch: net.fetchFn, retries: 3 });
    const out = await api.postProjects({ orgId: 'org_1', body: { name: 'Shop', slug: 'shop' } } as never);
    expect(out).toEqual({ project: { projectId: 'prj_1' } });
    expect(net.calls).toHaveLength(4);
    expect(new Set(net.calls.map((c) => c.key)).size).toBe(1);
    expect(net.calls[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('honours Retry-After of a 429; gives up after its tries; never retries other 4xx; reads carry no key', async () => {
    const slow = scripted([
      json(429, { error: 'Too many requests. Try again in 1 seconds.' }, { 'retry-after': '1' }),
      json(200, { me: {} }),
    ]);
    const started = Date.now();
    await createClient({ baseUrl: 'http://api.test', fetch: slow.fetchFn }).getMe();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(slow.calls.map((c) => c.key)).toEqual([undefined, undefined]);

    const down = scripted([json(500, { error: 'Internal error' }), json(500, { error: 'Internal error' })]);
    await expect(
      createClient({ baseUrl: 'http://api.test', fetch: down.fetchFn, retries: 1 }).postProjects({
        orgId: 'org_1',
        body: { name: 'x', slug: 'x' },
      } as never),
    ).rejects.toMatchObject({ status: 500, message: 'Internal error' });
    expect(down.calls).toHaveLength(2);

    const refused = scripted([json(409, { error: 'A project with this slug exists.' })]);
    await expect(
      createClient({ baseUrl: 'http://api.test', fetch: refused.fetchFn }).postProjects({
        orgId: 'org_1',
        body: { name: 'x', slug: 'x' },
      } as never),
    ).rejects.toBeInstanceOf(ApiError);
    expect(refused.calls).toHaveLength(1);
  });
});
