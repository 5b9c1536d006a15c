import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { TestPlatform } from '../helpers/platform';
import { someId } from '../helpers/records';
import { type Db, indexesActive, indexGone, newDatabase, seed, whileIndexBuilds } from './helpers';

/**
 * Global secondary indexes: added while the table holds data (202, `UPDATING` while it
 * backfills), queried once active, removed; and every refusal of the spec. DynamoDB Local builds
 * an index in about a second: the tests wait for the index, never for a time.
 */
let p: TestPlatform;
let db: Db;

function people(count: number): Record<string, AttributeValue>[] {
  return Array.from({ length: count }, (_, i) => ({
    pk: { S: `user#${i}` },
    sk: { S: 'profile' },
    email: { S: `u${i}@example.com` },
    team: { S: `team-${i % 4}` },
    age: { N: String(20 + (i % 30)) },
    bio: { S: `bio ${i}` },
  }));
}

beforeAll(async () => {
  p = await TestPlatform.start();
  db = await newDatabase(p);
  await seed(db.physicalName, people(200));
});
afterAll(() => p.close());

const add = (body: Record<string, unknown>, path = db.path) => p.post(`${path}/indexes`, body);

describe('POST .../databases/:resourceId/indexes', () => {
  it('adds an index while the table holds data: 202, UPDATING while it backfills, then queryable', async () => {
    const res = await add({
      name: 'byTeam',
      partitionKey: { name: 'team', type: 'S' },
      sortKey: { name: 'age', type: 'N' },
      projection: { type: 'INCLUDE', attributes: ['email'] },
    });
    expect(res.status).toBe(202);
    expect(res.body.table).toMatchObject({ name: db.physicalName, status: 'UPDATING', itemCount: 200 });
    expect(res.body.table.indexes).toEqual([
      {
        name: 'byTeam',
        kind: 'global',
        partitionKey: { name: 'team', type: 'S' },
        sortKey: { name: 'age', type: 'N' },
        projection: { type: 'INCLUDE', attributes: ['email'] },
        status: 'CREATING',
        backfilling: true,
      },
    ]);

    // While the index builds, the database can't be deleted nor the index removed.
    const busy = { error: 'Wait for index byTeam to finish building, then try again.' };
    await whileIndexBuilds(db.physicalName, 'byTeam', async () => {
      const del = await p.delete(db.path);
      expect(del.status).toBe(409);
      expect(del.body).toEqual(busy);
      const remove = await p.delete(`${db.path}/indexes/byTeam`);
      expect(remove.status).toBe(409);
      expect(remove.body).toEqual(busy);
      expect((await p.get(db.path)).body.database.status).toBe('active');
    });

    await indexesActive(db.physicalName);
    const table = (await p.get(db.path)).body.table;
    expect(table.status).toBe('ACTIVE');
    expect(table.indexes[0]).toMatchObject({ status: 'ACTIVE', backfilling: false, itemCount: 200 });

    const page = await p.post(`${db.path}/query`, {
      index: 'byTeam',
      partition: { S: 'team-1' },
      sort: { op: 'between', value: { N: '30' }, value2: { N: '39' } },
      limit: 100,
    });
    expect(page.status).toBe(200);
    const expected = people(200).filter((u) => u.team?.S === 'team-1' && Math.abs(Number(u.age?.N) - 34.5) < 5);
    expect(page.body.count).toBe(expected.length);
    expect(Object.keys(page.body.items[0]).sort()).toEqual(['age', 'email', 'pk', 'sk', 'team']);
    const ages = page.body.items.map((i: any) => Number(i.age.N));
    expect(ages).toEqual([...ages].sort((a, b) => a - b));

    // Index pages have their own cursors.
    const first = await p.post(`${db.path}/scan`, { index: 'byTeam', limit: 100 });
    expect(first.body.count).toBe(100);
    const rest = await p.post(`${db.path}/scan`, { index: 'byTeam', limit: 100, cursor: first.body.cursor });
    expect(rest.body.count).toBe(100);
    const keys = (r: typeof first) => r.body.items.map((i: any) => i.pk.S);
    expect(new Set([...keys(first), ...keys(rest)]).size).toBe(200);
    const wrong = await p.post(`${db.path}/scan`, { limit: 100, cursor: first.body.cursor });
    expect(wrong.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    expect((await p.get(`${db.path}/metrics`)).body.metrics.indexes).toEqual([
      { name: 'byTeam', status: 'ACTIVE', itemCount: 200, sizeBytes: expect.any(Number) },
    ]);
  });

  it('refuses an index named like one the table has with 409', async () => {
    await indexesActive(db.physicalName);
    const res = await add({ name: 'byTeam', partitionKey: { name: 'email', type: 'S' }, projection: { type: 'ALL' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'An index named byTeam already exists.' });
  });

  it('refuses a key attribute with another type than it has elsewhere with 400', async () => {
    const team = await add({ name: 'byTeamN', partitionKey: { name: 'team', type: 'N' }, projection: { type: 'ALL' } });
    expect(team.status).toBe(400);
    expect(team.body).toEqual({ error: 'team is already a string key attribute; use that type.' });
    const pk = await add({
      name: 'byAgeAndPk',
      partitionKey: { name: 'age', type: 'N' },
      sortKey: { name: 'pk', type: 'B' },
      projection: { type: 'KEYS_ONLY' },
    });
    expect(pk.body).toEqual({ error: 'pk is already a string key attribute; use that type.' });
  });

  it('refuses an INCLUDE projection without attributes, and attributes on another projection, with 400', async () => {
    const none = await add({
      name: 'inc',
      partitionKey: { name: 'email', type: 'S' },
      projection: { type: 'INCLUDE' },
    });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'List the attributes to include.' });
    const extra = await add({
      name: 'inc',
      partitionKey: { name: 'email', type: 'S' },
      projection: { type: 'KEYS_ONLY', attributes: ['bio'] },
    });
    expect(extra.body).toEqual({ error: 'Only INCLUDE projections list attributes.' });
  });

  it('refuses a sort key named like the partition key with 400', async () => {
    const res = await add({
      name: 'same',
      partitionKey: { name: 'email', type: 'S' },
      sortKey: { name: 'email', type: 'S' },
      projection: { type: 'ALL' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The sort key must differ from the partition key.' });
  });

  it('refuses an index on a provisioned table with 409', async () => {
    const prov = await newDatabase(p);
    await p.patch(`${prov.path}/settings`, { billingMode: 'PROVISIONED', capacity: { read: 1, write: 1 } });
    const res = await add(
      { name: 'byEmail', partitionKey: { name: 'email', type: 'S' }, projection: { type: 'ALL' } },
      prov.path,
    );
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Indexes can only be added to on-demand tables here.' });
  });

  it.each([
    ['a name of 2 characters', { name: 'ab' }, 'name'],
    ['a name with a space', { name: 'by team' }, 'name'],
    ['no partition key', { partitionKey: undefined }, 'partitionKey'],
    ['a key type BOOL', { partitionKey: { name: 'x', type: 'BOOL' } }, 'partitionKey.type'],
    ['no projection', { projection: undefined }, 'projection'],
    ['an empty attribute list', { projection: { type: 'INCLUDE', attributes: [] } }, 'projection.attributes'],
    [
      '21 attributes',
      { projection: { type: 'INCLUDE', attributes: Array.from({ length: 21 }, (_, i) => `a${i}`) } },
      'projection.attributes',
    ],
  ])('refuses %s with 400 Invalid request', async (_label, change, path) => {
    const res = await add({
      name: 'valid',
      partitionKey: { name: 'email', type: 'S' },
      projection: { type: 'ALL' },
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('answers 404 Database not found', async () => {
    const res = await add(
      { name: 'x12', partitionKey: { name: 'email', type: 'S' }, projection: { type: 'ALL' } },
      `/v1/orgs/${p.org.orgId}/databases/${someId('res_')}`,
    );
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Database not found' });
  });
});

describe('DELETE .../databases/:resourceId/indexes/:indexName', () => {
  it('removes an index: 202 with the index DELETING, then it is gone', async () => {
    const other = await newDatabase(p);
    await seed(other.physicalName, people(20));
    expect(
      (
        await add(
          { name: 'byEmail', partitionKey: { name: 'email', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
          other.path,
        )
      ).status,
    ).toBe(202);
    await indexesActive(other.physicalName);
    const res = await p.delete(`${other.path}/indexes/byEmail`);
    expect(res.status).toBe(202);
    expect(res.body.table.status).toBe('UPDATING');
    expect(res.body.table.indexes).toEqual([expect.objectContaining({ name: 'byEmail', status: 'DELETING' })]);
    await indexGone(other.physicalName, 'byEmail');
    expect((await p.get(other.path)).body.table.indexes).toEqual([]);
    const query = await p.post(`${other.path}/query`, { index: 'byEmail', partition: { S: 'u1@example.com' } });
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ error: 'No index named byEmail.' });
  });

  it('answers 404 Index not found and 404 Database not found', async () => {
    const res = await p.delete(`${db.path}/indexes/nothing`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Index not found' });
    const unknown = await p.delete(`/v1/orgs/${p.org.orgId}/databases/${someId('res_')}/indexes/byTeam`);
    expect(unknown.body).toEqual({ error: 'Database not found' });
  });
});
