import { DeleteTableCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { TestPlatform } from '../helpers/platform';
import { putRecord, someId } from '../helpers/records';
import { type Db, dynamo, newDatabase } from './helpers';

/** Items: get, put (create, guarded replace, key move, each 409, the 413s), delete, key messages. */
let p: TestPlatform;
let db: Db;

beforeAll(async () => {
  p = await TestPlatform.start();
  db = await newDatabase(p);
});
afterAll(() => p.close());

const put = (body: Record<string, unknown>, path = db.path) => p.put(`${path}/items`, body);
const get = (key: unknown, path = db.path) => p.post(`${path}/items/get`, { key });
const del = (key: unknown, path = db.path) => p.post(`${path}/items/delete`, { key });
const KEY_ONLY = { error: 'A key has only pk (S) and sk (S).' };

async function stored(pk: string, sk: string) {
  const out = await dynamo.send(
    new GetItemCommand({ TableName: db.physicalName, Key: { pk: { S: pk }, sk: { S: sk } }, ConsistentRead: true }),
  );
  return out.Item;
}

describe('PUT .../databases/:resourceId/items', () => {
  it('creates an item (201) with every kind of attribute value, and refuses an existing key with 409', async () => {
    const item = {
      pk: { S: 'all' },
      sk: { S: 'types' },
      s: { S: 'text' },
      n: { N: '-12.50' },
      b: { B: Buffer.from('bytes').toString('base64') },
      t: { BOOL: true },
      z: { NULL: true },
      m: { M: { inner: { S: 'x' }, deep: { L: [{ N: '1' }, { M: {} }] } } },
      l: { L: [{ S: 'a' }, { BOOL: false }] },
      ss: { SS: ['a', 'b'] },
      ns: { NS: ['1', '2.5'] },
      bs: { BS: [Buffer.from([1]).toString('base64'), Buffer.from([2]).toString('base64')] },
    };
    const res = await put({ item });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ item });
    const read = await get({ pk: { S: 'all' }, sk: { S: 'types' } });
    expect(read.status).toBe(200);
    // DynamoDB stores numbers normalized.
    expect(read.body.item).toEqual({
      ...item,
      n: { N: '-12.5' },
      ss: { SS: expect.arrayContaining(['a', 'b']) },
      ns: { NS: expect.arrayContaining(['1', '2.5']) },
      bs: { BS: expect.arrayContaining(['AQ==', 'Ag==']) },
    });
    expect((await stored('all', 'types'))?.b?.B).toEqual(new Uint8Array(Buffer.from('bytes')));

    const again = await put({ item: { pk: { S: 'all' }, sk: { S: 'types' } } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'An item with this key already exists.' });
  });

  it('replaces an item read before (200) while it is unchanged', async () => {
    const original = { pk: { S: 'edit' }, sk: { S: '1' }, count: { N: '1' }, tags: { SS: ['x', 'y'] } };
    expect((await put({ item: original })).status).toBe(201);
    const item = { pk: { S: 'edit' }, sk: { S: '1' }, count: { N: '2' }, note: { S: 'new' } };
    // Sets compare without order; numbers by value.
    const res = await put({ item, original: { ...original, tags: { SS: ['y', 'x'] }, count: { N: '1.0' } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ item });
    expect(await stored('edit', '1')).toEqual({
      pk: { S: 'edit' },
      sk: { S: '1' },
      count: { N: '2' },
      note: { S: 'new' },
    });
  });

  it('refuses a write guarded by an item that changed since with 409', async () => {
    const original = { pk: { S: 'race' }, sk: { S: '1' }, v: { N: '1' } };
    await put({ item: original });
    await dynamo.send(new PutItemCommand({ TableName: db.physicalName, Item: { ...original, v: { N: '2' } } }));
    const res = await put({ item: { ...original, v: { N: '3' } }, original });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The item changed since it was read. Reload and try again.' });
    expect((await stored('race', '1'))?.v).toEqual({ N: '2' });
  });

  it('refuses a write that adds an attribute someone else added meanwhile with 409', async () => {
    const original = { pk: { S: 'race' }, sk: { S: '2' } };
    await put({ item: original });
    await dynamo.send(
      new PutItemCommand({ TableName: db.physicalName, Item: { ...original, extra: { S: 'theirs' } } }),
    );
    const res = await put({ item: { ...original, extra: { S: 'mine' } }, original });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The item changed since it was read. Reload and try again.' });
  });

  it('refuses a write guarded by an item that was deleted with 409', async () => {
    const original = { pk: { S: 'gone' }, sk: { S: '1' }, v: { N: '1' } };
    await put({ item: original });
    expect((await del({ pk: { S: 'gone' }, sk: { S: '1' } })).status).toBe(204);
    const res = await put({ item: { ...original, v: { N: '2' } }, original });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This item was deleted. Create it again instead.' });
    expect(await stored('gone', '1')).toBeUndefined();
  });

  describe('a key change', () => {
    it('moves the item to its new key in one transaction', async () => {
      const original = { pk: { S: 'move' }, sk: { S: 'old' }, v: { S: 'data' } };
      await put({ item: original });
      const item = { pk: { S: 'move' }, sk: { S: 'new' }, v: { S: 'data' } };
      const res = await put({ item, original });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ item });
      expect(await stored('move', 'old')).toBeUndefined();
      expect(await stored('move', 'new')).toEqual(item);
    });

    it('refuses a new key that is taken with 409 and keeps both items', async () => {
      const original = { pk: { S: 'move' }, sk: { S: 'a' } };
      const taken = { pk: { S: 'move' }, sk: { S: 'b' }, mine: { BOOL: true } };
      await put({ item: original });
      await put({ item: taken });
      const res = await put({ item: { pk: { S: 'move' }, sk: { S: 'b' } }, original });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'An item with this key already exists.' });
      expect(await stored('move', 'a')).toEqual(original);
      expect(await stored('move', 'b')).toEqual(taken);
    });

    it('refuses to move an item that changed (409) or was deleted (409), writing nothing', async () => {
      const original = { pk: { S: 'move' }, sk: { S: 'c' }, v: { N: '1' } };
      await put({ item: original });
      await dynamo.send(new PutItemCommand({ TableName: db.physicalName, Item: { ...original, v: { N: '9' } } }));
      const changed = await put({ item: { ...original, sk: { S: 'd' } }, original });
      expect(changed.status).toBe(409);
      expect(changed.body).toEqual({ error: 'The item changed since it was read. Reload and try again.' });
      expect(await stored('move', 'd')).toBeUndefined();

      await del({ pk: 'move', sk: 'c' });
      const deleted = await put({ item: { ...original, sk: { S: 'd' } }, original });
      expect(deleted.status).toBe(409);
      expect(deleted.body).toEqual({ error: 'This item was deleted. Create it again instead.' });
      expect(await stored('move', 'd')).toBeUndefined();
    });
  });

  it('answers 413 for an item over 400 KB and for a body over 800 KB', async () => {
    const big = await put({ item: { pk: { S: 'big' }, sk: { S: '1' }, data: { S: 'x'.repeat(410_000) } } });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: "The item is larger than the table store's 400 KB limit." });
    // Names count too: 200 KB of attribute names and 210 KB of values.
    const names: Record<string, unknown> = { pk: { S: 'big' }, sk: { S: '2' } };
    for (let i = 0; i < 200; i++) names[`${'n'.repeat(1000)}${i}`] = { S: 'v'.repeat(1050) };
    expect((await put({ item: names })).status).toBe(413);
    const fits = await put({ item: { pk: { S: 'big' }, sk: { S: '3' }, data: { S: 'x'.repeat(400_000) } } });
    expect(fits.status).toBe(201);
    const body = await put({
      item: { pk: { S: 'big' }, sk: { S: '4' }, a: { S: 'x'.repeat(300_000) } },
      original: { pk: { S: 'big' }, sk: { S: '4' }, a: { S: 'y'.repeat(550_000) } },
    });
    expect(body.status).toBe(413);
    expect(body.body).toEqual({ error: 'The request body is larger than 800 KB.' });
  });

  it('refuses an item without its key attributes, or of other types, with 400 A key has only ....', async () => {
    for (const item of [{ pk: { S: 'a' } }, { sk: { S: 'a' } }, { pk: { N: '1' }, sk: { S: 'a' } }, {}]) {
      const res = await put({ item });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(KEY_ONLY);
    }
    const original = await put({ item: { pk: { S: 'a' }, sk: { S: 'b' } }, original: { pk: { S: 'a' } } });
    expect(original.body).toEqual(KEY_ONLY);
  });

  it('refuses values that are not attribute values with 400 Invalid request naming them', async () => {
    const cases: [unknown, string][] = [
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: 'plain' }, 'item.x'],
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: { S: 'a', N: '1' } }, 'item.x'],
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: { N: '1e' } }, 'item.x'],
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: { B: 'not base64!' } }, 'item.x'],
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: { NULL: false } }, 'item.x'],
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: { L: [{ S: 1 }] } }, 'item.x.L.0'],
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: { M: { y: { BOOL: 'yes' } } } }, 'item.x.M.y'],
      [{ pk: { S: 'a' }, sk: { S: 'b' }, x: { SS: ['a', 2] } }, 'item.x'],
    ];
    for (const [item, path] of cases) {
      const res = await put({ item });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid request', issues: [expect.objectContaining({ path })] });
    }
    expect((await put({ item: [] })).status).toBe(400);
    expect((await put({})).status).toBe(400);
  });

  it("passes the backend's refusals on as 400 (an empty key value, duplicates in a set)", async () => {
    const empty = await put({ item: { pk: { S: '' }, sk: { S: 'x' } } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toEqual(expect.stringContaining('empty'));
    const dup = await put({ item: { pk: { S: 'dup' }, sk: { S: 'x' }, s: { SS: ['a', 'a'] } } });
    expect(dup.status).toBe(400);
  });
});

