import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { docsRoutes } from '../../lib/local/docs';
import {
  loadRouteTable,
  type OpenApiDocument,
  openApiDocument,
  openApiPath,
  operationIdOf,
  operationsOf,
} from '../../lib/openapi';
import { groupFor, routeGroups } from '../../lib/route-groups';
import { writeOpenApi } from '../../scripts/openapi';
import { route } from '../../shared/kernel/http/route';
import { createRouter } from '../../shared/kernel/http/router';
import { TestPlatform } from '../helpers/platform';
import { allRoutes } from '../helpers/routes';

let doc: OpenApiDocument;
let p: TestPlatform;

beforeAll(async () => {
  doc = openApiDocument(await loadRouteTable());
  p = await TestPlatform.start({ extra: docsRoutes() });
});
afterAll(async () => {
  await p?.close();
});

const key = (method: string, path: string) => `${method} ${path}`;
const ORG = 'The organization: its id (`org_…`).';
const PROJECT = 'The project: its id (`prj_…`).';
/** A concrete path for a templated one: `{orgId}` → `orgId-1`. */
const sample = (path: string) => path.replace(/\{([^}]+)\}/g, '$1-1');

describe('the document and the route table', () => {
  it('names every route of the table', () => {
    const documented = new Set(operationsOf(doc).map((o) => key(o.method, o.path)));
    const missing = allRoutes()
      .groups.flatMap((g) => g.routes.map((r) => key(r.method, openApiPath(r.path))))
      .filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
  });

  it('names only routes that exist and that the gateway sends to the group declaring them', () => {
    const routers = new Map(allRoutes().groups.map((g) => [g.group, createRouter(g.routes)]));
    const strays: string[] = [];
    for (const { method, path, operation } of operationsOf(doc)) {
      const group = groupFor(sample(path));
      const match = group && routers.get(group.name)?.(method, sample(path));
      const found = match?.kind === 'found' && openApiPath(match.route.path) === path;
      if (!found || operation.tags[0] !== group?.name) strays.push(key(method, path));
    }
    expect(strays).toEqual([]);
    expect(operationsOf(doc).length).toBe(allRoutes().groups.reduce((n, g) => n + g.routes.length, 0));
  });

  it('has one tag per route group, in the order of the table, and unique operation ids', () => {
    expect(doc.tags.map((t) => t.name)).toEqual(routeGroups.map((g) => g.name));
    expect(doc.tags.find((t) => t.name === 'env')?.description).toContain('/v1/orgs/{orgId}/projects/{projectId}/env');
    const ids = operationsOf(doc).map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is OpenAPI 3.1 with the bearer scheme and the error schemas', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error'] });
    expect(doc.components.schemas.GatewayError).toMatchObject({ required: ['message'] });
    // Every $ref points at something the document has, and every named schema is used.
    const refs = new Set(
      (JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []).map((r) =>
        r.slice('"$ref":"#/components/schemas/'.length, -1),
      ),
    );
    expect(refs).toContain('Error');
    expect(refs).toContain('Deployment');
    expect([...refs].sort()).toEqual(Object.keys(doc.components.schemas).sort());
  });

  it('names a contact and a license, and its server relative to where it is served', () => {
    expect(doc.info.contact).toEqual({ name: 'The platform team' });
    expect(doc.info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
    expect(doc.servers).toEqual([{ url: '/', description: 'The API' }]);
  });
});

