import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { NOT_OPERATOR } from '../../shared/kernel/identity/operators';
import { createOrg } from '../../shared/kernel/identity/orgs';
import { PLATFORM_ADMIN_MESSAGES } from '../../shared/kernel/plans/messages';
import { db } from '../../shared/kernel/store/client';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';
import { until } from '../helpers/until';
import { type Operators, operators } from './helpers';

/**
 * Platform administration (`/v1/platform`): operators only (owners and admins of the platform
 * organization and its agent keys); organizations' plans and suspension; the registry of regions
 * and locations behind `GET /v1/locations`; plans, whose rate-limit budgets are enforced; the model
 * catalog; mail usage with the account's quota. The catalogs are the platform's, shared by every
 * test file of a run: this file adds entries of its own (ids stamped) and leaves the seeded ones
 * as they are.
 */
let p: TestPlatform;
let ops: Operators;
const stamp = `${process.pid.toString(36)}-${Date.now().toString(36)}`;

beforeAll(async () => {
  p = await TestPlatform.start();
  ops = await operators(p);
});
afterAll(() => p.close());

const asOwner = () => ({ token: ops.owner.token });

describe('who may call', () => {
  // Three items each: jest hands a test with more parameters than its row's items a `done` callback.
  const routes: [string, string, unknown][] = [
    ['GET', '/v1/platform/orgs', undefined],
    ['PATCH', '/v1/platform/orgs/org_nothing', { status: 'active' }],
    ['GET', '/v1/platform/mail/usage', undefined],
    ['GET', '/v1/platform/regions', undefined],
    ['PUT', '/v1/platform/regions/nowhere-1', { enabled: true }],
    ['PUT', '/v1/platform/locations/nowhere', { enabled: true }],
    ['GET', '/v1/platform/plans', undefined],
    ['PUT', '/v1/platform/plans/nothing', { name: 'Nothing' }],
    ['GET', '/v1/platform/models', undefined],
    ['PUT', '/v1/platform/models/nothing', { enabled: false }],
  ];

  it.each(routes)(
    '%s %s: a customer owner, a platform developer and a platform API key get 403',
    async (method, path, body) => {
      for (const token of [p.owner.token, ops.developer.token, ops.apiKey]) {
        const res = await p.call(method, path, { token, body });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: NOT_OPERATOR });
      }
    },
  );

  it("the platform organization's owner, an admin and an agent key get 200", async () => {
    for (const token of [ops.owner.token, ops.admin.token, ops.agentKey]) {
      const res = await p.get('/v1/platform/plans', { token });
      expect(res.status).toBe(200);
    }
  });
});

