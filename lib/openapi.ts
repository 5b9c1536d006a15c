import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { version as packageVersion } from '../package.json';
import { ORG_NOT_FOUND } from '../shared/kernel/ground/messages';
import { NOT_JSON, TOO_DEEP } from '../shared/kernel/http/body';
import { IDEMPOTENCY_MESSAGES } from '../shared/kernel/http/idempotency';
import { MALFORMED_PATH } from '../shared/kernel/http/middleware/match-route';
import { PRECONDITION_BUSY, PRECONDITION_FAILED } from '../shared/kernel/http/middleware/preconditions';
import { type ResponseDoc, type ResponseDocs, type ResponseEntry, responseDoc } from '../shared/kernel/http/responses';
import type { Method, Route } from '../shared/kernel/http/route';
import { isWrite } from '../shared/kernel/http/route-entry';
import { type RouteGroup, routeGroups } from './route-groups';

/**
 * The OpenAPI 3.1 document of the API, generated from the route table (lib/route-groups.ts) and
 * each group's `routes.ts`: paths, scopes, parameters and bodies from the zod schemas, the errors
 * a route declares plus the ones the middy stack answers for every route of its kind. Nothing in
 * it is written by hand. `lib/` wires: it imports the groups' route lists here for that alone.
 */

export type JsonSchema = Record<string, unknown>;

/**
 * A route as the generator reads it. `responses` (status → its ResponseEntry: a JSON body's schema,
 * null for none, or media types and headers) is optional: routes that declare it get their success
 * shapes in the document and the typed client; the others are documented as `2XX` with their summary.
 */
type DocumentedRoute = Route & { responses?: Partial<Record<number, ResponseEntry>> };

interface GroupRoutes {
  group: string;
  routes: DocumentedRoute[];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    contact: ContactInfo;
    license: License;
  };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<Lowercase<Method>, Operation>>>;
  components: {
    securitySchemes: Record<string, JsonSchema>;
    schemas: Record<string, JsonSchema>;
  };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
}

/** OpenAPI's `info.contact`. */
export interface ContactInfo {
  name: string;
  url?: string;
  email?: string;
}

/** OpenAPI 3.1: `identifier` is an SPDX expression. */
export interface License {
  name: string;
  identifier?: string;
  url?: string;
}

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: [string];
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required: true; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, ResponseObject>;
  /** The scope the route needs, and the others that also pass (`allowed`). */
  'x-scopes'?: { required: string; allowed: string[] };
}

/** OpenAPI's Header object: a response header's meaning and its value's schema. */
export interface HeaderObject {
  description: string;
  required?: true;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, JsonSchema>;
}

/** Every group's routes, in the order of the route table. */
export async function loadRouteTable(groups: RouteGroup[] = routeGroups): Promise<GroupRoutes[]> {
  return Promise.all(
    groups.map(async (g) => {
      const { routes } = (await import(`../functions/${g.name}/routes`)) as { routes: Route[] };
      const { responses } = (await import(`../functions/${g.name}/responses`)) as { responses: ResponseDocs };
      return {
        group: g.name,
        routes: routes.map((r): DocumentedRoute => ({ ...r, responses: responses[`${r.method} ${r.path}`] })),
      };
    }),
  );
}