describe('each operation', () => {
  const byId = (id: string) => {
    const found = operationsOf(doc).find((o) => o.operation.operationId === id);
    if (!found) throw new Error(`no operation ${id}`);
    return found.operation;
  };

  it('carries its scopes: the required one and the allowed ones as alternatives', () => {
    const list = byId('getProjects');
    expect(list['x-scopes']).toEqual({ required: 'projects:read', allowed: ['deployments:read', 'domains:read'] });
    expect(list.security).toEqual([
      { bearer: ['projects:read'] },
      { bearer: ['deployments:read'] },
      { bearer: ['domains:read'] },
    ]);
    expect(list.description).toContain('Scope `projects:read` (or `deployments:read`, `domains:read`).');
    expect(byId('getHealth').security).toEqual([]);
    expect(byId('getMe').security).toEqual([{ bearer: [] }]);
  });

  it('has its path parameters and query from the zod schemas', () => {
    const put = byId('putProjectsEnvByKey');
    expect(put.parameters).toEqual([
      { name: 'orgId', in: 'path', required: true, description: ORG, schema: { type: 'string' } },
      { name: 'projectId', in: 'path', required: true, description: PROJECT, schema: { type: 'string' } },
      {
        name: 'key',
        in: 'path',
        required: true,
        description: "The variable's name.",
        schema: { type: 'string', minLength: 1, maxLength: 256 },
      },
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: expect.stringContaining('Idempotent-Replayed: true'),
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
      {
        name: 'If-Match',
        in: 'header',
        required: false,
        description: expect.stringContaining('412'),
        schema: { type: 'string' },
      },
    ]);
    // Reads take no idempotency key: their header is If-None-Match.
    expect(
      byId('getProjects')
        .parameters?.filter((q) => q.in === 'header')
        .map((q) => q.name),
    ).toEqual(['If-None-Match']);
    const list = byId('getDeployments');
    const limit = list.parameters?.find((q) => q.name === 'limit');
    // A whole number with a default (shared/kernel/http/query.ts): optional as sent, its bounds kept.
    expect(limit).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      description: 'At most this many items in the page.',
      schema: { type: 'integer', minimum: 1, maximum: 100 },
    });
    expect(list.parameters?.find((q) => q.name === 'target')?.schema).toEqual({
      type: 'string',
      enum: ['production', 'preview'],
    });
    // Routes without a params schema still name their path parameters.
    expect(byId('getOrgsByOrgId').parameters?.filter((p) => p.in === 'path')).toEqual([
      { name: 'orgId', in: 'path', required: true, description: ORG, schema: { type: 'string' } },
    ]);
  });

  it('describes every parameter: by its name, by where it is when that changes its meaning', () => {
    const undescribed = operationsOf(doc).flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((p) => !p.description).map((p) => `${operation.operationId} ${p.name}`),
    );
    expect(undescribed).toEqual([]);
    const list = byId('getDeployments').parameters ?? [];
    expect(list.find((p) => p.name === 'projectId')?.description).toBe('Only those of this project (`prj_…`).');
    expect(byId('getProjectsByProjectId').parameters?.find((p) => p.name === 'projectId')?.description).toBe(PROJECT);
  });

  it('has its request body as the client sends it (defaults optional)', () => {
    const schema = byId('postProjects').requestBody?.content['application/json'].schema as Record<string, any>;
    expect(schema.required).toEqual(['name', 'slug']);
    expect(schema.properties.framework).toEqual({
      type: 'string',
      enum: ['nextjs', 'static', 'node'],
      default: 'nextjs',
    });
    expect(schema.properties.slug.pattern).toBe('^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$');
    expect(byId('getProjects').requestBody).toBeUndefined();
  });

  it('lists the errors the route declares and the ones the stack answers, with examples', () => {
    const create = byId('postProjects').responses;
    expect(Object.keys(create).sort()).toEqual(['201', '400', '401', '403', '404', '409', '412', '422', '429']);
    expect(create['409']?.description).toBe(
      '`Another write with If-Match is in progress on this resource. Try again.`; ' +
        '`A request with this idempotency key is in progress.`; `A project with this slug exists.`',
    );
    expect(create['422']?.description).toBe('`This idempotency key was used with another request.`');
    expect(Object.keys(create['400']?.content?.['application/json']?.examples as object)).toEqual([
      'Invalid request',
      'Malformed path: invalid percent-encoding.',
      'The request body is not valid JSON.',
      'The request body is nested more than 100 levels deep.',
      'Idempotency-Key must not be empty.',
      'Idempotency-Key is at most 255 characters.',
      'Repository not found in this organization.',
      'Unknown location: ...',
    ]);
    expect(create['403']?.description).toBe('`Missing scope projects:write`');
    expect(create['404']?.description).toBe('`Organization not found`');
    // Public and token routes: no 403/404 from the stack.
    expect(Object.keys(byId('getHealth').responses)).toEqual(['200', '304', '429']);
    expect(Object.keys(byId('getMe').responses).sort()).toEqual(['200', '304', '401', '429']);
    const promote = byId('postDeploymentsPromote').responses;
    expect(promote['409']?.description).toContain('Only ready deployments can be promoted.');
    expect(promote['502']?.description).toBe("`Couldn't update production routing. Try again.`");
  });

  it("lists API Gateway's own 429 (throttling) on every route, in its shape, beside a route's own 429", () => {
    const without = operationsOf(doc).filter(({ operation }) => !operation.responses['429']);
    expect(without).toEqual([]);
    expect(byId('getHealth').responses['429']).toEqual({
      description: "`Too Many Requests` (API Gateway's throttling, on AWS: retry later)",
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/GatewayError' },
          examples: { 'Too Many Requests': { value: { message: 'Too Many Requests' } } },
        },
      },
    });
    const scan = byId('postDatabasesScan').responses['429']?.content?.['application/json'] as Record<string, any>;
    expect(scan.schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/GatewayError' }],
    });
    expect(Object.keys(scan.examples)).toEqual([
      'Too many requests. Try again in N seconds.',
      'The backend is throttling requests. Try again in a moment.',
      'Too Many Requests',
    ]);
  });

  it("documents every route's success answers with their shapes (functions/<group>/responses.ts)", () => {
    const undocumented = operationsOf(doc)
      .filter(({ operation }) => {
        const successes = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
        return (
          successes.length === 0 ||
          successes.some(([status, r]) => status === '2XX' || (status !== '204' && !r.content))
        );
      })
      .map(({ method, path }) => `${method} ${path}`);
    expect(undocumented).toEqual([]);
    const env = byId('getProjectsEnv').responses['200']?.content?.['application/json']?.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(env.properties)).toEqual(['vars']);
    expect(byId('deleteOrgsByOrgId').responses['204']).toEqual({
      description: expect.any(String),
      headers: expect.any(Object),
    });
    expect(byId('deleteOrgsByOrgId').responses['204']?.content).toBeUndefined();
  });
});

