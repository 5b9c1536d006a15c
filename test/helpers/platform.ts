import { appendFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { createGateway, type LocalRoute, listen } from '../../lib/local/gateway';
import { idpSigner } from '../../lib/local/idp';
import { webCallbackOf } from '../../lib/local/idp-oauth';
import { webRoutes } from '../../lib/local/web';
import { WEB_CLIENT_ID } from '../../lib/web-app-policy';
import type { Role, Scope } from '../../shared/kernel/auth/scopes';
import { SCOPES } from '../../shared/kernel/auth/scopes';
import { responseDoc } from '../../shared/kernel/http/responses';
import { createKey } from '../../shared/kernel/identity/keys';
import { addMember, createOrg } from '../../shared/kernel/identity/orgs';
import type { Organization } from '../../shared/kernel/identity/schema';
import { calledRoute, documentedResponse, tableKeysIn } from './routes';

export interface Person {
  userId: string;
  email: string;
  role: Role;
  token: string;
}

export interface Response<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  /** A token or key; `null` sends no Authorization header. Defaults to the owner's token. */
  token?: string | null;
  body?: unknown;
  /** Sent as is (e.g. malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Whether the call counts for route coverage (the generated authorization matrix passes false). */
  record?: boolean;
}

let counter = 0;
const unique = (base: string) =>
  `${base}-${process.pid.toString(36)}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/**
 * One test file's platform: the local gateway on a free port, in front of the real handlers and
 * the DynamoDB Local of this run, and a fresh customer organization with an owner.
 */
export class TestPlatform {
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    readonly sign: (claims: { sub: string; email?: string; name?: string }, ttl?: number) => Promise<string>,
    readonly org: Organization,
    readonly owner: Person,
  ) {}

  /**
   * `extra`: local handlers mounted before the route groups, as `npm start` mounts /openapi.json and /docs.
   * `web`: the web app served at /app/ as `npm start` serves it, from `dist` (default web/dist).
   */
  static async start(options: { extra?: LocalRoute[]; web?: { dist?: string } } = {}): Promise<TestPlatform> {
    let baseUrl = '';
    const config = () => ({
      apiUrl: '',
      authUrl: process.env.AUTH_URL as string,
      clientId: WEB_CLIENT_ID,
      redirectUri: webCallbackOf(baseUrl) as string,
    });
    const web = options.web ? webRoutes({ dist: options.web.dist, config }) : [];
    const server = createGateway({ extra: [...(options.extra ?? []), ...web] });
    const port = await listen(server, 0);
    baseUrl = `http://127.0.0.1:${port}`;
    const sign = await idpSigner(process.env.IDP_KEY_FILE as string, process.env.AUTH_URL as string);
    const { org, owner } = await newOrgWith(sign, 'customer');
    return new TestPlatform(server, baseUrl, sign, org, owner);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /** Another organization (another tenant) with its own owner. */
  newOrg(kind: Organization['kind'] = 'customer'): Promise<{ org: Organization; owner: Person }> {
    return newOrgWith(this.sign, kind);
  }

  /** A new person with `role` in `orgId` (this file's organization by default). */
  async person(role: Role, orgId = this.org.orgId): Promise<Person> {
    const email = `${unique(role)}@example.com`;
    const member = await addMember(orgId, email, role, `Test ${role}`);
    return {
      userId: member.userId,
      email,
      role,
      token: await this.sign({ sub: member.userId, email, name: member.name }),
    };
  }

  /** An `app_api_` key of `orgId` with `scopes` (all by default). */
  async apiKey(scopes: readonly Scope[] = SCOPES, orgId = this.org.orgId): Promise<string> {
    return (await createKey({ orgId, kind: 'api', scopes: [...scopes], name: 'test' })).secret;
  }

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.owner.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    if (options.record !== false) recordCall(method, path);
    checkDocumented(method, path, res, parsed, text);
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  get = <T = any>(path: string, o?: CallOptions) => this.call<T>('GET', path, o);
  post = <T = any>(path: string, body?: unknown, o?: CallOptions) => this.call<T>('POST', path, { ...o, body });
  put = <T = any>(path: string, body?: unknown, o?: CallOptions) => this.call<T>('PUT', path, { ...o, body });
  patch = <T = any>(path: string, body?: unknown, o?: CallOptions) => this.call<T>('PATCH', path, { ...o, body });
  delete = <T = any>(path: string, o?: CallOptions) => this.call<T>('DELETE', path, o);
}

async function newOrgWith(sign: TestPlatform['sign'], kind: Organization['kind']) {
  const org = await createOrg({ slug: unique('org'), name: 'Test organization', kind });
  const email = `${unique('owner')}@example.com`;
  const member = await addMember(org.orgId, email, 'owner', 'Test owner');
  const owner: Person = {
    userId: member.userId,
    email,
    role: 'owner',
    token: await sign({ sub: member.userId, email, name: 'Test owner' }),
  };
  return { org, owner };
}

/**
 * Every success answer must be the one the route's group documents (functions/<group>/responses.ts):
 * its status listed, its media type one documented for it, the route's own headers of that answer
 * there, its body valid against the schema (or empty where it documents none). A redirect that
 * fetch followed is another server's answer: only the rest holds for it. No answer, success or not,
 * carries the table's keys (`pk`, `sk`, `gsi…`).
 */
function checkDocumented(method: string, path: string, res: globalThis.Response, body: unknown, text: string): void {
  const route = calledRoute(method, path.split('?')[0] as string);
  if (!route) return;
  const { status } = res;
  // No answer of any status shows the table's own attributes (its keys and index keys).
  const leaked = tableKeysIn(body);
  if (leaked.length > 0) {
    throw new Error(`${route.key} answered ${status} with the table's own attributes: ${leaked.join(', ')}`);
  }
  if (status < 200 || status >= 300 || res.redirected) return;
  const entry = documentedResponse(route, status);
  const where = `${route.key} answered ${status}`;
  if (entry === undefined) throw new Error(`${where}, a status its group's responses.ts does not document`);
  const doc = responseDoc(entry);
  // The stack's conditional reads (lib/openapi.ts documents the ETag of every GET's 200 with a text body).
  if (method === 'GET' && status === 200 && doc.content && !doc.bytes && !res.headers.has('etag')) {
    throw new Error(`${where} without an ETag`);
  }
  for (const name of Object.keys(doc.headers ?? {})) {
    if (!res.headers.has(name)) throw new Error(`${where} without its documented ${name} header`);
  }
  if (!doc.content) {
    if (text !== '') throw new Error(`${where} with a body, where its responses.ts documents none`);
    return;
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const schema = doc.content[type];
  if (!schema) {
    throw new Error(`${where} as ${type || 'no media type'}, documented as ${Object.keys(doc.content).join(' or ')}`);
  }
  const result = z.safeParse(schema, body);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    throw new Error(`${where} with a body that does not match its responses.ts: ${issues}`);
  }
}

/** Route coverage: each call is written down as the route it reached; teardown checks the list. */
function recordCall(method: string, path: string): void {
  const route = calledRoute(method, path.split('?')[0] as string);
  if (!route) return;
  appendFileSync(join(process.env.TEST_DATA_DIR as string, `calls-${process.pid}.txt`), `${route.key}\n`);
}