/** `/v1/orgs/:orgId` → `/v1/orgs/{orgId}` (OpenAPI and API Gateway style). */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * A stable, readable id from method and path: literal segments (without `v1`, and without
 * `orgs/{orgId}` in front of an organization's sub-resources), trailing parameters as `By…`.
 * `GET /v1/orgs/:orgId/projects/:projectId/env` → `getProjectsEnv`;
 * `PUT …/env/:key` → `putProjectsEnvByKey`; `GET /v1/orgs/:orgId` → `getOrgsByOrgId`.
 */
export function operationIdOf(method: Method, path: string): string {
  let segs = path.split('/').filter(Boolean);
  if (segs[0] === 'v1') segs = segs.slice(1);
  if (segs[0] === 'orgs' && segs[1] === ':orgId' && segs.length > 2) segs = segs.slice(2);
  let end = segs.length;
  while (end > 0 && segs[end - 1]?.startsWith(':')) end--;
  const words = segs.slice(0, end).filter((s) => !s.startsWith(':'));
  const trailing = segs.slice(end).map((s) => pascal(s.slice(1)));
  return `${method.toLowerCase()}${words.map(pascal).join('')}${trailing.length ? `By${trailing.join('And')}` : ''}`;
}

/**
 * The named schemas of the document (`components.schemas`): every zod schema registered with an
 * `id` in zod's global registry (the records of shared/domains/<product>/record-schemas.ts) is
 * emitted once there and `$ref`ed wherever a route uses it.
 */
export type Components = Map<string, JsonSchema>;

const COMPONENT_REF = '#/components/schemas/';

/** `#/$defs/<id>` (where zod puts a registered schema) → `#/components/schemas/<id>`, throughout. */
function refsToComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(refsToComponents);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
        ? `${COMPONENT_REF}${v.slice('#/$defs/'.length)}`
        : refsToComponents(v),
    ]),
  );
}

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), as a client must send it. Registered
 * schemas (with an `id`) go to `components` and are referred to by `$ref`; without `components`,
 * `jsonSchemaOf` refuses them.
 */
export function jsonSchemaOf(schema: $ZodType, where: string, components?: Components): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...json
  } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    // zod names the other `$defs` (of recursive schemas) `__schema<n>`: they have no name of their own.
    if (id.startsWith('__schema')) {
      throw new Error(`${where}: recursive schemas are not supported by the OpenAPI generator yet`);
    }
    if (!components) throw new Error(`${where}: uses the named schema ${id}, which has no place here`);
    const named = refsToComponents(def) as JsonSchema;
    const known = components.get(id);
    if (known && JSON.stringify(known) !== JSON.stringify(named)) {
      throw new Error(`${where}: two different schemas are registered as ${id}`);
    }
    components.set(id, named);
  }
  return refsToComponents(json) as JsonSchema;
}

/** The errors the middy stack answers by itself, by what the route is (shared/kernel/http/handler.ts). */
function stackErrors(route: Route): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  const add = (status: number, message: string) => {
    out[status] ??= [];
    out[status].push(message);
  };
  if (route.params || route.query || route.body) add(400, 'Invalid request');
  if (route.path.includes(':')) add(400, MALFORMED_PATH);
  if (route.body) add(400, NOT_JSON);
  if (route.body) add(400, TOO_DEEP);
  if (route.access !== 'public') add(401, 'Unauthorized');
  if (route.orgScoped && route.access === 'scope' && route.scope) add(403, `Missing scope ${route.scope}`);
  if (route.roles) add(403, route.roles.refusal);
  if (route.roles?.keyScope) add(403, `Missing scope ${route.roles.keyScope}`);
  if (route.orgScoped) add(404, ORG_NOT_FOUND);
  // Counted by the rate limits (shared/kernel/http/rate-limits.ts): the organization's and the key's budget.
  if (route.orgScoped && route.access !== 'public') add(429, 'Too many requests. Try again in N seconds.');
  if (takesIdempotencyKey(route)) {
    add(412, PRECONDITION_FAILED);
    add(409, PRECONDITION_BUSY);
    add(400, IDEMPOTENCY_MESSAGES.empty);
    add(400, IDEMPOTENCY_MESSAGES.tooLong);
    add(409, IDEMPOTENCY_MESSAGES.running);
    add(422, IDEMPOTENCY_MESSAGES.mismatch);
  }
  return out;
}

/** Writes of a known caller take `Idempotency-Key` (shared/kernel/http/idempotency.ts). */
const takesIdempotencyKey = (route: Route) => route.access !== 'public' && isWrite(route.method);

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const GATEWAY_ERROR_REF = { $ref: '#/components/schemas/GatewayError' };

/**
 * What API Gateway answers for any route by itself, in its own shape (`{ message }`), before a
 * function runs: 429 when the stage's throttling limit is reached (lib/aws/api.ts). The local
 * gateway does not throttle.
 */