describe('media types and headers', () => {
  const byId = (id: string) => {
    const found = operationsOf(doc).find((o) => o.operation.operationId === id);
    if (!found) throw new Error(`no operation ${id}`);
    return found.operation;
  };
  const media = (id: string, status: string) => Object.keys(byId(id).responses[status]?.content ?? {});
  const headers = (id: string, status: string) => Object.keys(byId(id).responses[status]?.headers ?? {});

  it('declares files in their own media types, with their Content-Disposition, and the 303s to a link', () => {
    expect(media('getIssuesExport', '200')).toEqual(['text/csv', 'application/json']);
    expect(media('getMailMailboxesAddressBooksExport', '200')).toEqual(['text/vcard']);
    expect(media('getMailMailboxesCalendarsExport', '200')).toEqual(['text/calendar']);
    expect(media('getReposContentsRaw', '200')).toEqual(['application/octet-stream']);
    for (const id of [
      'getIssuesExport',
      'getMailMailboxesAddressBooksExport',
      'getMailMailboxesCalendarsExport',
      'getReposContentsRaw',
    ]) {
      expect([id, byId(id).responses['200']?.headers?.['Content-Disposition']?.required]).toEqual([id, true]);
      expect([id, media(id, '303'), headers(id, '303')]).toEqual([id, [], expect.arrayContaining(['Location'])]);
    }
    // Only files are not JSON.
    const others = operationsOf(doc).flatMap(({ operation }) =>
      Object.entries(operation.responses).flatMap(([status, r]) =>
        Object.keys(r.content ?? {})
          .filter((type) => type !== 'application/json')
          .map((type) => `${operation.operationId} ${status} ${type}`),
      ),
    );
    expect(others.sort()).toEqual([
      'getFeedsByFile 200 text/calendar',
      'getIssuesExport 200 text/csv',
      'getMailMailboxesAddressBooksExport 200 text/vcard',
      'getMailMailboxesCalendarsExport 200 text/calendar',
      'getReposContentsRaw 200 application/octet-stream',
    ]);
  });

  it("documents the stack's headers by what the route is", () => {
    // A GET's 200: the ETag, and 304 for If-None-Match; bytes have none.
    expect(byId('getProjects').responses['200']?.headers?.ETag?.required).toBe(true);
    expect(headers('getProjects', '304')).toEqual(['ETag']);
    expect(headers('getReposContentsRaw', '200')).not.toContain('ETag');
    expect(byId('getReposContentsRaw').responses['304']).toBeUndefined();
    // Counted requests: the RateLimit fields on their answers past authorization.
    const limits = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    expect(headers('getProjects', '200')).toEqual(expect.arrayContaining(limits));
    expect(headers('getProjects', '404')).toEqual(expect.arrayContaining(limits));
    expect(headers('getProjects', '401')).toEqual([]);
    expect(headers('getMe', '200')).not.toContain('RateLimit-Limit');
    // Retry-After on the platform's 429, 502 and 503.
    expect(headers('getProjects', '429')).toContain('Retry-After');
    expect(headers('postDeploymentsPromote', '502')).toContain('Retry-After');
    // A write's kept answers say when they are replays; a route's own header (the archive's Retry-After).
    expect(headers('postProjects', '201')).toContain('Idempotent-Replayed');
    expect(headers('postProjects', '409')).toContain('Idempotent-Replayed');
    expect(headers('postProjects', '401')).not.toContain('Idempotent-Replayed');
    expect(headers('postReposContentsArchive', '202')).toContain('Retry-After');
    expect(headers('getHealth', '200')).toEqual(['ETag', 'Cache-Control']);
  });
});

