import { invalid } from '../../kernel/ground/errors';
import type { AttributeValue } from '../../ports/customer-tables/commands';
import type { KeyAttribute, KeySchema } from '../resources/schema';
import { valueIn } from './attributes';

export const FILTER_OPS = [
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'begins_with',
  'contains',
  'between',
  'exists',
  'not_exists',
] as const;
export const SORT_OPS = ['=', '<', '<=', '>', '>=', 'begins_with', 'between'] as const;

export interface Filter {
  attribute: string;
  op: (typeof FILTER_OPS)[number];
  value?: unknown;
  value2?: unknown;
}

export interface SortCondition {
  op: (typeof SORT_OPS)[number];
  value?: unknown;
  value2?: unknown;
}

export const MISSING_VALUE = 'A condition is missing its value.';
export const NO_SORT_KEY = 'This table or index has no sort key.';
export const SORT_MISSING_VALUE = 'The sort key condition is missing a value.';
export const BEGINS_WITH_TYPES = 'begins_with works on string and binary sort keys only.';

/**
 * The placeholders of one request. Attribute names and values reach DynamoDB only as `#n0`/`:v0`
 * placeholders: nothing a caller sends is ever spliced into an expression's text.
 */
export class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, AttributeValue> = {};
  private readonly byName = new Map<string, string>();
  private count = 0;

  name(attribute: string): string {
    let p = this.byName.get(attribute);
    if (!p) {
      p = `#n${this.byName.size}`;
      this.byName.set(attribute, p);
      this.names[p] = attribute;
    }
    return p;
  }

  value(v: AttributeValue): string {
    const p = `:v${this.count++}`;
    this.values[p] = v;
    return p;
  }

  /** The two maps for the SDK, left out when empty (DynamoDB refuses empty maps). */
  get maps() {
    return {
      ...(Object.keys(this.names).length ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

const COMPARISONS = new Set(['=', '<>', '<', '<=', '>', '>=']);

function condition(p: Placeholders, f: Filter, i: number): string {
  const n = p.name(f.attribute);
  if (f.op === 'exists') return `attribute_exists(${n})`;
  if (f.op === 'not_exists') return `attribute_not_exists(${n})`;
  if (f.value === undefined || (f.op === 'between' && f.value2 === undefined)) throw invalid(MISSING_VALUE);
  const v = p.value(valueIn(f.value, ['filters', i, 'value']));
  if (COMPARISONS.has(f.op)) return `${n} ${f.op} ${v}`;
  if (f.op === 'begins_with') return `begins_with(${n}, ${v})`;
  if (f.op === 'contains') return `contains(${n}, ${v})`;
  return `${n} BETWEEN ${v} AND ${p.value(valueIn(f.value2, ['filters', i, 'value2']))}`;
}

/** The filter expression of `filters` joined by `match` (`all`: AND, `any`: OR), or undefined. */
export function filterExpression(p: Placeholders, filters: Filter[], match: 'all' | 'any'): string | undefined {
  if (filters.length === 0) return undefined;
  const parts = filters.map((f, i) => condition(p, f, i));
  if (parts.length === 1) return parts[0];
  return parts.map((c) => `(${c})`).join(match === 'any' ? ' OR ' : ' AND ');
}

/** The projection expression of `attributes` (each name once), or undefined. */
export function projectionExpression(p: Placeholders, attributes: string[] | undefined): string | undefined {
  if (!attributes || attributes.length === 0) return undefined;
  return [...new Set(attributes)].map((a) => p.name(a)).join(', ');
}

const TYPE_NAMES = { S: 'string', N: 'number', B: 'binary' } as const;

function keyValue(v: unknown, key: KeyAttribute, role: 'partition' | 'sort', path: (string | number)[]) {
  const value = valueIn(v, path);
  if (!(key.type in value)) throw invalid(`The ${role} key ${key.name} is a ${TYPE_NAMES[key.type]} (${key.type}).`);
  return value;
}

/** The key condition of a query: the partition value, and a sort key condition when given. */
export function keyCondition(
  p: Placeholders,
  keys: KeySchema,
  partition: unknown,
  sort: SortCondition | undefined,
): string {
  const pk = `${p.name(keys.partitionKey.name)} = ${p.value(keyValue(partition, keys.partitionKey, 'partition', ['partition']))}`;
  if (!sort) return pk;
  const sk = keys.sortKey;
  if (!sk) throw invalid(NO_SORT_KEY);
  if (sort.value === undefined || (sort.op === 'between' && sort.value2 === undefined)) {
    throw invalid(SORT_MISSING_VALUE);
  }
  if (sort.op === 'begins_with' && sk.type === 'N') throw invalid(BEGINS_WITH_TYPES);
  const n = p.name(sk.name);
  const v = p.value(keyValue(sort.value, sk, 'sort', ['sort', 'value']));
  if (sort.op === 'begins_with') return `${pk} AND begins_with(${n}, ${v})`;
  if (sort.op === 'between') {
    return `${pk} AND ${n} BETWEEN ${v} AND ${p.value(keyValue(sort.value2, sk, 'sort', ['sort', 'value2']))}`;
  }
  return `${pk} AND ${n} ${sort.op} ${v}`;
}
