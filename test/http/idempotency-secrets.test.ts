import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';

/**
 * A create that answers a secret once, sent with `Idempotency-Key`: the replay answers the same
 * body, the secret included, to the same caller; the kept item in the table holds no secret in
 * clear (it is sealed with the secrets port's envelope, bound to the organization and caller).
 */
let p: TestPlatform;
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
const uniqueKey = () => `secret-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

/** The raw idempotency item of the owner's key in the test organization, as the table stores it. */
async function keptItem(key: string): Promise<Record<string, unknown>> {
  const Key = { pk: `IDEM#${p.org.orgId}#${p.owner.userId}`, sk: key };
  const { Item } = await db.send(new GetCommand({ TableName: TABLE(), Key, ConsistentRead: true }));
  if (!Item) throw new Error(`no idempotency item for ${key}`);
  return Item;
}

const cases: [string, () => string, () => unknown][] = [
  ['an API key', () => `/v1/orgs/${p.org.orgId}/keys`, () => ({ name: 'ci', scopes: ['projects:read'] })],
  [
    'a webhook endpoint',
    () => `/v1/orgs/${p.org.orgId}/webhooks`,
    () => ({ url: 'https://93.184.215.14/hook', events: ['issue.assigned'] }),
  ],
];

it.each(cases)('%s: the replay answers the secret again; the kept item holds it sealed', async (_, path, body) => {
  const key = uniqueKey();
  const first = await p.post(path(), body(), withKey(key));
  expect(first.status).toBe(201);
  const secret = first.body.secret as string;
  expect(secret.length).toBeGreaterThan(16);

  const item = await keptItem(key);
  expect(item.status).toBe('done');
  const stored = JSON.stringify(item);
  expect(stored).not.toContain(secret);
  // Nor any other part of the answer: the whole response is sealed, not only the secret.
  expect(stored).not.toContain(first.text.slice(0, 40));
  expect(item).not.toHaveProperty('response');

  const again = await p.post(path(), body(), withKey(key));
  expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
  expect(again.body).toEqual(first.body);
  expect(again.body.secret).toBe(secret);
});

it("a kept answer moved under another caller's key does not open there", async () => {
  const key = uniqueKey();
  const body = { name: 'moved', scopes: ['projects:read'] };
  const first = await p.post(`/v1/orgs/${p.org.orgId}/keys`, body, withKey(key));
  expect(first.status).toBe(201);
  const item = await keptItem(key);
  // Another member's claim of the same key, with the owner's sealed answer copied in.
  const admin = await p.person('admin');
  await db.send(new PutCommand({ TableName: TABLE(), Item: { ...item, pk: `IDEM#${p.org.orgId}#${admin.userId}` } }));
  const theirs = await p.post(`/v1/orgs/${p.org.orgId}/keys`, body, { ...withKey(key), token: admin.token });
  expect(theirs.status).toBe(500);
  expect(theirs.text).not.toContain(first.body.secret);
});