describe('the generator', () => {
  it('derives readable, stable operation ids', () => {
    expect(operationIdOf('GET', '/v1/orgs/:orgId')).toBe('getOrgsByOrgId');
    expect(operationIdOf('GET', '/v1/orgs/:orgId/projects')).toBe('getProjects');
    expect(operationIdOf('DELETE', '/v1/orgs/:orgId/projects/:projectId/env/:key')).toBe('deleteProjectsEnvByKey');
    expect(operationIdOf('PATCH', '/v1/orgs/:orgId/resources/:type/:resourceId')).toBe(
      'patchResourcesByTypeAndResourceId',
    );
    expect(operationIdOf('GET', '/v1/orgs/:orgId/deployments/:deploymentId/build-log')).toBe('getDeploymentsBuildLog');
  });

  const run = async () => ({ status: 200 });

  it('puts declared response schemas in the document', () => {
    const r = Object.assign(
      route({ method: 'GET', path: '/v1/things/:thingId', access: 'token', summary: 'A thing.', run }),
      { responses: { 200: z.object({ thing: z.object({ id: z.string(), n: z.optional(z.int()) }) }) } },
    );
    const d = openApiDocument([{ group: 'core', routes: [r] }]);
    expect(d.paths['/v1/things/{thingId}']?.get?.responses['200']).toEqual({
      description: 'A thing.',
      headers: { ETag: expect.objectContaining({ required: true }) },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              thing: {
                type: 'object',
                properties: {
                  id: { type: 'string' },
                  n: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
                },
                required: ['id'],
              },
            },
            required: ['thing'],
          },
        },
      },
    });
  });

  it("describes a parameter by its schema's description first, else the table, else from the route's summary", () => {
    const r = route({
      method: 'GET',
      path: '/v1/orgs/:orgId/things/:thingId',
      access: 'token',
      summary: 'One thing, with its parts. Slow.',
      params: z.object({ orgId: z.string(), thingId: z.string().check(z.meta({ description: 'The thing.' })) }),
      query: z.object({ colour: z.optional(z.string()), cursor: z.optional(z.string()) }),
      run,
    });
    const d = openApiDocument([{ group: 'core', routes: [r] }]);
    const params = d.paths['/v1/orgs/{orgId}/things/{thingId}']?.get?.parameters ?? [];
    expect(Object.fromEntries(params.map((p) => [p.name, p.description]))).toEqual({
      orgId: ORG,
      thingId: 'The thing.',
      colour: 'Query parameter `colour` of: One thing, with its parts.',
      cursor: 'Where the previous page ended: its `cursor`. Without it, the first page.',
    });
  });

  it('refuses what it cannot document faithfully', () => {
    const twice = route({ method: 'GET', path: '/a/:x', access: 'token', run });
    expect(() => openApiDocument([{ group: 'core', routes: [twice, { ...twice }] }])).toThrow(
      'GET /a/:x and GET /a/:x have the same operationId getAByX',
    );
    const stray = route({ method: 'GET', path: '/a/:x', access: 'token', params: z.object({ y: z.string() }), run });
    expect(() => openApiDocument([{ group: 'core', routes: [stray] }])).toThrow('params schema names y');
  });
});

describe('served and built', () => {
  it('GET /openapi.json on the local platform answers the document with its own address, without a token', async () => {
    const res = await p.get('/openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.servers).toEqual([{ url: p.baseUrl, description: 'This platform' }]);
    expect({ ...res.body, servers: doc.servers }).toEqual(JSON.parse(JSON.stringify(doc)));
    expect((await p.post('/openapi.json', {}, { token: null })).status).toBe(405);
  });

  it('the API itself is untouched by the extra handlers', async () => {
    expect((await p.get('/health', { token: null })).status).toBe(200);
    expect((await p.get('/docs/assets/../../package.json', { token: null })).status).toBe(404);
  });

  it('is written to a file as `npm run build` writes dist/openapi.json', async () => {
    const file = join(tmpdir(), `openapi-${process.pid}-${Date.now()}.json`);
    await writeOpenApi(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
