import fc from 'fast-check';

/**
 * What the route fuzz sends (test/http/routes-fuzz.test.ts): path segments, query values and JSON
 * bodies, mostly of the shape a route expects (bodies from its schema as JSON Schema) so that most
 * requests get past validation, and now and then anything a caller could send.
 */

/** Segments sent as they are: not valid percent-encoding, dot segments, encoded slashes, NUL. */
export const RAW_SEGMENTS = [
  '%zz',
  '%E0%A4%A',
  '%',
  '%ED%A0%80',
  '%FF',
  '%C0%AF',
  '%00',
  '%2e%2e',
  '.',
  'a%2Fb',
  '%20',
  '%0A',
];

/** encodeURIComponent, or the UTF-8 of a lone surrogate (which it refuses) sent raw. */
export const encode = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

/** Names that are special to JavaScript objects, and other keys a route never declares. */
export const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'a\u0000b'];

/** Text that has broken services before: NUL, dot segments, digits and words a parser may convert. */
const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'docs/\u0000/a',
  '\n',
  '\t',
  '.',
  '..',
  '../x',
  'a/../../x',
  './a',
  '/a',
  'a//b',
  '/',
  '%zz',
  '\ud800',
  '💥',
  '0x10',
  '1e2',
  '9',
  '-1',
  'null',
  'true',
  '<a>&amp;</a>',
  '{{x}} $(x)',
  'x'.repeat(300),
  'x'.repeat(5000),
  ...ODD_KEYS,
];

/** Text a field may receive: the list above, then any text. */
export const oddText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(70_000)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

/** Query text: as oddText, short enough for a request line (Node and API Gateway cap it near 10 KB). */
const oddQueryText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

/** Numbers at the edges: huge, tiny, negative, fractional, past 2^53. */
export const oddNumber = fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e21, 1e308, -1e308, 5e-324);

/** `depth` nested arrays or objects around a value. */
const nested = (depth: number, inObject: boolean): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = inObject ? { a: v } : [v];
  return v;
};

/** Any value at all: JSON of every kind, odd text and numbers, deep nesting, prototype names. */
export const wild: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: oddText },
  { weight: 2, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { S: 'x' }, { M: {} }, { L: [] }) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 99 }).chain((d) => fc.boolean().map((o) => nested(d, o))) },
  { weight: 1, arbitrary: objectWith(fc.constantFrom(...ODD_KEYS), fc.jsonValue({ maxDepth: 1 })) },
);

/** An object with the given keys as own properties (so `__proto__` is a key, as JSON.parse makes it). */
export function objectWith(key: fc.Arbitrary<string>, value: fc.Arbitrary<unknown>, max = 4) {
  return fc.array(fc.tuple(key, value), { maxLength: max }).map((entries) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
    return out;
  });
}

/** Raw bodies: not JSON, JSON.parse edge cases, and numbers JavaScript can't hold. */
export const RAW_BODIES = [
  '',
  '{',
  'null',
  '[]',
  '""',
  '0',
  '\u0000',
  '{"a":1e400}',
  '{"limit":1e400,"days":1e400,"size":1e400}',
  '{"limit":123456789012345678901234567890}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '\ufeff{}',
  '{"a":"\\ud800"}',
];

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

const matching = (pattern: string): fc.Arbitrary<string> | undefined => {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return undefined;
  }
};

/** A string of the schema's shape: its enum, its pattern, its length bounds. */
function stringOf(s: JsonSchema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [];
  const pattern = s.pattern ? matching(s.pattern) : undefined;
  if (pattern) options.push(pattern);
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 40, 80));
  if (!pattern) options.push(fc.string({ minLength: min, maxLength: max }));
  options.push(fc.string({ minLength: min, maxLength: max, unit: 'grapheme-ascii' }));
  return fc.oneof(...options);
}

function numberOf(s: JsonSchema, integer: boolean): fc.Arbitrary<unknown> {
  const min = s.minimum ?? -1000;
  const max = s.maximum ?? 1000;
  const inRange = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  return fc.oneof({ weight: 4, arbitrary: inRange }, fc.constantFrom(min - 1, max + 1), oddNumber);
}

/** A value of the schema's shape, with a wild value in its place now and then. */
export function fromSchema(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6) return wild;
  return fc.oneof({ weight: 12, arbitrary: shaped(s, depth) }, { weight: 1, arbitrary: wild });
}