const GATEWAY_ERRORS: Record<number, { message: string; why: string }> = {
  429: { message: 'Too Many Requests', why: "API Gateway's throttling, on AWS: retry later" },
};

/** The gateway's answers added to a route's own (both shapes where a status has both). */
function withGatewayErrors(out: Operation['responses']): Operation['responses'] {
  for (const [status, { message, why }] of Object.entries(GATEWAY_ERRORS)) {
    const own = out[status];
    const examples = (own?.content?.['application/json']?.examples ?? {}) as Record<string, unknown>;
    out[status] = {
      description: [own?.description, `\`${message}\` (${why})`].filter(Boolean).join('; '),
      ...(own?.headers ? { headers: own.headers } : {}),
      content: {
        'application/json': {
          schema: own ? { anyOf: [ERROR_REF, GATEWAY_ERROR_REF] } : GATEWAY_ERROR_REF,
          examples: { ...examples, [message]: { value: { message } } },
        },
      },
    };
  }
  return out;
}

function errorResponses(route: Route): Operation['responses'] {
  const merged = new Map<number, Set<string>>();
  for (const source of [stackErrors(route), route.errors ?? {}]) {
    for (const [status, messages] of Object.entries(source)) {
      const set = merged.get(Number(status)) ?? new Set<string>();
      for (const m of messages) set.add(m);
      merged.set(Number(status), set);
    }
  }
  const out: Operation['responses'] = {};
  for (const [status, messages] of [...merged].sort((a, b) => a[0] - b[0])) {
    const list = [...messages];
    const headers = stackHeaders(route, status);
    out[String(status)] = {
      description: list.map((m) => `\`${m}\``).join('; '),
      ...(headers ? { headers } : {}),
      content: {
        'application/json': {
          schema: ERROR_REF,
          examples: Object.fromEntries(
            list.map((m) => [m, { value: m === 'Invalid request' ? invalidExample : { error: m } }]),
          ),
        },
      },
    };
  }
  return withGatewayErrors(out);
}

const invalidExample = { error: 'Invalid request', issues: [{ path: 'name', message: 'Too small: expected …' }] };

function successResponses(route: DocumentedRoute, operationId: string, components: Components): Operation['responses'] {
  const declared = Object.entries(route.responses ?? {}).filter(
    (e): e is [string, ResponseEntry] => e[1] !== undefined,
  );
  const description = route.summary ?? 'Success.';
  if (declared.length === 0) return { '2XX': { description } };
  const out: Operation['responses'] = {};
  for (const [status, entry] of declared) {
    const doc = responseDoc(entry);
    const content = doc.content
      ? Object.fromEntries(
          Object.entries(doc.content).map(([type, schema]) => [
            type,
            { schema: jsonSchemaOf(schema, `${operationId} response ${status} ${type}`, components) },
          ]),
        )
      : undefined;
    const headers = { ...stackHeaders(route, Number(status), doc), ...ownHeaders(doc) };
    out[status] = {
      description: content ? description : (route.summary ?? 'Success: no body.'),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(content ? { content } : {}),
    };
  }
  // A GET's `If-None-Match` naming the answer's ETag: 304, no body (shared/kernel/http/middleware/conditional-reads.ts).
  const ok = route.responses?.[200];
  if (ok !== undefined && carriesEtag(route, responseDoc(ok))) {
    out['304'] = {
      description: '`If-None-Match` named the ETag the answer has now: not modified, no body.',
      headers: { ETag: ETAG_HEADER },
    };
  }
  return out;
}

/** `string` header values, as HTTP has them. */
const TEXT = { type: 'string' };
const INTEGER_TEXT = { type: 'string', pattern: '^[0-9]+$' };

const ETAG_HEADER: HeaderObject = {
  description:
    "A hash of the body: send it as `If-None-Match` to get 304 while the answer is unchanged, or as a write's " +
    '`If-Match` to the same path to write only if the resource is still as read.',
  required: true,
  schema: TEXT,
};

