import { type FieldIssue, invalid, invalidRequest } from '../../kernel/ground/errors';
import type { AttributeValue } from '../../ports/customer-tables/commands';
import type { KeyAttribute, KeySchema } from '../resources/schema';

/**
 * Attribute values as the API carries them (spec part A, "Attribute value"): DynamoDB JSON, with
 * binary as base64 text. The SDK wants binary as bytes, so `B` and `BS` are the only values that
 * are converted; everything else passes through as it is, never marshalled.
 */
export type JsonValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { M: Record<string, JsonValue> }
  | { L: JsonValue[] }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] };

export type JsonItem = Record<string, JsonValue>;
export type SdkItem = Record<string, AttributeValue>;

/** DynamoDB's nesting limit for documents. */
const MAX_DEPTH = 32;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS'] as const;

/** Strings DynamoDB stores must be valid UTF-8: a lone surrogate is refused here, not by the backend. */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();
const NOT_TEXT = 'Text must be valid Unicode (no lone surrogates).';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pathOf = (path: (string | number)[]) => path.map(String).join('.');

/**
 * Checks one attribute value and converts it for the SDK; problems are collected as validation
 * issues (answered 400 `Invalid request`, like any schema failure), never sent to the backend.
 */
function toSdk(v: unknown, path: (string | number)[], issues: FieldIssue[], depth: number): AttributeValue | undefined {
  const fail = (message: string) => {
    issues.push({ path: pathOf(path), message });
    return undefined;
  };
  if (depth > MAX_DEPTH) return fail(`Values nest at most ${MAX_DEPTH} levels deep.`);
  if (!isObject(v)) return fail('An attribute value is an object such as {"S": "text"}.');
  const names = Object.keys(v);
  const type = names[0];
  if (names.length !== 1 || !(TYPES as readonly string[]).includes(type as string)) {
    return fail(`An attribute value has exactly one of ${TYPES.join(', ')}.`);
  }
  const x = v[type as string];
  const strings = (check?: RegExp, what?: string): string[] | undefined => {
    if (!Array.isArray(x) || x.some((e) => typeof e !== 'string')) return fail(`${type} is an array of strings.`);
    if ((x as string[]).some((e) => !wellFormed(e))) return fail(NOT_TEXT);
    if (check && (x as string[]).some((e) => !check.test(e))) return fail(`${type} holds ${what} only.`);
    return x as string[];
  };
  switch (type) {
    case 'S':
      if (typeof x !== 'string') return fail('S is a string.');
      return wellFormed(x) ? { S: x } : fail(NOT_TEXT);
    case 'N':
      return typeof x === 'string' && NUMBER.test(x) ? { N: x } : fail('N is a number written as a string.');
    case 'B':
      return typeof x === 'string' && BASE64.test(x) ? { B: Buffer.from(x, 'base64') } : fail('B is base64 text.');
    case 'BOOL':
      return typeof x === 'boolean' ? { BOOL: x } : fail('BOOL is true or false.');
    case 'NULL':
      return x === true ? { NULL: true } : fail('NULL is true.');
    case 'SS': {
      const list = strings();
      return list && { SS: list };
    }
    case 'NS': {
      const list = strings(NUMBER, 'numbers written as strings');
      return list && { NS: list };
    }
    case 'BS': {
      const list = strings(BASE64, 'base64 text');
      return list && { BS: list.map((e) => Buffer.from(e, 'base64')) };
    }
    case 'L': {
      if (!Array.isArray(x)) return fail('L is an array of attribute values.');
      const out = x.map((e, i) => toSdk(e, [...path, 'L', i], issues, depth + 1));
      return out.every(Boolean) ? { L: out as AttributeValue[] } : undefined;
    }
    default: {
      if (!isObject(x)) return fail('M is an object of attribute values.');
      const out: SdkItem = {};
      let good = true;
      for (const [k, e] of Object.entries(x)) {
        if (!wellFormed(k)) return fail(NOT_TEXT);
        const c = toSdk(e, [...path, 'M', k], issues, depth + 1);
        if (c) out[k] = c;
        else good = false;
      }
      return good ? { M: out } : undefined;
    }
  }
}

/** One attribute value from a request, for the SDK (400 `Invalid request` with the issues when bad). */
export function valueIn(v: unknown, path: (string | number)[]): AttributeValue {
  const issues: FieldIssue[] = [];
  const out = toSdk(v, path, issues, 1);
  if (!out) throw invalidRequest(issues);
  return out;
}

/** An item from a request, for the SDK. */
export function itemIn(v: unknown, path: string): SdkItem {
  const issues: FieldIssue[] = [];
  if (!isObject(v)) throw invalidRequest([{ path, message: 'An item is an object of attribute values.' }]);
  const out: SdkItem = {};
  for (const [k, e] of Object.entries(v)) {
    if (!wellFormed(k)) {
      issues.push({ path, message: NOT_TEXT });
      continue;
    }
    const c = toSdk(e, [path, k], issues, 1);
    if (c) out[k] = c;
  }
  if (issues.length > 0) throw invalidRequest(issues);
  return out;
}

const b64 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

/** An attribute value from the SDK, as the API answers it. */
export function valueOut(v: AttributeValue): JsonValue {
  if (v.B !== undefined) return { B: b64(v.B) };
  if (v.BS !== undefined) return { BS: v.BS.map(b64) };
  if (v.M !== undefined) return { M: itemOut(v.M) };
  if (v.L !== undefined) return { L: v.L.map(valueOut) };
  if (v.S !== undefined) return { S: v.S };
  if (v.N !== undefined) return { N: v.N };
  if (v.BOOL !== undefined) return { BOOL: v.BOOL };
  if (v.NULL !== undefined) return { NULL: true };
  if (v.SS !== undefined) return { SS: v.SS };
  if (v.NS !== undefined) return { NS: v.NS };
  return { NULL: true };
}

