import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createClient } from '../../client';
import { db } from '../../shared/kernel/store/client';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';

/**
 * Rate limits (issue 21): per organization and per API key, counted only for callers that passed
 * authentication, in memory and written to the table in the background; every counted answer
 * carries the IETF RateLimit header fields; a 429 carries Retry-After; 200 parallel reads let
 * exactly the budget through; a refused write changes nothing; other functions' counts are learnt.
 * Budgets are set small here through the environment (the platform's plans will set them).
 */
let p: TestPlatform;
const WINDOW = 10;

beforeAll(async () => {
  Object.assign(process.env, {
    RATE_LIMITS: 'on',
    RATE_LIMIT_ORG: '10',
    RATE_LIMIT_KEY: '5',
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
  });
  p = await TestPlatform.start();
});
afterAll(async () => {
  process.env.RATE_LIMITS = 'off';
  await p.close();
});

/** Waits for the start of a fresh window, so a burst falls in one. */
async function freshWindow() {
  const ms = WINDOW * 1000;
  await new Promise((r) => setTimeout(r, ms - (Date.now() % ms) + 50));
}

it('200 parallel reads: exactly the organization budget passes; the rest are 429 with Retry-After', async () => {
  const { org, owner } = await p.newOrg();
  await freshWindow();
  const answers = await Promise.all(
    Array.from({ length: 200 }, () => p.get(`/v1/orgs/${org.orgId}`, { token: owner.token, record: false })),
  );
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 429);
  expect(ok).toHaveLength(10);
  expect(refused).toHaveLength(190);
  expect(refused[0]?.body).toEqual({
    error: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/),
  });
  expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused[0]?.headers.get('ratelimit-remaining')).toBe('0');
  const remaining = ok.map((a) => Number(a.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
  expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(ok[0]?.headers.get('ratelimit-limit')).toBe('10');
  // Another organization's budget is its own.
  const other = await p.newOrg();
  expect((await p.get(`/v1/orgs/${other.org.orgId}`, { token: other.owner.token })).status).toBe(200);
});

it('callers refused by authentication spend nothing; errors of counted requests carry the headers', async () => {
  const { org, owner } = await p.newOrg();
  await freshWindow();
  for (let i = 0; i < 15; i++) {
    expect((await p.get(`/v1/orgs/${org.orgId}`, { token: 'not-a-token', record: false })).status).toBe(401);
  }
  const stranger = await p.newOrg();
  expect((await p.get(`/v1/orgs/${org.orgId}`, { token: stranger.owner.token, record: false })).status).toBe(404);
  for (let i = 0; i < 5; i++) {
    const unknownKey = `app_api_${'x'.repeat(30)}${i}`;
    expect((await p.get(`/v1/orgs/${org.orgId}`, { token: unknownKey, record: false })).status).toBe(401);
  }
  const missing = await p.get(`/v1/orgs/${org.orgId}/projects/prj_nothing`, { token: owner.token, record: false });
  expect(missing.status).toBe(404);
  expect(missing.headers.get('ratelimit-remaining')).toBe('9');
});

it("a key's own budget: writes are counted first, and a refused one changes nothing", async () => {
  const { org, owner } = await p.newOrg();
  const key = await p.apiKey(undefined, org.orgId);
  await freshWindow();
  const made: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await p.post(
      `/v1/orgs/${org.orgId}/projects`,
      { name: `P${i}`, slug: `rate-${Date.now().toString(36)}-${i}` },
      { token: key, record: false },
    );
    made.push(res.status);
    if (res.status === 429) expect(res.headers.get('ratelimit-limit')).toBe('5');
  }
  expect(made).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
  const projects = await p.get(`/v1/orgs/${org.orgId}/projects`, { token: owner.token, record: false });
  expect(projects.body.projects).toHaveLength(5);
});

it('builds have a lower budget of their own: deployment creation and redeploy', async () => {
  process.env.RATE_LIMIT_BUILDS = '2';
  try {
    const { org, owner } = await p.newOrg();
    const made = await p.post(
      `/v1/orgs/${org.orgId}/projects`,
      { name: 'Builds', slug: `builds-${Date.now().toString(36)}` },
      { token: owner.token, record: false },
    );
    const at = `/v1/orgs/${org.orgId}/projects/${made.body.project.projectId}/deployments`;
    // The builds' window is a minute: not at its very end.
    if (Date.now() % 60_000 > 55_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    // Counted before the body is read: a refused build spends its budget as a started one would.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await p.post(at, {}, { token: owner.token, record: false }));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 429]);
    expect(answers[1]?.headers.get('ratelimit-limit')).toBe('2');
    // Other writes of the organization still pass.
    expect(
      (await p.patch(`/v1/orgs/${org.orgId}`, { name: 'Still fine' }, { token: owner.token, record: false })).status,
    ).toBe(200);
  } finally {
    delete process.env.RATE_LIMIT_BUILDS;
  }
});

it("learns other functions' counts from the table, and writes its own there", async () => {
  const { org, owner } = await p.newOrg();
  await freshWindow();
  const key = { pk: `RATE#org#${org.orgId}#${Math.floor(Date.now() / 1000 / WINDOW)}`, sk: 'RATE' };
  // Eight requests another function counted in this window.
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: key,
      UpdateExpression: 'ADD n :n',
      ExpressionAttributeValues: { ':n': 8 },
    }),
  );
  const get = () => p.get(`/v1/orgs/${org.orgId}`, { token: owner.token, record: false });
  expect((await get()).status).toBe(200);
  // Its count written, the total read back (in the background).
  await new Promise((r) => setTimeout(r, 300));
  const next: number[] = [];
  for (let i = 0; i < 3; i++) next.push((await get()).status);
  expect(next).toEqual([200, 429, 429]);
  await new Promise((r) => setTimeout(r, 1200));
  await get();
  await new Promise((r) => setTimeout(r, 300));
  expect((await getItem<{ n: number }>(key, true))?.n).toBe(10);
});

it("the typed client hands every answer's budget to the caller (onBudget)", async () => {
  const { org, owner } = await p.newOrg();
  const seen: { limit: number; remaining: number; reset: number }[] = [];
  const api = createClient({ baseUrl: p.baseUrl, token: owner.token, onBudget: (b) => seen.push(b) });
  await api.getOrgsByOrgId({ orgId: org.orgId });
  await api.getOrgsByOrgId({ orgId: org.orgId });
  expect(seen).toHaveLength(2);
  for (const b of seen) {
    expect(b.limit).toBe(10);
    expect(b.remaining).toBeGreaterThanOrEqual(0);
    expect(b.remaining).toBeLessThan(10);
    expect(b.reset).toBeLessThanOrEqual(WINDOW);
  }
  // Within one window the second answer says one less (a new window starts again from the limit).
  const [a, b] = seen as [(typeof seen)[0], (typeof seen)[0]];
  if (b.reset <= a.reset) expect(b.remaining).toBe(a.remaining - 1);
});
