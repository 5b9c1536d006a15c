import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { TestPlatform } from '../helpers/platform';
import { type Db, newDatabase, seed } from './helpers';

/**
 * Scan and query, one page at a time: every filter operator, `match`, projection, every sort
 * key condition, `forward`, paging to the end with cursors, and the cursor's binding to one
 * database, one operation and one index.
 */
let p: TestPlatform;
let db: Db;
const pad = (i: number) => String(i).padStart(2, '0');

/** 30 items in partition `p1` (sk s00..s29) and 5 in `p2`. */
function items(): Record<string, AttributeValue>[] {
  const out: Record<string, AttributeValue>[] = [];
  for (let i = 0; i < 30; i++) {
    out.push({
      pk: { S: 'p1' },
      sk: { S: `s${pad(i)}` },
      n: { N: String(i) },
      name: { S: `name-${i}` },
      colors: { SS: i % 3 === 0 ? ['red', 'blue'] : ['green'] },
      ...(i % 2 === 0 ? { tag: { S: 'even' } } : {}),
    });
  }
  for (let i = 0; i < 5; i++) out.push({ pk: { S: 'p2' }, sk: { S: `s${pad(i)}` }, n: { N: String(100 + i) } });
  return out;
}

beforeAll(async () => {
  p = await TestPlatform.start();
  db = await newDatabase(p);
  await seed(db.physicalName, items());
});
afterAll(() => p.close());

const scan = (body: Record<string, unknown>, path = db.path) => p.post(`${path}/scan`, { limit: 100, ...body });
const query = (body: Record<string, unknown>, path = db.path) =>
  p.post(`${path}/query`, { limit: 100, partition: { S: 'p1' }, ...body });
