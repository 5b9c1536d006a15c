import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { TestPlatform } from '../helpers/platform';
import { type Db, indexesActive, newDatabase, seed } from './helpers';

/**
 * Fuzzing the scan and query bodies (fast-check): whatever a caller sends, well-formed or not,
 * the answer is a 200 page or a 4xx, never a 5xx. The seed is fixed so a run is reproducible;
 * FUZZ_SEED=<n> FUZZ_RUNS=<n> explore further.
 */
let p: TestPlatform;
let db: Db;
let cursors: { scan: string; query: string };

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

beforeAll(async () => {
  p = await TestPlatform.start();
  db = await newDatabase(p);
  const items: Record<string, AttributeValue>[] = Array.from({ length: 40 }, (_, i) => ({
    pk: { S: `p${i % 3}` },
    sk: { S: `s${String(i).padStart(2, '0')}` },
    n: { N: String(i) },
    name: { S: `name-${i}` },
    team: { S: `t${i % 4}` },
    ...(i % 2 ? { flag: { BOOL: true } } : { tags: { SS: ['a', 'b'] } }),
    doc: { M: { nested: { L: [{ N: '1' }, { S: 'x' }] } } },
  }));
  await seed(db.physicalName, items);
  const index = await p.post(`${db.path}/indexes`, {
    name: 'byTeam',
    partitionKey: { name: 'team', type: 'S' },
    sortKey: { name: 'n', type: 'N' },
    projection: { type: 'ALL' },
  });
  expect(index.status).toBe(202);
  await indexesActive(db.physicalName);
  cursors = {
    scan: (await p.post(`${db.path}/scan`, { limit: 2 })).body.cursor,
    query: (await p.post(`${db.path}/query`, { limit: 2, partition: { S: 'p1' } })).body.cursor,
  };
});
afterAll(() => p.close());

/** Mostly what a caller means, now and then anything: so most requests get as far as the table. */
const mostly = <T>(valid: fc.Arbitrary<T>, wild: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 9, arbitrary: valid as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: wild });
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
/** Present about one time in four. */
const rarely = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: a as fc.Arbitrary<T | undefined> },
  );

const text = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('pk', 'sk', 'n', 'name', 'team', 'flag', 'tags', 'doc', 'missing') },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', 'a.b', '#n0', ':v0', 'x = :v OR #y', 'size(n)', '\u0000', 'x'.repeat(300)),
  },
);
const numberText = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -5, max: 50 }).map(String) },
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('1e126', '-1e-131', '1'.repeat(39), '0.0', '-0', '+5', '.5', '5.', '1e', 'NaN', ''),
);
const base64 = fc.oneof(fc.base64String({ maxLength: 12 }), fc.constantFrom('', '====', 'not base64', 'AQ='));
const stringValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('p0', 'p1', 's0', 's1', 's05', 'name-1', 't1', 'a', 'x') },
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Attribute values: mostly well-formed, sometimes not, sometimes anything at all. */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 8, arbitrary: fc.record({ S: stringValue }) },
    { weight: 6, arbitrary: fc.record({ N: numberText }) },
    fc.record({ B: base64 }),
    fc.record({ BOOL: fc.boolean() }),
    fc.record({ NULL: fc.oneof(fc.constant(true), fc.anything()) }),
    fc.record({ M: fc.dictionary(text, tie('value'), { maxKeys: 3 }) }),
    fc.record({ L: fc.array(tie('value'), { maxLength: 3 }) }),
    fc.record({ SS: fc.array(stringValue, { maxLength: 3 }) }),
    fc.record({ NS: fc.array(numberText, { maxLength: 3 }) }),
    fc.record({ BS: fc.array(base64, { maxLength: 3 }) }),
    fc.record({ S: text, N: numberText }),
    fc.anything({ maxDepth: 2 }),
  ),
}));

const op = (ops: readonly string[]) => mostly(fc.constantFrom(...ops), fc.string());
const FILTER_OPS = ['=', '<>', '<', '<=', '>', '>=', 'begins_with', 'contains', 'between', 'exists', 'not_exists'];
const SORT_OPS = ['=', '<', '<=', '>', '>=', 'begins_with', 'between'];

const filter = fc.record(
  { attribute: text, op: op(FILTER_OPS), value: maybe(value), value2: maybe(value) },
  { requiredKeys: ['attribute', 'op'] },
);