export function itemOut(item: SdkItem): JsonItem {
  const out: JsonItem = {};
  for (const [k, v] of Object.entries(item)) out[k] = valueOut(v);
  return out;
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** DynamoDB stores a number in about one byte per two significant digits, plus one. */
function numberSize(n: string): number {
  const digits = (n.replace(/^[+-]/, '').split(/[eE]/)[0] ?? '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberSize(v.N);
  if (v.B !== undefined) return v.B.byteLength;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS !== undefined) return v.SS.reduce((n, s) => n + utf8(s), 0);
  if (v.NS !== undefined) return v.NS.reduce((n, s) => n + numberSize(s), 0);
  if (v.BS !== undefined) return v.BS.reduce((n, b) => n + b.byteLength, 0);
  // Documents: 3 bytes of overhead, and 1 more per element.
  if (v.L !== undefined) return 3 + v.L.reduce((n, e) => n + 1 + valueSize(e), 0);
  if (v.M !== undefined) return 3 + Object.entries(v.M).reduce((n, [k, e]) => n + 1 + utf8(k) + valueSize(e), 0);
  return 0;
}

/**
 * The item's size as DynamoDB counts it against its 400 KB limit: attribute names plus values
 * (UTF-8 strings, binary bytes, numbers by significant digits, documents with their overhead).
 * DynamoDB's own figure differs by a few bytes at most for documents; the backend still has the
 * last word, and its refusal is a 400 through the mapping table.
 */
export function itemSize(item: SdkItem): number {
  return Object.entries(item).reduce((n, [k, v]) => n + utf8(k) + valueSize(v), 0);
}

export const MAX_ITEM_BYTES = 400 * 1024;

/** `pk (S) and sk (S)`: the key attributes, for the `A key has only ....` message. */
export function describeKey(keys: KeySchema): string {
  const one = (k: KeyAttribute) => `${k.name} (${k.type})`;
  return keys.sortKey ? `${one(keys.partitionKey)} and ${one(keys.sortKey)}` : one(keys.partitionKey);
}

export const keyMessage = (keys: KeySchema) => `A key has only ${describeKey(keys)}.`;

const keyAttributes = (keys: KeySchema): KeyAttribute[] =>
  keys.sortKey ? [keys.partitionKey, keys.sortKey] : [keys.partitionKey];

/**
 * A key value given in a request: an attribute value of the key's type, or the plain JSON
 * shorthand (`"a"` for S, `7` or `"7"` for N, base64 text for B).
 */
function keyValue(v: unknown, attr: KeyAttribute): AttributeValue | undefined {
  const wrapped = isObject(v) ? v : attr.type === 'N' && typeof v === 'number' ? { N: String(v) } : { [attr.type]: v };
  const issues: FieldIssue[] = [];
  const out = toSdk(wrapped, [], issues, 1);
  if (!out || !(attr.type in out)) return undefined;
  return out;
}

/**
 * The key of a request (`items/get`, `items/delete`): exactly the table's key attributes, each of
 * its type. Anything else is 400 `A key has only pk (S) and sk (S).`
 */
export function keyIn(v: unknown, keys: KeySchema): SdkItem {
  const attrs = keyAttributes(keys);
  if (!isObject(v) || Object.keys(v).length !== attrs.length) throw invalid(keyMessage(keys));
  const out: SdkItem = {};
  for (const a of attrs) {
    const value = Object.hasOwn(v, a.name) ? keyValue(v[a.name], a) : undefined;
    if (!value) throw invalid(keyMessage(keys));
    out[a.name] = value;
  }
  return out;
}

/** The key of an item: its key attributes must be there, each of its type. */
export function keyOfItem(item: SdkItem, keys: KeySchema): SdkItem {
  const out: SdkItem = {};
  for (const a of keyAttributes(keys)) {
    const value = item[a.name];
    if (!value || !(a.type in value)) throw invalid(keyMessage(keys));
    out[a.name] = value;
  }
  return out;
}

export const isWellFormed = wellFormed;

/** Deep equality of two attribute values as DynamoDB compares them (sets without order). */
export function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  return canonical(a) === canonical(b);
}

/** `1.50`, `+15e-1` and `1.5` are one number: digits without zeros at either end, and a power of ten. */
function normalNumber(n: string): string {
  let s = n.trim();
  const negative = s.startsWith('-');
  s = s.replace(/^[+-]/, '');
  const [mantissa = '', exponent = '0'] = s.split(/[eE]/);
  const [whole = '', fraction = ''] = mantissa.split('.');
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    power++;
  }
  return `${negative ? '-' : ''}${digits}e${power}`;
}

function canonical(v: AttributeValue): string {
  const j = valueOut(v) as Record<string, unknown>;
  const sortSet = (t: string) => [...(j[t] as string[])].sort();
  if ('SS' in j) return JSON.stringify({ SS: sortSet('SS') });
  if ('BS' in j) return JSON.stringify({ BS: sortSet('BS') });
  if ('NS' in j) return JSON.stringify({ NS: (j.NS as string[]).map(normalNumber).sort() });
  if ('N' in j) return JSON.stringify({ N: normalNumber(j.N as string) });
  if (v.M) {
    const entries = Object.entries(v.M).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{"M":{${entries.map(([k, e]) => `${JSON.stringify(k)}:${canonical(e)}`).join(',')}}}`;
  }
  if (v.L) return `{"L":[${v.L.map(canonical).join(',')}]}`;
  return JSON.stringify(j);
}

export function sameKey(a: SdkItem, b: SdkItem): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((n) => b[n] !== undefined && sameValue(a[n]!, b[n]!));
}