/**
 * Whether a GET's 200 carries an `ETag`: every 200 GET with a text or JSON body does
 * (conditionalReads); bytes (answered base64-encoded) do not.
 */
const carriesEtag = (route: Route, doc: ResponseDoc | undefined): boolean =>
  route.method === 'GET' && !!doc?.content && !doc.bytes;

/** Requests the rate limits count (shared/kernel/http/middleware/rate-limit.ts): an organization's, by a known caller. */
const counted = (route: Route) => route.orgScoped && route.access !== 'public';

/**
 * The headers the stack adds to an answer of `status` (`doc`: a success's documentation), from what
 * the route is: `ETag` on a GET's 200, the RateLimit fields on a counted request's answers (past
 * authorization: not a 401), `Retry-After` on a 429, 502 or 503 of the platform, `Idempotent-Replayed`
 * on a write's answers kept for its key.
 */
function stackHeaders(route: Route, status: number, doc?: ResponseDoc): Record<string, HeaderObject> | undefined {
  const out: Record<string, HeaderObject> = {};
  if (status === 200 && carriesEtag(route, doc)) out.ETag = ETAG_HEADER;
  if (counted(route) && status !== 401) {
    const success = status < 300;
    const when = success ? '' : ' (requests refused before their organization and caller are known carry none)';
    out['RateLimit-Limit'] = {
      description: `The budget of the tightest rate limit this request counted against: requests per window${when}.`,
      schema: INTEGER_TEXT,
    };
    out['RateLimit-Remaining'] = {
      description: 'What is left of that budget.',
      schema: INTEGER_TEXT,
    };
    out['RateLimit-Reset'] = {
      description: 'Seconds until that window ends.',
      schema: INTEGER_TEXT,
    };
  }
  if (status === 429 || status === 502 || status === 503) {
    out['Retry-After'] = {
      description: "Seconds to wait before trying again (the platform's answers; API Gateway's own 429 carries none).",
      schema: INTEGER_TEXT,
    };
  }
  // Kept answers are those of a caller known and a key claimed: never a 401, never a 5xx.
  if (takesIdempotencyKey(route) && status !== 401 && status < 500) {
    out['Idempotent-Replayed'] = {
      description:
        '`true` when this is the kept answer of an earlier request with the same `Idempotency-Key`, route and ' +
        'body (nothing ran again).',
      schema: { type: 'string', enum: ['true'] },
    };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The route's own headers of an answer (functions/<group>/responses.ts): always sent. */
function ownHeaders(doc: ResponseDoc): Record<string, HeaderObject> {
  return Object.fromEntries(
    Object.entries(doc.headers ?? {}).map(([name, description]) => [
      name,
      { description, required: true, schema: name === 'Retry-After' ? INTEGER_TEXT : TEXT },
    ]),
  );
}

function objectProperties(
  schema: JsonSchema,
  where: string,
): { properties: Record<string, JsonSchema>; required: string[] } {
  if (schema.type !== 'object') throw new Error(`${where}: expected an object schema`);
  return {
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: (schema.required ?? []) as string[],
  };
}

/** The summary's first sentence or clause, for the one-line list of a reference page. */
const firstSentence = (text: string) => (/^(.+?)[.;](\s|$)/.exec(text)?.[1] ?? text).trim();

/**
 * What a parameter name means, wherever a route uses it: `in:name` for a name whose meaning
 * depends on where it is, else the name alone. A schema's own description (zod `.meta`) wins;
 * a name in neither gets one from its route's summary (parameterDescription).
 */
const PARAMETERS: Record<string, string> = {
  orgId: 'The organization: its id (`org_…`).',
  'path:projectId': 'The project: its id (`prj_…`).',
  'query:projectId': 'Only those of this project (`prj_…`).',
  deploymentId: 'The deployment: its id (`dpl_…`).',
  resourceId: 'The resource (database or bucket): its id (`res_…`).',
  'path:type': 'The kind of resource: `database` or `bucket`.',
  'query:type': 'Only resources of this kind.',
  'path:key': "The variable's name.",
  'query:key': "The file's key (its path in the bucket).",
  indexName: 'The global secondary index: its name.',
  ruleId: 'The lifecycle rule: its id.',
  cursor: 'Where the previous page ended: its `cursor`. Without it, the first page.',
  limit: 'At most this many items in the page.',
  prefix: 'The folder: a key prefix ending in `/`, or empty for the top.',
  include: '`summary`: each item with its summary too.',
  since: 'From this time on (epoch milliseconds).',
  q: 'Only what contains this text.',
  target: 'Only this target.',
  status: 'Only deployments in this status.',
  branch: 'Only deployments of this git branch.',
};

function parameterDescription(name: string, where: Parameter['in'], schema: JsonSchema, summary: string): string {
  if (typeof schema.description === 'string' && schema.description) return schema.description;
  const known = PARAMETERS[`${where}:${name}`] ?? PARAMETERS[name];
  if (known) return known;
  return `${where === 'path' ? 'Path' : 'Query'} parameter \`${name}\` of: ${firstSentence(summary)}.`;
}

function parametersOf(route: DocumentedRoute, operationId: string): Parameter[] {
  const ok = route.responses?.[200];
  const etagDoc = ok === undefined ? undefined : responseDoc(ok);
  const out: Parameter[] = [];
  const summary = route.summary ?? `${route.method} ${route.path}`;
  const param = (name: string, where: Parameter['in'], required: boolean, schema: JsonSchema): Parameter => ({
    name,
    in: where,
    required,
    description: parameterDescription(name, where, schema, summary),
    schema,
  });
  const names = route.segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1));
  const params = route.params
    ? objectProperties(jsonSchemaOf(route.params, operationId), `${operationId} params`)
    : undefined;
  for (const name of Object.keys(params?.properties ?? {})) {
    if (!names.includes(name)) throw new Error(`${operationId}: params schema names ${name}, which is not in the path`);
  }
  for (const name of names) out.push(param(name, 'path', true, params?.properties[name] ?? { type: 'string' }));
  if (route.query) {
    const query = objectProperties(jsonSchemaOf(route.query, operationId), `${operationId} query`);
    for (const [name, schema] of Object.entries(query.properties)) {
      // A query parameter may share a path parameter's name (OpenAPI tells them apart by `in`): the
      // spec's DELETE .../repos/:name/branches?name=<branch> does.
      out.push(param(name, 'query', query.required.includes(name), schema));
    }
  }
  if (carriesEtag(route, etagDoc)) {
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'ETags of an earlier answer (or `*`): while the answer is still one of them, 304 without the body.',
      schema: { type: 'string' },
    });
  }
  if (takesIdempotencyKey(route)) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        '1 to 255 characters, not blank, unique per intended change: a retry with the same key, route and body ' +
        'within 24 hours answers the first response again (`Idempotent-Replayed: true`) instead of running twice.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        "ETags of the same path's GET (or `*`): the write runs only if the resource, as read now, still has one " +
        'of them, else 412; of concurrent writes naming the same ETag, one runs and the others answer 412. Where ' +
        'the path has no GET, it is not checked.',
      schema: { type: 'string' },
    });
  }
  return out;
}

