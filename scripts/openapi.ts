import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  type JsonSchema,
  loadRouteTable,
  type OpenApiDocument,
  openApiDocument,
  operationsOf,
  type Parameter,
} from '../lib/openapi';

/**
 * `npx tsx scripts/openapi.ts`: writes `dist/openapi.json` (also written by `npm run build`) and
 * regenerates `client/operations.ts`, the typed client's table of operations. The client file is
 * committed; test/api/client.test.ts fails when it no longer matches the route table.
 */

const ROOT = resolve(__dirname, '..');
export const OPENAPI_FILE = join(ROOT, 'dist', 'openapi.json');
export const CLIENT_FILE = join(ROOT, 'client', 'operations.ts');

export async function buildDocument(): Promise<OpenApiDocument> {
  return openApiDocument(await loadRouteTable());
}

export async function writeOpenApi(file = OPENAPI_FILE): Promise<OpenApiDocument> {
  const doc = await buildDocument();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return doc;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name));

/** A TypeScript type for the JSON Schema subset `z.toJSONSchema` emits. */
export function tsType(schema: JsonSchema, indent = ''): string {
  if (typeof schema.$ref === 'string') return componentName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  for (const union of ['anyOf', 'oneOf'] as const) {
    const list = schema[union];
    if (Array.isArray(list)) return [...new Set(list.map((s) => tsType(s as JsonSchema, indent)))].join(' | ');
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => `(${tsType(s as JsonSchema, indent)})`).join(' & ');
  if (Array.isArray(schema.type)) {
    return schema.type.map((t) => tsType({ ...schema, type: t }, indent)).join(' | ');
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (Array.isArray(schema.prefixItems)) {
        return `[${schema.prefixItems.map((s) => tsType(s as JsonSchema, indent)).join(', ')}]`;
      }
      const item = schema.items ? tsType(schema.items as JsonSchema, indent) : 'unknown';
      return /^[\w.]+$/.test(item) ? `${item}[]` : `(${item})[]`;
    }
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

const COMPONENT_REF = '#/components/schemas/';

/** `#/components/schemas/Project` → `Project`, the name of its type in the client. */
function componentName(ref: string): string {
  if (!ref.startsWith(COMPONENT_REF)) throw new Error(`${ref}: only refs to components are supported`);
  return ref.slice(COMPONENT_REF.length);
}

/** Names the generated file declares itself: a component may not take them. */
const RESERVED = new Set(['Operations', 'OperationId', 'HttpMethod', 'operations']);

/** Every `$ref` under `value`. */
function refsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.add(componentName(v));
      else refsIn(v, out);
    }
  }
  return out;
}

/**
 * One exported type per named schema (`components.schemas`) the operations' bodies and success
 * answers use, directly or through another: the error shapes stay with client/index.ts.
 */
function componentTypes(doc: OpenApiDocument, used: unknown[]): string[] {
  const names = refsIn(used);
  for (const name of names) refsIn(doc.components.schemas[name], names);
  return Object.entries(doc.components.schemas)
    .filter(([name]) => names.has(name))
    .map(([name, schema]) => {
      if (!IDENT.test(name) || RESERVED.has(name))
        throw new Error(`components.schemas.${name}: not a usable type name`);
      const about =
        typeof schema.description === 'string' ? `/** ${schema.description.replace(/\*\//g, '*\\/')} */\n` : '';
      return `${about}export type ${name} = ${tsType(schema)};\n`;
    });
}

