import { CreateTableCommand, DeleteTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { TestPlatform } from '../helpers/platform';
import { putRecord, someId } from '../helpers/records';
import { type Db, dynamo, newDatabase, seed } from './helpers';

/** The database itself: list, description, metrics, settings, tags, delete. */
let p: TestPlatform;

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

async function failedDatabase(orgId = p.org.orgId): Promise<string> {
  const resourceId = someId('res_');
  await putRecord(orgId, `RES#database#${resourceId}`, {
    resourceId,
    type: 'database',
    name: `failed-${resourceId.slice(-6)}`,
    status: 'error',
    error: 'LimitExceededException: too many tables',
    createdAt: Date.now(),
    region: 'eu-central-1',
    orgId,
    createdBy: p.owner.userId,
    location: 'fra',
    physicalName: `cust-${resourceId}`,
    keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'S' } },
    version: 1,
  });
  return resourceId;
}

describe('GET /v1/orgs/:orgId/databases', () => {
  it('lists the databases with a summary of each table, or table null with why', async () => {
    const { org, owner } = await p.newOrg();
    const token = { token: owner.token };
    const make = (body: Record<string, unknown>) => p.post(`/v1/orgs/${org.orgId}/resources`, body, token);
    const a = (await make({ type: 'database', name: 'alpha' })).body.resource;
    const b = (await make({ type: 'database', name: 'beta', partitionKey: { name: 'id', type: 'N' }, sortKey: null }))
      .body.resource;
    const c = (await make({ type: 'database', name: 'gamma' })).body.resource;
    await make({ type: 'bucket', name: 'not-a-database' });
    await seed(a.physicalName, [
      { pk: { S: '1' }, sk: { S: '1' } },
      { pk: { S: '2' }, sk: { S: '2' } },
    ]);
    await dynamo.send(new DeleteTableCommand({ TableName: c.physicalName }));
    const failed = await failedDatabase(org.orgId);

    const res = await p.get(`/v1/orgs/${org.orgId}/databases`, token);
    expect(res.status).toBe(200);
    expect(res.body.databases).toEqual([
      {
        ...a,
        table: {
          status: 'ACTIVE',
          itemCount: 2,
          sizeBytes: expect.any(Number),
          partitionKey: { name: 'pk', type: 'S' },
          sortKey: { name: 'sk', type: 'S' },
          indexCount: 0,
          deletionProtection: false,
        },
      },
      {
        ...b,
        table: {
          status: 'ACTIVE',
          itemCount: 0,
          sizeBytes: 0,
          partitionKey: { name: 'id', type: 'N' },
          indexCount: 0,
          deletionProtection: false,
        },
      },
      { ...c, table: null, error: 'missing' },
      expect.objectContaining({ resourceId: failed, status: 'error', table: null, error: 'missing' }),
    ]);
  });
});