describe('organizations', () => {
  it('lists every organization with plan, status and counts; q, limit and a signed cursor', async () => {
    const orgs = [];
    // One after the other: the list is in id order, and ids follow time.
    for (const x of ['a', 'b', 'c']) {
      orgs.push(await createOrg({ slug: `plt-${stamp}-${x}`, name: `Listed ${x.toUpperCase()}`, kind: 'customer' }));
    }
    await p.person('developer', orgs[0]?.orgId);
    await putRecord(orgs[0]?.orgId as string, 'PRJ#prj_counted', { projectId: 'prj_counted' });

    const first = await p.get(`/v1/platform/orgs?q=PLT-${stamp}&limit=2`, asOwner());
    expect(first.status).toBe(200);
    expect(first.body.organizations.map((o: { slug: string }) => o.slug)).toEqual([`plt-${stamp}-a`, `plt-${stamp}-b`]);
    expect(first.body.organizations[0]).toEqual({
      orgId: orgs[0]?.orgId,
      slug: `plt-${stamp}-a`,
      name: 'Listed A',
      kind: 'customer',
      status: 'active',
      plan: null,
      counts: { members: 1, projects: 1, resources: 0 },
      createdAt: expect.any(Number),
      updatedAt: null,
      version: 1,
    });
    expect(first.body.cursor).toEqual(expect.any(String));
    const second = await p.get(`/v1/platform/orgs?q=plt-${stamp}&limit=2&cursor=${first.body.cursor}`, asOwner());
    expect(second.body.organizations.map((o: { slug: string }) => o.slug)).toEqual([`plt-${stamp}-c`]);
    expect(second.body.cursor).toBeNull();

    // By name too; the whole list without q.
    const byName = await p.get(`/v1/platform/orgs?q=${encodeURIComponent('listed b')}&limit=200`, asOwner());
    expect(byName.body.organizations.map((o: { orgId: string }) => o.orgId)).toContain(orgs[1]?.orgId);
    const all = await p.get('/v1/platform/orgs?limit=1', { token: ops.agentKey });
    expect(all.body.organizations).toHaveLength(1);
    expect(all.body.cursor).toEqual(expect.any(String));
  });

  it('refuses a hand-made cursor, a cursor of another q and a limit that is not decimal digits', async () => {
    const made = await p.get('/v1/platform/orgs?cursor=eyJwayI6Ik9SRyJ9.c2ln', asOwner());
    expect(made.status).toBe(400);
    expect(made.body).toEqual({ error: INVALID_CURSOR });
    const page = await p.get('/v1/platform/orgs?limit=1', asOwner());
    const other = await p.get(`/v1/platform/orgs?q=x&cursor=${page.body.cursor}`, asOwner());
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: INVALID_CURSOR });
    expect((await p.get('/v1/platform/orgs?limit=0x10', asOwner())).status).toBe(400);
    expect((await p.get('/v1/platform/orgs?limit=0', asOwner())).status).toBe(400);
  });

  it("sets an organization's plan; an unknown plan is 400, an unknown organization 404, a stale version 409", async () => {
    const { org } = await p.newOrg();
    const set = await p.patch(`/v1/platform/orgs/${org.orgId}`, { planId: 'pro', ifVersion: 1 }, asOwner());
    expect(set.status).toBe(200);
    expect(set.body.organization).toMatchObject({ orgId: org.orgId, plan: { id: 'pro', name: 'Pro' }, version: 2 });

    const unknown = await p.patch(`/v1/platform/orgs/${org.orgId}`, { planId: 'gold-nope' }, asOwner());
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.unknownPlan('gold-nope') });
    const missing = await p.patch('/v1/platform/orgs/org_nothing', { planId: 'pro' }, asOwner());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Organization not found' });
    const stale = await p.patch(`/v1/platform/orgs/${org.orgId}`, { planId: null, ifVersion: 1 }, asOwner());
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.orgStale });
    const empty = await p.patch(`/v1/platform/orgs/${org.orgId}`, {}, asOwner());
    expect(empty.status).toBe(400);
    const bad = await p.patch(`/v1/platform/orgs/${org.orgId}`, { status: 'closed' }, asOwner());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid request');

    const cleared = await p.patch(`/v1/platform/orgs/${org.orgId}`, { planId: null, ifVersion: 2 }, asOwner());
    expect(cleared.body.organization).toMatchObject({ plan: null, version: 3 });
  });

  it("a suspended organization's writes are 403, its reads work; lifting it lets writes through", async () => {
    const { org, owner } = await p.newOrg();
    const suspended = await p.patch(`/v1/platform/orgs/${org.orgId}`, { status: 'suspended' }, asOwner());
    expect(suspended.status).toBe(200);
    expect(suspended.body.organization.status).toBe('suspended');

    const write = await p.patch(`/v1/orgs/${org.orgId}`, { name: 'Renamed' }, { token: owner.token });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.suspended });
    const create = await p.post(
      `/v1/orgs/${org.orgId}/projects`,
      { name: 'Nope', slug: `nope-${stamp}` },
      { token: owner.token },
    );
    expect(create.status).toBe(403);
    const read = await p.get(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.org.name).toBe('Test organization');

    const listed = await p.get(`/v1/platform/orgs?q=${org.slug}`, asOwner());
    expect(listed.body.organizations[0].status).toBe('suspended');

    const lifted = await p.patch(`/v1/platform/orgs/${org.orgId}`, { status: 'active' }, asOwner());
    expect(lifted.body.organization.status).toBe('active');
    expect((await p.patch(`/v1/orgs/${org.orgId}`, { name: 'Renamed' }, { token: owner.token })).status).toBe(200);
  });

  it("the platform organization can't be suspended", async () => {
    const res = await p.patch(`/v1/platform/orgs/${ops.platform.orgId}`, { status: 'suspended' }, asOwner());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.platformOrg });
  });
});