const ns = (res: { body: { items: { n: { N: string } }[] } }) =>
  res.body.items.map((i) => Number(i.n.N)).sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('POST .../databases/:resourceId/scan', () => {
  it('answers a page with items as attribute values, counts and consumed capacity', async () => {
    const res = await scan({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: expect.any(Array), count: 35, scanned: 35, consumed: expect.any(Number) });
    expect(res.body.cursor).toBeUndefined();
    expect(res.body.items).toContainEqual({
      pk: { S: 'p1' },
      sk: { S: 's03' },
      n: { N: '3' },
      name: { S: 'name-3' },
      colors: { SS: expect.arrayContaining(['red', 'blue']) },
    });
  });

  const p1 = { attribute: 'pk', op: '=', value: { S: 'p1' } };
  it.each([
    ['=', { value: { N: '5' } }, [5]],
    ['<>', { value: { N: '5' } }, range(0, 29).filter((i) => i !== 5)],
    ['<', { value: { N: '5' } }, range(0, 4)],
    ['<=', { value: { N: '5' } }, range(0, 5)],
    ['>', { value: { N: '25' } }, range(26, 29)],
    ['>=', { value: { N: '25' } }, range(25, 29)],
    ['between', { value: { N: '10' }, value2: { N: '12' } }, [10, 11, 12]],
  ])('filters with %s on a number', async (op, values, expected) => {
    const res = await scan({ filters: [p1, { attribute: 'n', op, ...values }] });
    expect(res.status).toBe(200);
    expect(ns(res)).toEqual(expected);
    expect(res.body.scanned).toBe(35);
  });

  it('filters with begins_with and contains on strings, contains on sets', async () => {
    const begins = await scan({ filters: [{ attribute: 'name', op: 'begins_with', value: { S: 'name-1' } }] });
    expect(ns(begins)).toEqual([1, ...range(10, 19)]);
    const contains = await scan({ filters: [{ attribute: 'name', op: 'contains', value: { S: 'e-2' } }] });
    expect(ns(contains)).toEqual([2, ...range(20, 29)]);
    const inSet = await scan({ filters: [{ attribute: 'colors', op: 'contains', value: { S: 'red' } }] });
    expect(ns(inSet)).toEqual(range(0, 29).filter((i) => i % 3 === 0));
  });

  it('filters with exists and not_exists, which take no value', async () => {
    const exists = await scan({ filters: [{ attribute: 'tag', op: 'exists' }] });
    expect(ns(exists)).toEqual(range(0, 29).filter((i) => i % 2 === 0));
    const missing = await scan({ filters: [p1, { attribute: 'tag', op: 'not_exists' }] });
    expect(ns(missing)).toEqual(range(0, 29).filter((i) => i % 2 === 1));
  });

  it('joins filters with match all (AND) by default and any (OR)', async () => {
    const all = await scan({
      filters: [
        { attribute: 'n', op: '>=', value: { N: '10' } },
        { attribute: 'tag', op: 'exists' },
      ],
    });
    expect(ns(all)).toEqual(range(10, 29).filter((i) => i % 2 === 0));
    const any = await scan({
      match: 'any',
      filters: [
        { attribute: 'n', op: '=', value: { N: '1' } },
        { attribute: 'n', op: '=', value: { N: '102' } },
      ],
    });
    expect(ns(any)).toEqual([1, 102]);
  });

  it('passes attribute names as placeholders: names with spaces, dots and expression syntax are plain names', async () => {
    await seed(db.physicalName, [
      { pk: { S: 'odd' }, sk: { S: 'names' }, 'a.b': { S: 'dot' }, 'x = :v OR #y': { S: 'tricky' }, n: { N: '500' } },
    ]);
    const dot = await scan({ filters: [{ attribute: 'a.b', op: '=', value: { S: 'dot' } }] });
    expect(ns(dot)).toEqual([500]);
    const tricky = await scan({ filters: [{ attribute: 'x = :v OR #y', op: 'exists' }], projection: ['x = :v OR #y'] });
    expect(tricky.body.items).toEqual([{ 'x = :v OR #y': { S: 'tricky' } }]);
  });

  it('projects the listed attributes only', async () => {
    const res = await scan({
      filters: [{ attribute: 'n', op: '=', value: { N: '4' } }],
      projection: ['n', 'tag', 'n'],
    });
    expect(res.body.items).toEqual([{ n: { N: '4' }, tag: { S: 'even' } }]);
  });

  it('pages to the end with cursors, each item once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await scan({ limit: 7, cursor });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(7);
      seen.push(...res.body.items.map((i: any) => `${i.pk.S}/${i.sk.S}`));
      cursor = res.body.cursor;
      if (cursor) expect(cursor.length).toBeLessThanOrEqual(8000);
      pages++;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe((await scan({})).body.count);
    expect(pages).toBeGreaterThanOrEqual(5);
  });

  it('uses 25 as the default page size', async () => {
    const res = await p.post(`${db.path}/scan`, {});
    expect(res.body.count).toBe(25);
    expect(res.body.cursor).toEqual(expect.any(String));
  });

  it('refuses a condition without its value with 400', async () => {
    for (const f of [
      { attribute: 'n', op: '=' },
      { attribute: 'n', op: 'between', value: { N: '1' } },
      { attribute: 'n', op: 'contains' },
    ]) {
      const res = await scan({ filters: [f] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'A condition is missing its value.' });
    }
  });

  it('refuses an unknown index with 400 No index named ....', async () => {
    const res = await scan({ index: 'byNothing' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'No index named byNothing.' });
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['limit 2.5', { limit: 2.5 }, 'limit'],
    ['a cursor of 8,001 characters', { cursor: 'x'.repeat(8001) }, 'cursor'],
    ['11 filters', { filters: Array.from({ length: 11 }, () => ({ attribute: 'tag', op: 'exists' })) }, 'filters'],
    ['an empty attribute', { filters: [{ attribute: '', op: 'exists' }] }, 'filters.0.attribute'],
    ['a control character', { filters: [{ attribute: 'a\u0001b', op: 'exists' }] }, 'filters.0.attribute'],
    [
      'an attribute of 256 characters',
      { filters: [{ attribute: 'x'.repeat(256), op: 'exists' }] },
      'filters.0.attribute',
    ],
    ['an unknown operator', { filters: [{ attribute: 'n', op: 'like', value: { S: 'x' } }] }, 'filters.0.op'],
    ['a number that is not one', { filters: [{ attribute: 'n', op: '=', value: { N: 'five' } }] }, 'filters.0.value'],
    [
      'a value that is no attribute value',
      { filters: [{ attribute: 'n', op: '=', value: 'five' }] },
      'filters.0.value',
    ],
    ['match some', { match: 'some' }, 'match'],
    ['51 projected attributes', { projection: Array.from({ length: 51 }, (_, i) => `a${i}`) }, 'projection'],
    ['a projected name with a newline', { projection: ['ok', 'bad\nname'] }, 'projection.1'],
    ['an index name of 256 characters', { index: 'x'.repeat(256) }, 'index'],
  ])('refuses %s with 400 Invalid request naming it', async (_label, body, path) => {
    const res = await p.post(`${db.path}/scan`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });
});