function objectType(schema: JsonSchema, indent: string): string {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inner = `${indent}  `;
  const lines = Object.entries(props).map(
    ([name, s]) => `${inner}${key(name)}${required.has(name) ? '' : '?'}: ${tsType(s, inner)};`,
  );
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') lines.push(`${inner}[key: string]: ${tsType(extra as JsonSchema, inner)};`);
  else if (extra === undefined && Object.keys(props).length === 0) lines.push(`${inner}[key: string]: unknown;`);
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

function paramsType(params: Parameter[], indent: string): string {
  // `object`: the neutral element of the intersection the client's input type is.
  if (params.length === 0) return 'object';
  const inner = `${indent}  `;
  const lines = params.map((p) => `${inner}${key(p.name)}${p.required ? '' : '?'}: ${tsType(p.schema, inner)};`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** Formats TypeScript with the project's biome settings, so the generated file passes `npm run lint` as is. */
export function formatTs(source: string, path = 'client/operations.ts'): string {
  const biome = require.resolve('@biomejs/biome/bin/biome');
  const r = spawnSync(process.execPath, [biome, 'format', `--stdin-file-path=${path}`], {
    cwd: ROOT,
    input: source,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`biome format failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** `client/operations.ts` for `doc`: one entry per operation, with its input and response types. */
export function clientSource(doc: OpenApiDocument): string {
  const types: string[] = [];
  const table: string[] = [];
  const used: unknown[] = [];
  for (const { method, path, operation } of operationsOf(doc)) {
    const params = operation.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const query = params.filter((p) => p.in === 'query');
    const names = new Set(pathParams.map((p) => p.name));
    for (const q of query) {
      if (q.name === 'body' || q.name === 'query') throw new Error(`${operation.operationId}: ${q.name} is ambiguous`);
    }
    // A query field named like a path parameter (`DELETE …/repos/{name}/branches?name=`) goes under `query`.
    const nested = query.filter((q) => names.has(q.name));
    const plain = query.filter((q) => !names.has(q.name));
    const body = operation.requestBody?.content['application/json'].schema;
    // Every documented success answer: a route answering 200 or 201 (say) returns either shape;
    // one that answers only 204 returns nothing (the client gives undefined). A file in another
    // media type (text/csv, text/calendar, …) is the text the client reads (its schema is a string).
    const successes = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
    const shapes = successes.flatMap(([, r]) =>
      Object.values(r.content ?? {}).flatMap((media) => {
        const schema = media.schema as JsonSchema | undefined;
        return schema ? [schema] : [];
      }),
    );
    const noBody = successes.length > 0 && successes.every(([status, r]) => status !== '2XX' && !r.content);
    const response: JsonSchema | undefined =
      shapes.length > 1 ? { anyOf: shapes } : shapes.length === 1 ? shapes[0] : noBody ? { not: {} } : undefined;
    const i = '    ';
    types.push(
      [
        `  /** ${operation.summary.replace(/\*\//g, '*\\/')} */`,
        `  ${operation.operationId}: {`,
        `    params: ${paramsType(pathParams, i)};`,
        `    query: ${paramsType(plain, i)}${nested.length ? ` & { query: ${paramsType(nested, `${i}  `)} }` : ''};`,
        `    body: ${body ? tsType(body, i) : 'undefined'};`,
        `    response: ${response?.not ? 'undefined' : response ? tsType(response, i) : 'unknown'};`,
        '  };',
      ].join('\n'),
    );
    used.push(body, response);
    table.push(`  ${operation.operationId}: { method: '${method}', path: '${path}' },`);
  }
  const records = componentTypes(doc, used);
  const named = records.length
    ? [
        '/** The named schemas of the API (its records): `components.schemas` of the OpenAPI document. */',
        '',
        ...records,
      ]
    : [];
  return [
    '// Generated from the route table by scripts/openapi.ts (npx tsx scripts/openapi.ts). Do not edit.',
    '',
    ...named,
    '/** Each operation of the API: path parameters, query, body and, where the route declares it, its response. */',
    'export interface Operations {',
    types.join('\n'),
    '}',
    '',
    'export type OperationId = keyof Operations;',
    '',
    "export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';",
    '',
    '/** Method and path of each operation: path parameters in `{name}` form, everything else is the query. */',
    'export const operations: Record<OperationId, { method: HttpMethod; path: string }> = {',
    ...table,
    '};',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const doc = await writeOpenApi();
  writeFileSync(CLIENT_FILE, formatTs(clientSource(doc)));
  process.stdout.write(`Wrote ${OPENAPI_FILE} (${operationsOf(doc).length} operations) and ${CLIENT_FILE}.\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