describe('POST .../databases/:resourceId/items/get', () => {
  it('reads an item, by attribute values or plain JSON values', async () => {
    await put({ item: { pk: { S: 'read' }, sk: { S: '1' }, v: { N: '7' } } });
    const res = await get({ pk: { S: 'read' }, sk: { S: '1' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ item: { pk: { S: 'read' }, sk: { S: '1' }, v: { N: '7' } } });
    expect((await get({ pk: 'read', sk: '1' })).body).toEqual(res.body);
  });

  it('answers 404 Item not found for a key without an item', async () => {
    const res = await get({ pk: 'nothing', sk: 'here' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Item not found' });
  });

  it('refuses a key that is not exactly the key attributes with 400 A key has only ....', async () => {
    for (const key of [
      { pk: 'a' },
      { pk: 'a', sk: 'b', c: 'd' },
      { pk: { N: '1' }, sk: 'b' },
      { pk: 1, sk: 'b' },
      {},
    ]) {
      const res = await get(key);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(KEY_ONLY);
    }
    const numbers = await newDatabase(p, { partitionKey: { name: 'id', type: 'N' }, sortKey: null });
    const wrong = await get({ id: 'x' }, numbers.path);
    expect(wrong.body).toEqual({ error: 'A key has only id (N).' });
    await put({ item: { id: { N: '42' }, v: { S: 'n' } } }, numbers.path);
    expect((await get({ id: 42 }, numbers.path)).body.item.v).toEqual({ S: 'n' });
    expect((await get({ id: '42' }, numbers.path)).status).toBe(200);
  });

  it('refuses a body without a key with 400 Invalid request', async () => {
    const res = await p.post(`${db.path}/items/get`, {});
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('key');
  });
});

describe('POST .../databases/:resourceId/items/delete', () => {
  it('deletes an item (204), and answers 204 for an item that is not there', async () => {
    await put({ item: { pk: { S: 'del' }, sk: { S: '1' } } });
    const res = await del({ pk: { S: 'del' }, sk: { S: '1' } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await get({ pk: 'del', sk: '1' })).status).toBe(404);
    expect((await del({ pk: 'del', sk: '1' })).status).toBe(204);
  });

  it('refuses a wrong key with 400 A key has only ....', async () => {
    const res = await del({ pk: 'a' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(KEY_ONLY);
  });
});

describe('the database behind the item routes', () => {
  it('answers 404 Database not found for an unknown database, a bucket or another organization’s database', async () => {
    const bucket = await p.post(`/v1/orgs/${p.org.orgId}/resources`, { type: 'bucket', name: `b-${Date.now()}` });
    const other = await p.newOrg();
    const foreign = await p.post(
      `/v1/orgs/${other.org.orgId}/resources`,
      { type: 'database', name: 'theirs' },
      {
        token: other.owner.token,
      },
    );
    for (const id of [someId('res_'), bucket.body.resource.resourceId, foreign.body.resource.resourceId]) {
      const path = `/v1/orgs/${p.org.orgId}/databases/${id}`;
      for (const res of [
        await get({ pk: 'a', sk: 'b' }, path),
        await put({ item: { pk: { S: 'a' }, sk: { S: 'b' } } }, path),
        await del({ pk: 'a', sk: 'b' }, path),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Database not found' });
      }
    }
  });

  it('answers 404 Table not found for a database whose provisioning failed', async () => {
    const resourceId = someId('res_');
    await putRecord(p.org.orgId, `RES#database#${resourceId}`, {
      resourceId,
      type: 'database',
      name: 'failed',
      status: 'error',
      error: 'LimitExceededException: too many tables',
      region: 'eu-central-1',
      orgId: p.org.orgId,
      createdBy: p.owner.userId,
      location: 'fra',
      physicalName: `cust-${resourceId}`,
      keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'S' } },
      version: 1,
    });
    const path = `/v1/orgs/${p.org.orgId}/databases/${resourceId}`;
    for (const res of [await get({ pk: 'a', sk: 'b' }, path), await p.post(`${path}/scan`, {})]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Table not found' });
    }
  });

  it('answers the mapping table’s 404 when the table was deleted outside the platform', async () => {
    const gone = await newDatabase(p);
    await put({ item: { pk: { S: 'a' }, sk: { S: 'b' } } }, gone.path);
    await dynamo.send(new DeleteTableCommand({ TableName: gone.physicalName }));
    const res = await get({ pk: 'a', sk: 'b' }, gone.path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found in the backend. It may have been deleted outside the platform.' });
    // Deleted through the platform meanwhile: the record answers.
    expect((await p.delete(gone.path)).status).toBe(204);
    expect((await get({ pk: 'a', sk: 'b' }, gone.path)).body).toEqual({ error: 'Database not found' });
  });

  it('needs resources:write to write and resources:read to read', async () => {
    const reader = await p.apiKey(['resources:read']);
    await put({ item: { pk: { S: 'scoped' }, sk: { S: '1' } } });
    expect((await p.post(`${db.path}/items/get`, { key: { pk: 'scoped', sk: '1' } }, { token: reader })).status).toBe(
      200,
    );
    const write = await p.put(`${db.path}/items`, { item: { pk: { S: 'x' }, sk: { S: 'y' } } }, { token: reader });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ error: 'Missing scope resources:write' });
  });
});