function describeAccess(route: Route): { security: Operation['security']; text: string } {
  if (route.access === 'public') return { security: [], text: 'No token needed.' };
  if (route.access === 'device') return { security: [{ bearer: [] }], text: 'An agent device token (`app_dev_…`).' };
  if (route.access === 'token' || !route.scope) {
    return { security: [{ bearer: [] }], text: 'Any valid token; no scope needed.' };
  }
  const scopes = [route.scope, ...(route.allowed ?? [])];
  const others = route.allowed?.length ? ` (or ${route.allowed.map((s) => `\`${s}\``).join(', ')})` : '';
  // One security requirement per scope that passes: OpenAPI reads alternatives as "any of".
  return { security: scopes.map((s) => ({ bearer: [s] })), text: `Scope \`${route.scope}\`${others}.` };
}

function operationOf(group: string, route: DocumentedRoute, components: Components): Operation {
  const operationId = operationIdOf(route.method, route.path);
  const access = describeAccess(route);
  const summary = route.summary ?? `${route.method} ${route.path}`;
  const op: Operation = {
    operationId,
    summary: firstSentence(summary),
    description: `${summary}\n\n${access.text}`,
    tags: [group],
    security: access.security,
    responses: { ...successResponses(route, operationId, components), ...errorResponses(route) },
  };
  if (route.access === 'scope' && route.scope) op['x-scopes'] = { required: route.scope, allowed: route.allowed ?? [] };
  const parameters = parametersOf(route, operationId);
  if (parameters.length > 0) op.parameters = parameters;
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchemaOf(route.body, `${operationId} body`, components) } },
    };
  }
  return op;
}