describe('mail usage', () => {
  it("per organization, the mailboxes' counters of the month summed; the local engine's quota", async () => {
    const { org } = await p.newOrg();
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const day = now.toISOString().slice(0, 10);
    // Two mailboxes with counters as sends, deliveries and SES's feedback move them.
    for (const [id, sent, received, bounces] of [
      [`mbx_a${stamp}`, 5, 2, 1],
      [`mbx_b${stamp}`, 3, 4, 0],
    ] as const) {
      await putRecord(org.orgId, `MBX#${id}`, { mailboxId: id });
      await db.send(
        new PutCommand({
          TableName: TABLE(),
          Item: { pk: `MBX#${id}`, sk: `MONTH#${month}`, sent, received, bounces, complaints: bounces },
        }),
      );
      await db.send(new PutCommand({ TableName: TABLE(), Item: { pk: `MBX#${id}`, sk: `DAY#${day}`, sent: 1 } }));
    }
    const res = await p.get(`/v1/platform/mail/usage?q=${org.slug}`, { token: ops.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.month).toBe(month);
    expect(res.body.quota).toEqual({
      max24HourSend: 200,
      maxSendRate: 1,
      sentLast24Hours: expect.any(Number),
      sendingEnabled: true,
      productionAccess: false,
    });
    expect(res.body.organizations).toEqual([
      {
        orgId: org.orgId,
        slug: org.slug,
        name: org.name,
        mailboxes: 2,
        sent: 8,
        received: 6,
        bounces: 1,
        complaints: 1,
        sentToday: 2,
      },
    ]);
    expect(res.body.cursor).toBeNull();

    const quiet = await p.get(`/v1/platform/mail/usage?q=${p.org.slug}`, { token: ops.admin.token });
    expect(quiet.body.organizations[0]).toMatchObject({ mailboxes: 0, sent: 0, bounces: 0 });
    const bad = await p.get('/v1/platform/mail/usage?cursor=nope', { token: ops.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: INVALID_CURSOR });
  });
});

describe('regions and locations', () => {
  const region = `tst-${stamp}`;
  const location = `loc-${stamp}`;

  it('lists the regions seeded from LOCATIONS, each with its locations, and the default location', async () => {
    const res = await p.get('/v1/platform/regions', asOwner());
    expect(res.status).toBe(200);
    expect(res.body.defaultLocation).toBe('fra');
    const frankfurt = res.body.regions.find((r: { id: string }) => r.id === 'eu-central-1');
    expect(frankfurt).toMatchObject({ id: 'eu-central-1', name: 'Europe (Frankfurt)', enabled: true });
    expect(frankfurt.locations).toContainEqual({
      id: 'fra',
      name: 'Frankfurt',
      region: 'eu-central-1',
      enabled: true,
      default: true,
      version: expect.any(Number),
      updatedAt: expect.any(Number),
    });
  });

  it('adds a region and a location in it; GET /v1/locations lists the enabled ones only', async () => {
    const missing = await p.put(`/v1/platform/regions/${region}`, { enabled: true }, asOwner());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.regionNotFound });
    const added = await p.put(`/v1/platform/regions/${region}`, { name: 'Test region' }, asOwner());
    expect(added.status).toBe(201);
    expect(added.body.region).toMatchObject({
      id: region,
      name: 'Test region',
      enabled: true,
      version: 1,
      locations: [],
    });

    const unknownRegion = await p.put(
      `/v1/platform/locations/${location}`,
      { name: 'Test', region: 'mars-1' },
      asOwner(),
    );
    expect(unknownRegion.status).toBe(400);
    expect(unknownRegion.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.unknownRegion('mars-1') });
    const partial = await p.put(`/v1/platform/locations/${location}`, { enabled: true }, asOwner());
    expect(partial.status).toBe(404);
    expect(partial.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.locationNotFound });

    const loc = await p.put(`/v1/platform/locations/${location}`, { name: 'Test city', region }, asOwner());
    expect(loc.status).toBe(201);
    expect(loc.body.location).toEqual({
      id: location,
      name: 'Test city',
      region,
      enabled: true,
      default: false,
      version: 1,
      updatedAt: expect.any(Number),
    });
    const listed = await p.get('/v1/locations', { token: p.owner.token });
    expect(listed.body.locations).toContainEqual({ id: location, name: 'Test city', region, default: false });
    expect(listed.body.default).toBe('fra');
    // A project can be made there, and its deployments run in the location's region.
    const made = await p.post(`/v1/orgs/${p.org.orgId}/projects`, {
      name: 'There',
      slug: `there-${location}`,
      location,
    });
    expect(made.status).toBe(201);
    expect(made.body.project.location).toBe(location);

    // Disabling a region that an enabled location uses is 409; once the location is off, it goes.
    const inUse = await p.put(`/v1/platform/regions/${region}`, { enabled: false }, asOwner());
    expect(inUse.status).toBe(409);
    expect(inUse.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.regionInUse([location]) });
    const stale = await p.put(`/v1/platform/locations/${location}`, { enabled: false, ifVersion: 7 }, asOwner());
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.locationStale });
    const off = await p.put(`/v1/platform/locations/${location}`, { enabled: false, ifVersion: 1 }, asOwner());
    expect(off.status).toBe(200);
    expect(off.body.location).toMatchObject({ enabled: false, version: 2 });
    const hidden = await p.get('/v1/locations', { token: p.owner.token });
    expect(hidden.body.locations.map((l: { id: string }) => l.id)).not.toContain(location);
    // A disabled location takes no new project.
    const refused = await p.post(`/v1/orgs/${p.org.orgId}/projects`, { name: 'No', slug: `no-${location}`, location });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: `Unknown location: ${location}` });

    const disabled = await p.put(`/v1/platform/regions/${region}`, { enabled: false, name: 'Closed' }, asOwner());
    expect(disabled.status).toBe(200);
    expect(disabled.body.region).toMatchObject({ enabled: false, name: 'Closed', version: 2 });
    const onAgain = await p.put(`/v1/platform/locations/${location}`, { enabled: true }, asOwner());
    expect(onAgain.status).toBe(409);
    expect(onAgain.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.regionDisabled(region) });
  });

  it('a region disabled while a location in it is enabled: never both', async () => {
    const r = `race-${stamp}`;
    const l = `rloc-${stamp}`;
    expect((await p.put(`/v1/platform/regions/${r}`, { name: 'Race' }, asOwner())).status).toBe(201);
    expect(
      (await p.put(`/v1/platform/locations/${l}`, { name: 'Racer', region: r, enabled: false }, asOwner())).status,
    ).toBe(201);
    for (let round = 0; round < 5; round++) {
      await p.put(`/v1/platform/locations/${l}`, { enabled: false }, asOwner());
      await p.put(`/v1/platform/regions/${r}`, { enabled: true }, asOwner());
      const [region, location] = await Promise.all([
        p.put(`/v1/platform/regions/${r}`, { enabled: false }, asOwner()),
        p.put(`/v1/platform/locations/${l}`, { enabled: true }, asOwner()),
      ]);
      for (const res of [region, location]) expect([200, 409]).toContain(res.status);
      const after = await p.get('/v1/platform/regions', asOwner());
      const now = after.body.regions.find((x: { id: string }) => x.id === r);
      expect(now.enabled === false && now.locations[0].enabled === true).toBe(false);
    }
  });

  it('keeps one enabled default location', async () => {
    const noDefault = await p.put('/v1/platform/locations/fra', { default: false }, asOwner());
    expect(noDefault.status).toBe(400);
    expect(noDefault.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.keepDefault });
    const offDefault = await p.put('/v1/platform/locations/fra', { enabled: false }, asOwner());
    expect(offDefault.status).toBe(409);
    expect(offDefault.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.defaultDisabled });
    const disabledDefault = await p.put(
      `/v1/platform/locations/${location}`,
      { default: true, enabled: false },
      asOwner(),
    );
    expect(disabledDefault.status).toBe(400);
    expect(disabledDefault.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.defaultMustBeEnabled });
    const same = await p.put('/v1/platform/locations/fra', { default: true, name: 'Frankfurt' }, asOwner());
    expect(same.status).toBe(200);
    expect(same.body.location).toMatchObject({ id: 'fra', default: true, enabled: true });
    expect((await p.put('/v1/platform/regions/eu-central-1', { enabled: false }, asOwner())).status).toBe(409);
    expect((await p.put('/v1/platform/regions/Bad id', { name: 'x' }, asOwner())).status).toBe(400);
  });
});