describe('GET /v1/orgs/:orgId/databases/:resourceId', () => {
  it('answers the database and its table description', async () => {
    const db = await newDatabase(p);
    await seed(db.physicalName, [{ pk: { S: 'a' }, sk: { S: 'b' }, v: { S: 'x' } }]);
    const res = await p.get(db.path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      database: expect.objectContaining({ resourceId: db.resourceId, type: 'database', status: 'active' }),
      table: {
        name: db.physicalName,
        status: 'ACTIVE',
        partitionKey: { name: 'pk', type: 'S' },
        sortKey: { name: 'sk', type: 'S' },
        indexes: [],
        itemCount: 1,
        sizeBytes: expect.any(Number),
        billingMode: 'PAY_PER_REQUEST',
        tableClass: 'STANDARD',
        deletionProtection: false,
        createdAt: expect.any(Number),
      },
    });
    expect(res.body.database.version).toBeUndefined();
  });

  it('answers table null when the table was deleted outside the platform or never made', async () => {
    const db = await newDatabase(p);
    await dynamo.send(new DeleteTableCommand({ TableName: db.physicalName }));
    const res = await p.get(db.path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ database: expect.objectContaining({ resourceId: db.resourceId }), table: null });
    const failed = await failedDatabase();
    const f = await p.get(`/v1/orgs/${p.org.orgId}/databases/${failed}`);
    expect(f.body).toEqual({
      database: expect.objectContaining({ status: 'error', error: 'LimitExceededException: too many tables' }),
      table: null,
    });
  });

  it('answers 404 Database not found for an unknown id or a bucket', async () => {
    const bucket = await p.post(`/v1/orgs/${p.org.orgId}/resources`, { type: 'bucket', name: `bk-${Date.now()}` });
    for (const id of [someId('res_'), bucket.body.resource.resourceId]) {
      const res = await p.get(`/v1/orgs/${p.org.orgId}/databases/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Database not found' });
    }
  });
});

describe('a database still being created', () => {
  it('turns active when its table is ACTIVE, on the next read; until its table exists data routes say Table not found', async () => {
    const resourceId = someId('res_');
    const physicalName = `cust-${resourceId}`;
    await putRecord(p.org.orgId, `RES#database#${resourceId}`, {
      resourceId,
      type: 'database',
      name: `slow-${resourceId.slice(-6)}`,
      status: 'creating',
      createdAt: Date.now(),
      region: 'eu-central-1',
      orgId: p.org.orgId,
      createdBy: p.owner.userId,
      location: 'fra',
      physicalName,
      keys: { partitionKey: { name: 'id', type: 'S' } },
      version: 1,
    });
    const path = `/v1/orgs/${p.org.orgId}/databases/${resourceId}`;
    const early = await p.post(`${path}/items/get`, { key: { id: 'a' } });
    expect(early.status).toBe(404);
    expect(early.body).toEqual({ error: 'Table not found' });
    expect((await p.get(path)).body.database.status).toBe('creating');

    await dynamo.send(
      new CreateTableCommand({
        TableName: physicalName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    const res = await p.get(path);
    expect(res.body.database).toMatchObject({ status: 'active', arn: expect.stringContaining(physicalName) });
    expect(res.body.table.status).toBe('ACTIVE');
    expect((await p.post(`${path}/items/get`, { key: { id: 'a' } })).body).toEqual({ error: 'Item not found' });
  });
});

describe('GET .../databases/:resourceId/metrics', () => {
  it('answers the figures DynamoDB describes', async () => {
    const db = await newDatabase(p);
    await seed(
      db.physicalName,
      Array.from({ length: 10 }, (_, i) => ({ pk: { S: 'p' }, sk: { S: `${i}` }, data: { S: 'x'.repeat(100) } })),
    );
    const res = await p.get(`${db.path}/metrics`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      metrics: {
        itemCount: 10,
        sizeBytes: expect.any(Number),
        averageItemBytes: expect.any(Number),
        indexes: [],
        billingMode: 'PAY_PER_REQUEST',
        capacity: null,
        source: 'DescribeTable',
        refreshedEvery: '6 hours',
        at: expect.any(Number),
      },
    });
    expect(res.body.metrics.sizeBytes).toBeGreaterThan(1000);
    expect(res.body.metrics.averageItemBytes).toBe(Math.round(res.body.metrics.sizeBytes / 10));
  });

  it('answers 404 Database not found and Table not found', async () => {
    expect((await p.get(`/v1/orgs/${p.org.orgId}/databases/${someId('res_')}/metrics`)).body).toEqual({
      error: 'Database not found',
    });
    const failed = await failedDatabase();
    const res = await p.get(`/v1/orgs/${p.org.orgId}/databases/${failed}/metrics`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Table not found' });
  });
});

describe('settings', () => {
  let db: Db;
  beforeAll(async () => {
    db = await newDatabase(p);
  });
  const settings = () => `${db.path}/settings`;

  it('answers the settings, naming what the local table store lacks instead of failing', async () => {
    const res = await p.get(settings());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      settings: {
        deletionProtection: false,
        pointInTimeRecovery: { enabled: false, supported: false },
        ttl: { attribute: null, enabled: false, status: 'DISABLED', supported: true },
        tableClass: 'STANDARD',
        billingMode: 'PAY_PER_REQUEST',
        capacity: null,
        tags: {},
        unsupported: ['pointInTimeRecovery', 'tableClass', 'tags'],
        notes: [
          expect.stringContaining('Point-in-time'),
          expect.stringContaining('table class'),
          expect.stringContaining('tags'),
        ],
      },
    });
  });

  it('turns deletion protection and time to live on and off', async () => {
    const on = await p.patch(settings(), { deletionProtection: true, ttl: { enabled: true, attribute: 'expiresAt' } });
    expect(on.status).toBe(200);
    expect(on.body.applied).toEqual(['deletionProtection', 'ttl']);
    expect(on.body.skipped).toEqual([]);
    expect(on.body.settings).toMatchObject({
      deletionProtection: true,
      ttl: { attribute: 'expiresAt', enabled: true, status: 'ENABLED' },
    });
    const ttl = await dynamo.send(new DescribeTimeToLiveCommand({ TableName: db.physicalName }));
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe('expiresAt');
    expect((await p.get(db.path)).body.table.deletionProtection).toBe(true);

    const off = await p.patch(settings(), { deletionProtection: false, ttl: { enabled: false } });
    expect(off.body.settings).toMatchObject({ deletionProtection: false, ttl: { enabled: false } });
  });

  it('switches to provisioned capacity and back to on demand', async () => {
    const prov = await p.patch(settings(), { billingMode: 'PROVISIONED', capacity: { read: 3, write: 4 } });
    expect(prov.status).toBe(200);
    expect(prov.body.settings).toMatchObject({ billingMode: 'PROVISIONED', capacity: { read: 3, write: 4 } });
    expect(prov.body.applied).toEqual(['capacity', 'billingMode']);
    const more = await p.patch(settings(), { capacity: { read: 5, write: 5 } });
    expect(more.body.settings.capacity).toEqual({ read: 5, write: 5 });
    const metrics = await p.get(`${db.path}/metrics`);
    expect(metrics.body.metrics.capacity).toEqual({ read: 5, write: 5 });
    const back = await p.patch(settings(), { billingMode: 'PAY_PER_REQUEST' });
    expect(back.body.settings).toMatchObject({ billingMode: 'PAY_PER_REQUEST', capacity: null });
  });

  it('skips point-in-time recovery and table class on the local store, saying so', async () => {
    const res = await p.patch(settings(), { pointInTimeRecovery: true });
    expect(res.status).toBe(200);
    expect(res.body.applied).toEqual([]);
    expect(res.body.skipped).toEqual(['pointInTimeRecovery']);
    expect(res.body.settings.pointInTimeRecovery).toEqual({ enabled: false, supported: false });
    const cls = await p.patch(settings(), { tableClass: 'STANDARD_INFREQUENT_ACCESS' });
    expect(cls.body.skipped).toEqual(['tableClass']);
    expect(cls.body.settings.tableClass).toBe('STANDARD');
  });

  it.each([
    [{}, 'Nothing to change.'],
    [{ ttl: { enabled: true } }, 'Name the attribute that holds the expiry time.'],
    [
      { tableClass: 'STANDARD', billingMode: 'PROVISIONED' },
      'Change the billing mode and the table class in separate requests.',
    ],
    [{ capacity: { read: 1, write: 1 } }, 'Capacity applies to provisioned tables only.'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await p.patch(settings(), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it.each([
    [{ billingMode: 'FREE' }, 'billingMode'],
    [{ capacity: { read: 0, write: 1 } }, 'capacity.read'],
    [{ deletionProtection: 'yes' }, 'deletionProtection'],
    [{ tableClass: 'GLACIER' }, 'tableClass'],
  ])('refuses %j with 400 Invalid request', async (body, path) => {
    const res = await p.patch(settings(), body);
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe(path);
  });

  it('answers 404 for an unknown database and a failed one', async () => {
    const unknown = `/v1/orgs/${p.org.orgId}/databases/${someId('res_')}/settings`;
    expect((await p.get(unknown)).body).toEqual({ error: 'Database not found' });
    expect((await p.patch(unknown, { deletionProtection: true })).body).toEqual({ error: 'Database not found' });
    const failed = `/v1/orgs/${p.org.orgId}/databases/${await failedDatabase()}/settings`;
    expect((await p.get(failed)).body).toEqual({ error: 'Table not found' });
    expect((await p.patch(failed, { deletionProtection: true })).body).toEqual({ error: 'Table not found' });
  });

  it('answers the mapping table’s 404 for a table deleted outside the platform', async () => {
    const gone = await newDatabase(p);
    await dynamo.send(new DeleteTableCommand({ TableName: gone.physicalName }));
    const res = await p.get(`${gone.path}/settings`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found in the backend. It may have been deleted outside the platform.' });
  });
});

describe('PATCH .../databases/:resourceId/tags', () => {
  it('sets and removes tags, kept on the database where the store has no tags', async () => {
    const db = await newDatabase(p);
    const set = await p.patch(`${db.path}/tags`, { tags: { team: 'shop', env: 'prod' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      tags: { team: 'shop', env: 'prod' },
      applied: false,
      notes: [expect.stringContaining('no tags')],
    });
    const removed = await p.patch(`${db.path}/tags`, { tags: { env: null, owner: 'ana@example.com' } });
    expect(removed.body.tags).toEqual({ team: 'shop', owner: 'ana@example.com' });
    expect((await p.get(`${db.path}/settings`)).body.settings.tags).toEqual({ team: 'shop', owner: 'ana@example.com' });
  });

  it('loses no tag to concurrent changes: every 200 is a stored tag', async () => {
    const db = await newDatabase(p);
    const changes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => p.patch(`${db.path}/tags`, { tags: { [`k${i}`]: `v${i}` } })),
    );
    expect(changes.map((r) => r.status)).toEqual(Array(10).fill(200));
    const stored = (await p.get(`${db.path}/settings`)).body.settings.tags;
    expect(stored).toEqual(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, `v${i}`])));
  });

  it('refuses reserved tags and more than 50 tags with 400', async () => {
    const db = await newDatabase(p);
    for (const key of ['aws:created', 'platform:org', 'AWS:x']) {
      const res = await p.patch(`${db.path}/tags`, { tags: { [key]: 'x' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Tags starting with aws: or platform: are reserved.' });
    }
    const many = (from: number) => Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${from + i}`, 'v']));
    expect((await p.patch(`${db.path}/tags`, { tags: many(0) })).status).toBe(200);
    const over = await p.patch(`${db.path}/tags`, { tags: many(30) });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'A database can have 50 tags.' });
  });

  it.each([
    ['no tags', { tags: {} }],
    ['an empty key', { tags: { '': 'x' } }],
    ['a key with #', { tags: { 'bad#key': 'x' } }],
    ['a value of 257 characters', { tags: { k: 'v'.repeat(257) } }],
    ['a number as value', { tags: { k: 1 } }],
    ['no body', {}],
  ])('refuses %s with 400 Invalid request', async (_label, body) => {
    const db = await newDatabase(p);
    const res = await p.patch(`${db.path}/tags`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
  });

  it('answers 404 Database not found', async () => {
    const res = await p.patch(`/v1/orgs/${p.org.orgId}/databases/${someId('res_')}/tags`, { tags: { a: 'b' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Database not found' });
  });
});

describe('DELETE /v1/orgs/:orgId/databases/:resourceId', () => {
  it('deletes the database and its table', async () => {
    const db = await newDatabase(p);
    const res = await p.delete(db.path);
    expect(res.status).toBe(204);
    expect((await p.get(db.path)).status).toBe(404);
    expect((await p.delete(db.path)).body).toEqual({ error: 'Database not found' });
  });

  it('refuses while deletion protection is on (409), keeping the previous status', async () => {
    const db = await newDatabase(p);
    await p.patch(`${db.path}/settings`, { deletionProtection: true });
    const res = await p.delete(db.path);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Turn off deletion protection first.' });
    expect((await p.get(db.path)).body.database.status).toBe('active');
    await p.patch(`${db.path}/settings`, { deletionProtection: false });
    expect((await p.delete(db.path)).status).toBe(204);
  });

  it('deletes a database whose provisioning failed', async () => {
    const failed = await failedDatabase();
    expect((await p.delete(`/v1/orgs/${p.org.orgId}/databases/${failed}`)).status).toBe(204);
  });

  it('is refused to a viewer with 403', async () => {
    const viewer = await p.person('viewer');
    const db = await newDatabase(p);
    const res = await p.delete(db.path, { token: viewer.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope resources:write' });
    expect((await p.get(db.path, { token: viewer.token })).status).toBe(200);
  });
});