function shaped(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => fromSchema(a, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object':
      return objectOf(s, depth);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.max(min, Math.min(s.maxItems ?? 5, 8));
      return fc.oneof(
        { weight: 5, arbitrary: fc.array(fromSchema(s.items, depth + 1), { minLength: min, maxLength: max }) },
        { weight: 1, arbitrary: fc.constant(Array.from({ length: max + 1 }, () => null)) },
      );
    }
    case 'string':
      return stringOf(s);
    case 'integer':
      return numberOf(s, true);
    case 'number':
      return numberOf(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return wild;
  }
}

function objectOf(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const fields = props.map(([name, p]) =>
    fc
      .tuple(fc.constant(name), fromSchema(p, depth + 1), fc.integer({ min: 0, max: 9 }))
      .map(([k, v, roll]) => ((required.has(k) ? roll > 0 : roll > 4) ? ([k, v] as const) : undefined)),
  );
  const extraKey = s.propertyNames ? fromSchema(s.propertyNames, depth + 1) : fc.string({ maxLength: 10 });
  const record =
    typeof s.additionalProperties === 'object'
      ? objectWith(
          fc.oneof(
            { weight: 4, arbitrary: extraKey.map((k) => (typeof k === 'string' ? k : (JSON.stringify(k) ?? ''))) },
            fc.constantFrom(...ODD_KEYS),
          ),
          fromSchema(s.additionalProperties, depth + 1),
          6,
        )
      : fc.constant({});
  const extras = fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, objectWith(fc.constantFrom(...ODD_KEYS), wild, 2));
  return fc.tuple(fc.tuple(...fields), record, extras).map(([declared, rec, extra]) => {
    const out: Record<string, unknown> = {};
    const put = (k: string, v: unknown) =>
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
    for (const [k, v] of Object.entries(rec)) put(k, v);
    for (const f of declared) if (f) put(f[0], f[1]);
    for (const [k, v] of Object.entries(extra)) put(k, v);
    return out;
  });
}

/** A query value: digits and what is not quite digits, enum members, odd text. */
export function queryValue(s: JsonSchema | undefined): fc.Arbitrary<string> {
  const own = s?.enum?.map(String) ?? [];
  return fc.oneof(
    { weight: 3, arbitrary: own.length ? fc.constantFrom(...own) : fc.nat({ max: 150 }).map(String) },
    { weight: 2, arbitrary: fc.nat({ max: 150 }).map(String) },
    {
      weight: 3,
      arbitrary: fc.constantFrom('0x10', '1e2', ' ', '', '-1', '1.5', '007', '99999999999999999999', '+5', 'NaN'),
    },
    { weight: 3, arbitrary: oddQueryText },
  );
}

type Path = (string | number)[];

/** The path of every part of a JSON value, the value itself first. */
function pathsOf(value: unknown, path: Path = []): Path[] {
  const out: Path[] = [path];
  if (typeof value !== 'object' || value === null) return out;
  for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...path, Array.isArray(value) ? Number(k) : k]));
  return out;
}

/** `value` with the part at `path` replaced (`how` 0), given an extra member (1) or removed (2). */
function change(value: unknown, path: Path, how: number, wildValue: unknown, key: string): unknown {
  if (path.length === 0) return how === 1 && typeof value === 'object' && value !== null ? { ...value } : wildValue;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as typeof parent;
  const last = path[path.length - 1] as string | number;
  const node = parent[last];
  if (how === 2) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (how === 1 && Array.isArray(node)) node.push(wildValue);
  else if (how === 1 && typeof node === 'object' && node !== null) {
    Object.defineProperty(node, key, { value: wildValue, enumerable: true, writable: true });
  } else parent[last] = wildValue;
  return copy;
}

/** An odd value of the same kind as `node` (odd text for text…), or any value at all. */
const oddLike = (node: unknown): fc.Arbitrary<unknown> => {
  if (typeof node === 'string') return fc.oneof({ weight: 3, arbitrary: oddText }, wild);
  if (typeof node === 'number') return fc.oneof({ weight: 3, arbitrary: oddNumber }, wild);
  return wild;
};

/** A valid `seed` with one part changed: an odd value in its place, an odd member added, or removed. */
export function mutated(seed: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(seed);
  const at = (path: Path) => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], seed);
  return fc
    .tuple(fc.nat({ max: paths.length - 1 }), fc.nat({ max: 5 }), fc.constantFrom(...ODD_KEYS))
    .chain(([i, roll, key]) => {
      const path = paths[i] as Path;
      // Mostly a replacement (3 in 6), then an added member, then a removal.
      const how = roll < 3 ? 0 : roll < 5 ? 1 : 2;
      return oddLike(at(path)).map((value) => change(seed, path, how, value, key));
    });
}