describe('plans', () => {
  const plan = `tst-${stamp}`;

  it('lists the plans with their limits and which are enforced', async () => {
    const res = await p.get('/v1/platform/plans', { token: ops.agentKey });
    expect(res.status).toBe(200);
    expect(res.body.enforced).toEqual(['requests', 'keyRequests', 'builds', 'importGb']);
    expect(res.body.plans).toContainEqual({
      id: 'free',
      name: 'Free',
      limits: { requests: 600, keyRequests: 300, builds: 5, members: 5, projects: 3, mailPerDay: 100 },
      enforced: ['requests', 'keyRequests', 'builds'],
      version: expect.any(Number),
      updatedAt: expect.any(Number),
    });
  });

  it('adds a plan with a name and limits, changes it, and refuses what it cannot take', async () => {
    const missing = await p.put(`/v1/platform/plans/${plan}`, { name: 'Partial' }, asOwner());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.planNotFound });
    const added = await p.put(`/v1/platform/plans/${plan}`, { name: 'Test', limits: { projects: 2 } }, asOwner());
    expect(added.status).toBe(201);
    expect(added.body.plan).toMatchObject({
      id: plan,
      name: 'Test',
      limits: { projects: 2 },
      enforced: [],
      version: 1,
    });
    const unknownLimit = await p.put(`/v1/platform/plans/${plan}`, { limits: { seats: 3 } }, asOwner());
    expect(unknownLimit.status).toBe(400);
    const negative = await p.put(`/v1/platform/plans/${plan}`, { limits: { requests: -1 } }, asOwner());
    expect(negative.status).toBe(400);
    const stale = await p.put(`/v1/platform/plans/${plan}`, { name: 'Stale', ifVersion: 5 }, asOwner());
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.planStale });
    const changed = await p.put(`/v1/platform/plans/${plan}`, { limits: { requests: 50 }, ifVersion: 1 }, asOwner());
    expect(changed.status).toBe(200);
    expect(changed.body.plan).toMatchObject({
      name: 'Test',
      limits: { requests: 50 },
      enforced: ['requests'],
      version: 2,
    });
  });

  it("an organization's plan sets its RateLimit-Limit; one without a plan keeps the environment's", async () => {
    const tiny = `tiny-${stamp}`;
    expect(
      (await p.put(`/v1/platform/plans/${tiny}`, { name: 'Tiny', limits: { requests: 7 } }, asOwner())).status,
    ).toBe(201);
    const { org, owner } = await p.newOrg();
    const other = await p.newOrg();
    expect((await p.patch(`/v1/platform/orgs/${org.orgId}`, { planId: tiny }, asOwner())).status).toBe(200);
    process.env.RATE_LIMITS = 'on';
    try {
      // This container knows the plan at once or after its background read (at most a moment).
      const limited = await until(async () => {
        const res = await p.get(`/v1/orgs/${org.orgId}`, { token: owner.token });
        return res.headers.get('ratelimit-limit') === '7' && res;
      });
      expect(limited.status).toBe(200);
      const unplanned = await p.get(`/v1/orgs/${other.org.orgId}`, { token: other.owner.token });
      expect(unplanned.headers.get('ratelimit-limit')).toBe('3000');
    } finally {
      process.env.RATE_LIMITS = 'off';
    }
  });
});

