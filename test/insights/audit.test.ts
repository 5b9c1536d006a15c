import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handler as pagesHandler } from '../../functions/pages/handler';
import { type AuditEntry, writeAudit } from '../../shared/kernel/audit/audit';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';
import { storedAudit } from './helpers';

/** `GET /v1/orgs/:orgId/audit`: who changed what, newest first, filtered, paged; and the entries' writing. */
let p: TestPlatform;
let audit: string;

beforeAll(async () => {
  p = await TestPlatform.start();
  audit = `/v1/orgs/${p.org.orgId}/audit`;
});
afterAll(() => p.close());

const fav = (pageId: string) => `/v1/orgs/${p.org.orgId}/favorites/${pageId}`;

test('an owner reads the entries of writes, newest first, with their shape; reads are not audited', async () => {
  const created = await p.post(`/v1/orgs/${p.org.orgId}/pages`, { title: 'Audited', icon: null });
  expect(created.status).toBe(201);
  const pageId = created.body.page.pageId as string;
  expect((await p.patch(`/v1/orgs/${p.org.orgId}/pages/${pageId}`, { title: 'Renamed' })).status).toBe(200);
  expect((await p.get(`/v1/orgs/${p.org.orgId}/pages/${pageId}`)).status).toBe(200);
  const res = await p.get(`${audit}?target=${pageId}`);
  expect(res.status).toBe(200);
  expect(res.body.entries.map((e: { action: string }) => e.action)).toEqual(['pages.update', 'pages.create']);
  const all = await p.get(`${audit}?action=pages.`);
  expect(all.body.entries.map((e: { action: string }) => e.action)).toEqual(['pages.update', 'pages.create']);
  const [update, create] = all.body.entries;
  expect(create).toMatchObject({
    orgId: p.org.orgId,
    actor: { kind: 'user', id: p.owner.userId, email: p.owner.email.toLowerCase() },
    action: 'pages.create',
    route: 'POST /v1/orgs/:orgId/pages',
    target: { pageId },
    status: 201,
    fields: ['icon', 'title'],
  });
  expect(update).toMatchObject({ target: { pageId }, status: 200, fields: ['title'] });
  expect(Date.parse(update.at)).toBeGreaterThanOrEqual(Date.parse(create.at));
  expect(typeof create.requestId).toBe('string');
  expect(create.requestId).not.toBe(update.requestId);
});

test("a create's entry names the record it made: who created this key, webhook, project?", async () => {
  const key = await p.apiKey();
  const made = {
    credential: await p.post(`/v1/orgs/${p.org.orgId}/git-credentials`, { name: 'laptop', scopes: ['git:read'] }),
    webhook: await p.post(`/v1/orgs/${p.org.orgId}/webhooks`, {
      url: 'https://1.1.1.1/audited',
      events: ['issue.assigned'],
    }),
    project: await p.post(
      `/v1/orgs/${p.org.orgId}/projects`,
      { name: 'Audited', slug: `audited-${Date.now()}` },
      { token: key },
    ),
  };
  for (const res of Object.values(made)) expect(res.status).toBe(201);
  const ids = {
    credential: made.credential.body.credential.keyId as string,
    webhook: made.webhook.body.endpoint.endpointId as string,
    project: made.project.body.project.projectId as string,
  };
  const entryOf = async (id: string) => {
    const res = await p.get(`${audit}?target=${id}`);
    expect(res.body.entries).toHaveLength(1);
    return res.body.entries[0];
  };
  expect(await entryOf(ids.credential)).toMatchObject({
    action: 'git-credentials.create',
    actor: { kind: 'user', id: p.owner.userId },
    target: { keyId: ids.credential },
    status: 201,
  });
  expect(await entryOf(ids.webhook)).toMatchObject({ action: 'webhooks.create', target: { endpointId: ids.webhook } });
  expect(await entryOf(ids.project)).toMatchObject({
    action: 'projects.create',
    actor: { kind: 'api_key' },
    target: { projectId: ids.project },
  });
  // The id, never the secrets the creates answered once.
  const stored = JSON.stringify(await storedAudit(p.org.orgId));
  expect(stored).not.toContain(made.credential.body.password);
  expect(stored).not.toContain(made.webhook.body.secret);
});