interface DocumentOptions {
  /** The API's base address; the local gateway serves the document with its own. */
  serverUrl?: string;
  version?: string;
  groups?: RouteGroup[];
  /** Who answers questions about the API; the platform team by default. */
  contact?: ContactInfo;
  /** The API's terms: proprietary by default (the package is private and names no license). */
  license?: License;
}

/** The document for `table` (the routes of each group of `groups`, see loadRouteTable). */
export function openApiDocument(table: GroupRoutes[], options: DocumentOptions = {}): OpenApiDocument {
  const groups = options.groups ?? routeGroups;
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Map<string, string>();
  const components: Components = new Map();
  for (const { group, routes } of table) {
    for (const route of routes) {
      const op = operationOf(group, route, components);
      const key = `${route.method} ${route.path}`;
      const clash = ids.get(op.operationId);
      if (clash) throw new Error(`${key} and ${clash} have the same operationId ${op.operationId}`);
      ids.set(op.operationId, key);
      const path = openApiPath(route.path);
      paths[path] ??= {};
      const method = route.method.toLowerCase() as Lowercase<Method>;
      if (paths[path][method]) throw new Error(`${key} is declared twice`);
      paths[path][method] = op;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform API',
      version: options.version ?? packageVersion,
      description:
        'The JSON-over-HTTP API of a multi-tenant developer platform. Every route but `GET /health` takes ' +
        "`Authorization: Bearer <token>`: a person's access token, an `app_api_…` API key or, on `/v1/agent/*`, " +
        'an `app_dev_…` device token. Errors are `{ "error": message }`; validation failures are 400 ' +
        '`{ "error": "Invalid request", "issues": [{ path, message }] }`. Generated from the route table.',
      contact: options.contact ?? { name: 'The platform team' },
      license: options.license ?? { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative by default: the API at the address the document is served from (the local gateway
    // serves it with its own address; a deployed API's address is known only after deploying).
    servers: [{ url: options.serverUrl ?? '/', description: 'The API' }],
    tags: table.map(({ group }) => ({
      name: group,
      description: `Route group \`${group}\`: ${(groups.find((g) => g.name === group)?.prefixes ?? [])
        .map((p) => `\`${p}\``)
        .join(', ')}.`,
    })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: "A person's access token, an `app_api_…` API key, or an agent key; scopes as listed per route.",
        },
      },
      schemas: {
        ...Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b))),
        Error: {
          type: 'object',
          properties: {
            error: { type: 'string', description: 'What went wrong, for people.' },
            issues: {
              type: 'array',
              description: 'Validation failures (400 `Invalid request` only).',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, message: { type: 'string' } },
                required: ['path', 'message'],
              },
            },
          },
          required: ['error'],
        },
        GatewayError: {
          type: 'object',
          description: "An answer of API Gateway itself, before the API's functions run.",
          properties: { message: { type: 'string', description: "API Gateway's words." } },
          required: ['message'],
        },
      },
    },
  };
}

/** Every `METHOD /path` the document names (paths in OpenAPI form). */
export function operationsOf(doc: OpenApiDocument): { method: Method; path: string; operation: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase() as Method,
      path,
      operation: operation as Operation,
    })),
  );
}
