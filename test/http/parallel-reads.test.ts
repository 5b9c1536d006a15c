import { dynamo } from '../../shared/kernel/store/client';
import { type Db, newDatabase, seed } from '../databases/helpers';
import { TestPlatform } from '../helpers/platform';

/**
 * Reads authorize in parallel: a read route's data call starts together with authentication's
 * round trip (not after it), and answers nothing until authorization has passed. A refused caller
 * gets the same answer as before; a request whose credential is malformed, or whose JWT signature
 * fails, starts no DynamoDB call at all. Observed on the handlers' own DynamoDB client (they run
 * in this process behind the local gateway), with a middleware that notes each call's start and end.
 */
let p: TestPlatform;
let database: Db;

interface Call {
  command: string;
  start: number;
  end: number;
}
let calls: Call[] = [];
let clock = 0;

beforeAll(async () => {
  p = await TestPlatform.start();
  database = await newDatabase(p);
  await seed(database.physicalName, [{ pk: { S: 'p1' }, sk: { S: 's1' }, n: { N: '1' } }]);
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const call: Call = { command: context.commandName as string, start: clock++, end: -1 };
      calls.push(call);
      try {
        return await next(args);
      } finally {
        call.end = clock++;
      }
    },
    { step: 'initialize', name: 'parallelReadsProbe' },
  );
});
afterAll(async () => {
  dynamo.middlewareStack.remove('parallelReadsProbe');
  await p.close();
});
beforeEach(() => {
  calls = [];
});

const query = (token: string | null) =>
  p.post(`${database.path}/query`, { partition: { S: 'p1' } }, { token, record: false });

it("a member's query starts before authentication's read has ended, and answers the page", async () => {
  await query(p.owner.token); // the database's record is now known to the function
  calls = [];
  const res = await query(p.owner.token);
  expect(res.status).toBe(200);
  expect(res.body.items).toEqual([{ pk: { S: 'p1' }, sk: { S: 's1' }, n: { N: '1' } }]);
  const auth = calls.find((c) => c.command === 'BatchGetItemCommand');
  const data = calls.find((c) => c.command === 'QueryCommand');
  expect(auth && data).toBeTruthy();
  // Both were sent before either answered.
  expect(data?.start).toBeLessThan(auth?.end as number);
  expect(auth?.start).toBeLessThan(data?.end as number);
});

it('the same holds for an API key', async () => {
  const key = await p.apiKey(['resources:read']);
  await query(key);
  calls = [];
  expect((await query(key)).status).toBe(200);
  const auth = calls.find((c) => c.command === 'BatchGetItemCommand');
  const data = calls.find((c) => c.command === 'QueryCommand');
  expect(data?.start).toBeLessThan(auth?.end as number);
});

it('a refused caller gets the refusal and nothing of the data', async () => {
  const outsider = await p.newOrg();
  const res = await query(outsider.owner.token);
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ error: 'Organization not found' });
  const noScope = await p.apiKey(['projects:read']);
  const refused = await query(noScope);
  expect(refused.status).toBe(403);
  expect(refused.body).toEqual({ error: 'Missing scope resources:read' });
  expect(refused.text).not.toContain('p1');
});

it('a malformed credential, an unknown key shape or a JWT with a bad signature starts no DynamoDB call', async () => {
  const [head, payload] = p.owner.token.split('.') as [string, string, string];
  const forged = `${head}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
  for (const token of [forged, 'not-a-token', 'app_api_short', 'app_api_has spaces and more characters here']) {
    calls = [];
    const res = await query(token);
    expect(res.status).toBe(401);
    expect(calls).toEqual([]);
  }
  calls = [];
  expect((await query(null)).status).toBe(401);
  expect(calls).toEqual([]);
});

it('invalid input starts no data call and keeps its 400 after authorization', async () => {
  const res = await p.post(`${database.path}/query`, { partition: { S: 'p1' }, limit: 0 }, { record: false });
  expect(res.status).toBe(400);
  expect(calls.map((c) => c.command)).toEqual(['BatchGetItemCommand']);
  // Unauthenticated, the 401 still comes first.
  const anonymous = await p.post(`${database.path}/query`, { limit: 0 }, { token: null, record: false });
  expect(anonymous.status).toBe(401);
});

it('writes stay sequential: the data call waits for authorization', async () => {
  await p.put(`${database.path}/items`, { item: { pk: { S: 'w' }, sk: { S: '1' } } });
  calls = [];
  const res = await p.put(`${database.path}/items`, { item: { pk: { S: 'w' }, sk: { S: '2' } } });
  expect(res.status).toBe(201);
  const auth = calls.find((c) => c.command === 'BatchGetItemCommand');
  const write = calls.find((c) => c.command === 'PutItemCommand');
  expect(write?.start).toBeGreaterThan(auth?.end as number);
});

it('GET /members is two round trips, sent together: authentication and one Query of members, teams and invites', async () => {
  const res = await p.get(`/v1/orgs/${p.org.orgId}/members`, { record: false });
  expect(res.status).toBe(200);
  expect(res.body.members.map((m: { userId: string }) => m.userId)).toContain(p.owner.userId);
  expect(calls.map((c) => c.command).sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
  const [first, second] = calls as [Call, Call];
  expect(second.start).toBeLessThan(first.end);
});