describe('models', () => {
  const model = `model-${stamp}`;

  it('adds a model to the catalog, changes it, lists it; unknown ids are 404', async () => {
    const missing = await p.put(`/v1/platform/models/${model}`, { enabled: false }, asOwner());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.modelNotFound });
    const added = await p.put(`/v1/platform/models/${model}`, { name: 'Test model', provider: 'acme-ai' }, asOwner());
    expect(added.status).toBe(201);
    expect(added.body.model).toEqual({
      id: model,
      name: 'Test model',
      provider: 'acme-ai',
      enabled: true,
      version: 1,
      updatedAt: expect.any(Number),
    });
    const off = await p.put(`/v1/platform/models/${model}`, { enabled: false, ifVersion: 1 }, asOwner());
    expect(off.status).toBe(200);
    expect(off.body.model).toMatchObject({ enabled: false, version: 2, name: 'Test model' });
    const stale = await p.put(`/v1/platform/models/${model}`, { enabled: true, ifVersion: 1 }, asOwner());
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: PLATFORM_ADMIN_MESSAGES.modelStale });
    const blank = await p.put(`/v1/platform/models/${model}`, { name: '  ' }, asOwner());
    expect(blank.status).toBe(400);
    const listed = await p.get('/v1/platform/models', { token: ops.admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.models).toContainEqual(expect.objectContaining({ id: model, enabled: false }));
  });
});