const page = {
  index: rarely(mostly(fc.constantFrom('byTeam', 'byTeam', 'byNothing'), text)),
  limit: maybe(mostly(fc.integer({ min: 1, max: 100 }), fc.oneof(fc.integer(), fc.double(), fc.string()))),
  cursor: rarely(mostly(fc.constantFrom('scan', 'query'), fc.string({ maxLength: 40 }))),
  filters: maybe(
    mostly(
      fc.array(filter, { maxLength: 3 }),
      fc.oneof(fc.array(filter, { maxLength: 12 }), fc.anything({ maxDepth: 1 })),
    ),
  ),
  match: maybe(mostly(fc.constantFrom('all', 'any'), fc.string())),
  projection: rarely(
    mostly(fc.array(text, { maxLength: 4 }), fc.oneof(fc.array(text, { maxLength: 55 }), fc.anything())),
  ),
};

const scanBody = fc.record(page, { requiredKeys: [] });
const queryBody = fc.record(
  {
    ...page,
    partition: mostly(fc.record({ S: fc.constantFrom('p0', 'p1', 't1', 't2') }), value),
    sort: maybe(
      fc.record(
        { op: op(SORT_OPS), value: mostly(fc.record({ S: stringValue }), value), value2: maybe(value) },
        { requiredKeys: ['op'] },
      ),
    ),
    forward: maybe(mostly(fc.boolean(), fc.anything({ maxDepth: 0 }))),
  },
  { requiredKeys: [] },
);

/** The fixed words `scan`/`query` stand for a real cursor of that kind (so both paths are reached). */
function withCursor(body: Record<string, unknown>): Record<string, unknown> {
  if (body.cursor === 'scan' || body.cursor === 'query') return { ...body, cursor: cursors[body.cursor] };
  return body;
}

async function never5xx(route: 'scan' | 'query', body: unknown): Promise<void> {
  const payload = typeof body === 'object' && body !== null && !Array.isArray(body) ? withCursor(body as never) : body;
  const res = await p.post(`${db.path}/${route}`, payload);
  if (res.status >= 500) throw new Error(`${route} answered ${res.status} ${res.text} to ${JSON.stringify(payload)}`);
  expect([200, 400]).toContain(res.status);
  if (res.status === 200) {
    expect(Array.isArray(res.body.items)).toBe(true);
    expect(typeof res.body.count).toBe('number');
    expect(typeof res.body.scanned).toBe('number');
  } else expect(typeof res.body.error).toBe('string');
}

describe('fuzzed page bodies', () => {
  it('scan never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(scanBody, (b) => never5xx('scan', b)),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('query never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(queryBody, (b) => never5xx('query', b)),
      { numRuns: RUNS * 2, seed: SEED },
    );
  });

  it('neither does any JSON body at all', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<'scan' | 'query'>('scan', 'query'), fc.jsonValue({ maxDepth: 3 }), (r, b) =>
        never5xx(r, b),
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('writing and reading items never answers 5xx either', async () => {
    const item = fc
      .dictionary(text, value, { maxKeys: 5 })
      .map((rest) => ({ pk: { S: 'fz' }, sk: { S: 'a' }, ...rest }));
    const body = fc.record(
      {
        item: mostly(item, fc.anything({ maxDepth: 2 })),
        original: rarely(mostly(item, fc.anything({ maxDepth: 2 }))),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, value, async (b, key) => {
        for (const res of [
          await p.put(`${db.path}/items`, b),
          await p.post(`${db.path}/items/get`, { key: { pk: key, sk: { S: 'a' } } }),
          await p.post(`${db.path}/items/delete`, { key: { pk: { S: 'fz' }, sk: key } }),
        ]) {
          if (res.status >= 500) throw new Error(`answered ${res.status} ${res.text} to ${JSON.stringify(b)}`);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('and many requests reach the table: not every answer is a refusal', async () => {
    const statuses = await fc.sample(queryBody, { numRuns: 100, seed: SEED }).reduce(
      async (acc, b) => {
        const res = await p.post(`${db.path}/query`, withCursor(b as never));
        (await acc).push(res.status);
        return acc;
      },
      Promise.resolve([] as number[]),
    );
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(10);
  });
});