describe('POST .../databases/:resourceId/query', () => {
  it('answers one partition in sort key order, and backwards with forward: false', async () => {
    const res = await query({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: expect.any(Array), count: 30, scanned: 30, consumed: expect.any(Number) });
    expect(res.body.items.map((i: any) => i.sk.S)).toEqual(range(0, 29).map((i) => `s${pad(i)}`));
    const back = await query({ forward: false, limit: 3 });
    expect(back.body.items.map((i: any) => i.sk.S)).toEqual(['s29', 's28', 's27']);
  });

  it.each([
    ['=', { value: { S: 's05' } }, [5]],
    ['<', { value: { S: 's05' } }, range(0, 4)],
    ['<=', { value: { S: 's05' } }, range(0, 5)],
    ['>', { value: { S: 's25' } }, range(26, 29)],
    ['>=', { value: { S: 's25' } }, range(25, 29)],
    ['begins_with', { value: { S: 's1' } }, range(10, 19)],
    ['between', { value: { S: 's10' }, value2: { S: 's12' } }, [10, 11, 12]],
  ])('narrows the sort key with %s', async (op, values, expected) => {
    const res = await query({ sort: { op, ...values } });
    expect(res.status).toBe(200);
    expect(ns(res)).toEqual(expected);
  });

  it('filters and projects within the partition', async () => {
    const res = await query({
      sort: { op: 'begins_with', value: { S: 's1' } },
      filters: [{ attribute: 'tag', op: 'exists' }],
      projection: ['sk'],
    });
    expect(res.body.items).toEqual([10, 12, 14, 16, 18].map((i) => ({ sk: { S: `s${i}` } })));
    expect(res.body.scanned).toBe(10);
  });

  it('pages backwards to the end with cursors', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await query({ limit: 4, forward: false, cursor });
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: any) => i.sk.S));
      cursor = res.body.cursor;
    } while (cursor);
    expect(seen).toEqual(
      range(0, 29)
        .reverse()
        .map((i) => `s${pad(i)}`),
    );
  });

  it('refuses a sort condition without a value with 400', async () => {
    for (const sort of [{ op: '=' }, { op: 'between', value: { S: 's1' } }]) {
      const res = await query({ sort });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'The sort key condition is missing a value.' });
    }
  });

  it('refuses a sort condition on a table without a sort key with 400', async () => {
    const plain = await newDatabase(p, { partitionKey: { name: 'id', type: 'S' }, sortKey: null });
    const res = await query({ partition: { S: 'a' }, sort: { op: '=', value: { S: 'x' } } }, plain.path);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'This table or index has no sort key.' });
    expect((await query({ partition: { S: 'a' } }, plain.path)).body.count).toBe(0);
  });

  it('allows begins_with on string and binary sort keys only', async () => {
    const numbers = await newDatabase(p, {
      partitionKey: { name: 'id', type: 'S' },
      sortKey: { name: 'at', type: 'N' },
    });
    const res = await query({ partition: { S: 'a' }, sort: { op: 'begins_with', value: { N: '1' } } }, numbers.path);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'begins_with works on string and binary sort keys only.' });

    const binary = await newDatabase(p, { partitionKey: { name: 'id', type: 'S' }, sortKey: { name: 'b', type: 'B' } });
    const bytes = (hex: string) => Buffer.from(hex, 'hex');
    await seed(binary.physicalName, [
      { id: { S: 'a' }, b: { B: bytes('0102') } },
      { id: { S: 'a' }, b: { B: bytes('0103') } },
      { id: { S: 'a' }, b: { B: bytes('0201') } },
    ]);
    const ok = await query(
      { partition: { S: 'a' }, sort: { op: 'begins_with', value: { B: bytes('01').toString('base64') } } },
      binary.path,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.items.map((i: any) => i.b.B)).toEqual(['AQI=', 'AQM=']);
    const between = await query(
      { partition: { S: 'a' }, sort: { op: 'between', value: { B: 'AQM=' }, value2: { B: 'AgE=' } } },
      binary.path,
    );
    expect(between.body.count).toBe(2);
  });

  it('refuses a partition or sort value of another type than the key with 400', async () => {
    const pk = await query({ partition: { N: '1' } });
    expect(pk.status).toBe(400);
    expect(pk.body).toEqual({ error: 'The partition key pk is a string (S).' });
    const sk = await query({ sort: { op: '>', value: { N: '1' } } });
    expect(sk.body).toEqual({ error: 'The sort key sk is a string (S).' });
  });

  it('refuses a missing partition with 400 Invalid request, and an unknown index with 400', async () => {
    const res = await p.post(`${db.path}/query`, {});
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'partition' })]));
    const index = await query({ index: 'byColor' });
    expect(index.body).toEqual({ error: 'No index named byColor.' });
    const op = await query({ sort: { op: '<>', value: { S: 'x' } } });
    expect(op.body.issues[0].path).toBe('sort.op');
  });
});