test('refused writes are audited too (403, 404), with the key that made them', async () => {
  const viewer = await p.person('viewer');
  const refused = await p.post(`/v1/orgs/${p.org.orgId}/pages`, { title: 'No' }, { token: viewer.token });
  expect(refused.status).toBe(403);
  const key = await p.apiKey();
  expect((await p.delete(fav('pg_missing1'), { token: key })).status).toBe(404);
  const byViewer = await p.get(`${audit}?actor=${viewer.userId}`);
  expect(byViewer.body.entries).toHaveLength(1);
  expect(byViewer.body.entries[0]).toMatchObject({ action: 'pages.create', status: 403 });
  const byEmail = await p.get(`${audit}?actor=${encodeURIComponent(viewer.email.toUpperCase())}`);
  expect(byEmail.body.entries).toHaveLength(1);
  const byTarget = await p.get(`${audit}?target=pg_missing1`);
  expect(byTarget.body.entries).toHaveLength(1);
  expect(byTarget.body.entries[0].actor).toMatchObject({ kind: 'api_key', email: null });
  expect(byTarget.body.entries[0].status).toBe(404);
});

test('50 parallel writes leave 50 entries; pages of `limit` with a signed cursor go through them once', async () => {
  const ids = Array.from({ length: 50 }, (_, i) => `pg_par${i}`);
  const answers = await Promise.all(ids.map((id) => p.delete(fav(id))));
  expect(answers.every((a) => a.status === 404)).toBe(true);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q: string = `${audit}?action=favorites.delete&limit=20${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await p.get(q);
    expect(res.status).toBe(200);
    expect(res.body.entries.length).toBeLessThanOrEqual(20);
    for (const e of res.body.entries) seen.push(e.target.pageId);
    cursor = res.body.cursor;
    pages++;
  } while (cursor && pages < 10);
  expect(seen.filter((id) => id.startsWith('pg_par')).sort()).toEqual([...ids].sort());
});

test('`from`/`to` bound the entries; `from` after `to` is 400; bad cursors and limits are 400', async () => {
  const before = Date.now() - 1;
  expect((await p.delete(fav('pg_window'))).status).toBe(404);
  const after = Date.now() + 1;
  const inside = await p.get(`${audit}?from=${before}&to=${after}&target=pg_window`);
  expect(inside.body.entries).toHaveLength(1);
  const iso = await p.get(`${audit}?from=${new Date(before).toISOString()}&target=pg_window`);
  expect(iso.body.entries).toHaveLength(1);
  const outside = await p.get(`${audit}?to=${before - 60_000}&target=pg_window`);
  expect(outside.body.entries).toHaveLength(0);
  const reversed = await p.get(`${audit}?from=${after}&to=${before}`);
  expect(reversed.status).toBe(400);
  expect(reversed.body).toEqual({ error: '`from` is after `to`.' });
  expect((await p.get(`${audit}?cursor=abc.def`)).body).toEqual({
    error: 'Invalid page cursor. Run the request again.',
  });
  expect((await p.get(`${audit}?limit=0`)).status).toBe(400);
  expect((await p.get(`${audit}?limit=201`)).status).toBe(400);
  expect((await p.get(`${audit}?from=yesterday`)).status).toBe(400);
});

test('developers and viewers get 403; a key with org:write reads, one without it 403', async () => {
  const developer = await p.person('developer');
  const res = await p.get(audit, { token: developer.token });
  expect(res.status).toBe(403);
  expect(res.body).toEqual({ error: 'Only owners and admins can read the audit log.' });
  const admin = await p.person('admin');
  expect((await p.get(audit, { token: admin.token })).status).toBe(200);
  expect((await p.get(audit, { token: await p.apiKey(['org:read', 'org:write']) })).status).toBe(200);
  const readOnly = await p.get(audit, { token: await p.apiKey(['org:read']) });
  expect(readOnly.status).toBe(403);
  expect(readOnly.body).toEqual({ error: 'Missing scope org:write' });
});

test('an idempotent replay is not a second write: one entry', async () => {
  const count = async () => (await p.get(`${audit}?action=pages.create&limit=200`)).body.entries.length as number;
  const before = await count();
  const headers = { 'idempotency-key': `audit-${Date.now()}` };
  const first = await p.post(`/v1/orgs/${p.org.orgId}/pages`, { title: 'Once' }, { headers });
  const again = await p.post(`/v1/orgs/${p.org.orgId}/pages`, { title: 'Once' }, { headers });
  expect([first.status, again.status]).toEqual([201, 201]);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(await count()).toBe(before + 1);
});

test('the same request handled twice (a retried delivery) leaves one entry', async () => {
  const event = {
    version: '2.0',
    routeKey: 'ANY /v1/orgs/{orgId}/favorites/{proxy+}',
    rawPath: fav('pg_retried'),
    rawQueryString: '',
    headers: { authorization: `Bearer ${p.owner.token}`, 'user-agent': 'retry-test' },
    requestContext: {
      http: {
        method: 'DELETE',
        path: fav('pg_retried'),
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.9',
        userAgent: 'retry-test',
      },
      requestId: `retried-${Date.now()}`,
      timeEpoch: Date.now(),
    },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const context = { awsRequestId: 'lambda-1', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
  const first = await pagesHandler(event, { ...context });
  const second = await pagesHandler(event, { ...context, awsRequestId: 'lambda-2' } as Context);
  expect([first.statusCode, second.statusCode]).toEqual([404, 404]);
  const entries = (await storedAudit(p.org.orgId)).filter(
    (e) => (e.target as { pageId?: string }).pageId === 'pg_retried',
  );
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ ip: '203.0.113.9', userAgent: 'retry-test', status: 404 });
});

test('an entry written twice is stored once, and what goes with it moves once', async () => {
  const entry: AuditEntry = {
    orgId: p.org.orgId,
    at: Date.now(),
    actor: { kind: 'user', id: p.owner.userId, email: null },
    action: 'tests.write',
    route: 'POST /v1/tests',
    target: { testId: 'twice' },
    status: 201,
    requestId: `twice-${Date.now()}`,
    ip: null,
    userAgent: null,
    fields: [],
  };
  // A counter beside it, as the platform's totals go with a create's entry.
  const counter = { pk: `TESTCOUNTER#${entry.requestId}`, sk: 'N' };
  const also = [
    {
      Update: {
        TableName: TABLE(),
        Key: counter,
        UpdateExpression: 'ADD n :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ];
  expect(await writeAudit(entry, also)).toBe(true);
  expect(await writeAudit(entry, also)).toBe(false);
  const res = await p.get(`${audit}?action=tests.`);
  expect(res.body.entries).toHaveLength(1);
  expect((await getItem<{ n: number }>(counter, true))?.n).toBe(1);
});

test('an entry that cannot be written is tried again, then logged as audit_unwritten (ids only)', async () => {
  const lines: string[] = [];
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'info';
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const entry: AuditEntry = {
      orgId: p.org.orgId,
      at: Date.now(),
      actor: { kind: 'user', id: p.owner.userId, email: null },
      action: 'tests.unwritable',
      route: 'POST /v1/tests',
      target: {},
      status: 201,
      requestId: `unwritable-${Date.now()}`,
      ip: null,
      // Over DynamoDB's 400 KB item limit: every try fails.
      userAgent: `ua-${'x'.repeat(420_000)}`,
      fields: [],
    };
    expect(await writeAudit(entry)).toBe(false);
  } finally {
    spy.mockRestore();
    process.env.LOG_LEVEL = level;
  }
  const unwritten = lines.filter((l) => l.includes('"audit_unwritten"'));
  expect(unwritten).toHaveLength(1);
  expect(unwritten[0]).toContain('tests.unwritable');
  expect(unwritten[0]).not.toContain('xxxxxxxxxx');
  expect((await p.get(`${audit}?action=tests.unwritable`)).body.entries).toHaveLength(0);
});