describe('page cursors', () => {
  it('refuses a cursor of another database, of a scan on a query, or altered, with 400', async () => {
    const other = await newDatabase(p);
    await seed(other.physicalName, items());
    const scanCursor = (await scan({ limit: 2 })).body.cursor as string;
    const queryCursor = (await query({ limit: 2 })).body.cursor as string;
    const INVALID = { error: 'Invalid page cursor. Run the request again.' };

    const foreign = await scan({ limit: 2, cursor: scanCursor }, other.path);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual(INVALID);
    expect((await query({ limit: 2, cursor: queryCursor }, other.path)).body).toEqual(INVALID);
    expect((await query({ limit: 2, cursor: scanCursor })).body).toEqual(INVALID);
    expect((await scan({ limit: 2, cursor: scanCursor, index: 'x' })).status).toBe(400);
    const [payload, sig] = scanCursor.split('.');
    const altered = `${Buffer.from('{"pk":{"S":"p2"},"sk":{"S":"s00"}}').toString('base64url')}.${sig}`;
    expect((await scan({ cursor: altered })).body).toEqual(INVALID);
    expect((await scan({ cursor: `${payload}x.${sig}` })).body).toEqual(INVALID);
    expect((await scan({ cursor: 'nonsense' })).body).toEqual(INVALID);
    // The same cursor on its own database continues.
    expect((await scan({ limit: 2, cursor: scanCursor })).status).toBe(200);
  });

  it("refuses another organization's cursor for a database of the same id shape", async () => {
    const other = await p.newOrg();
    const res = await p.post(
      `/v1/orgs/${other.org.orgId}/resources`,
      { type: 'database', name: 'x-db' },
      {
        token: other.owner.token,
      },
    );
    const path = `/v1/orgs/${other.org.orgId}/databases/${res.body.resource.resourceId}`;
    await seed(res.body.resource.physicalName, items());
    const cursor = (await scan({ limit: 2 })).body.cursor;
    const foreign = await p.post(`${path}/scan`, { limit: 2, cursor }, { token: other.owner.token });
    expect(foreign.status).toBe(400);
  });
});
