import { generateKeyPair, importJWK, SignJWT } from 'jose';
import { loadOrCreateIdpKey } from '../lib/local/idp';
import { ROLE_SCOPES } from '../shared/kernel/auth/roles';
import { ROLES, SCOPES } from '../shared/kernel/auth/scopes';
import { config } from '../shared/kernel/config';
import type { Route } from '../shared/kernel/http/route';
import { createKey } from '../shared/kernel/identity/keys';
import type { Person } from './helpers/platform';
import { TestPlatform } from './helpers/platform';
import { allRoutes } from './helpers/routes';

/**
 * The authorization matrix, generated from the route table: every route that exists now or later
 * is checked for each way a caller can be refused, before its body is even read.
 */
let p: TestPlatform;
let tokens: Record<string, string>;
let otherTenant: Person;

beforeAll(async () => {
  p = await TestPlatform.start();
  const stranger = await generateKeyPair('RS256');
  const device = await createKey({ orgId: p.org.orgId, kind: 'device', scopes: [], deviceId: 'dev_matrix' });
  // Signed with the identity provider's own key: only the claims below make them wrong.
  const idpKey = await loadOrCreateIdpKey(process.env.IDP_KEY_FILE as string);
  const idpPrivateKey = await importJWK(idpKey.privateJwk, 'RS256');
  const byTheIdp = () =>
    new SignJWT({ email: p.owner.email })
      .setProtectedHeader({ alg: 'RS256', kid: idpKey.kid })
      .setSubject(p.owner.userId)
      .setIssuer(process.env.AUTH_URL as string)
      .setIssuedAt();
  tokens = {
    malformed: 'not-a-token',
    'unknown API key': 'app_api_0000000000000000000000000000000000000000000',
    'expired token': await p.sign({ sub: p.owner.userId, email: p.owner.email }, -60),
    'token signed by another key': await new SignJWT({ email: p.owner.email })
      .setProtectedHeader({ alg: 'RS256', kid: 'stranger' })
      .setSubject(p.owner.userId)
      .setIssuer(process.env.AUTH_URL as string)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(stranger.privateKey),
    'device token outside /v1/agent': device.secret,
    'token without an expiry': await byTheIdp().setAudience(config.authAudience).sign(idpPrivateKey),
    'token for another audience': await byTheIdp()
      .setAudience('another-api')
      .setExpirationTime('1h')
      .sign(idpPrivateKey),
    'token without an audience': await byTheIdp().setExpirationTime('1h').sign(idpPrivateKey),
  };
  otherTenant = (await p.newOrg()).owner;
});
afterAll(() => p.close());

const fill = (route: Route, orgId: string) =>
  route.segments.map((s) => (s === ':orgId' ? orgId : s.startsWith(':') ? `x${s.slice(1)}1` : s)).join('/');

const { groups } = allRoutes();
const cases = groups.flatMap((g) =>
  g.routes.map((route) => ({ group: g.group, route, name: `${route.method} ${route.path}` })),
);

describe.each(cases)('$group: $name', ({ route }) => {
  const path = () => `/${fill(route, p.org.orgId)}`;

  if (route.access === 'public') {
    it('answers without a token (a body it needs may still be missing: 400, never 401)', async () => {
      const res = await p.call(route.method, path(), { token: null, record: false });
      expect(res.status).not.toBe(401);
      expect(res.status).toBeLessThan(500);
    });
    return;
  }

  it('refuses a request without a token with 401 Unauthorized', async () => {
    const res = await p.call(route.method, path(), { token: null, record: false });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });

  it.each([
    'malformed',
    'unknown API key',
    'expired token',
    'token signed by another key',
    'token without an expiry',
    'token for another audience',
    'token without an audience',
    ...(route.access === 'device' ? [] : ['device token outside /v1/agent']),
  ])('refuses a %s with 401 Unauthorized', async (kind) => {
    const res = await p.call(route.method, path(), { token: tokens[kind] as string, record: false });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });

  if (route.orgScoped) {
    it("answers another tenant's caller with 404 Organization not found", async () => {
      const res = await p.call(route.method, path(), { token: otherTenant.token, record: false });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Organization not found' });
    });
  }

  if (route.access === 'scope' && route.scope) {
    const passing = new Set([route.scope, ...(route.allowed ?? [])]);
    it(`refuses a key without ${[...passing].join(' or ')} with 403 Missing scope ${route.scope}`, async () => {
      const key = await p.apiKey(SCOPES.filter((s) => !passing.has(s)));
      const res = await p.call(route.method, path(), { token: key, record: false });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: `Missing scope ${route.scope}` });
    });
  }

  const roles = route.roles;
  if (roles) {
    // Callers that pass the scope check: the other roles that hold the scope, and a key with every scope.
    const others = ROLES.filter(
      (r) => !roles.allow.includes(r) && (!route.scope || ROLE_SCOPES[r].includes(route.scope)),
    );
    const keyScope = roles.keyScope;
    it(`refuses every caller but ${roles.allow.join(' or ')}${keyScope ? '' : ' (keys too)'} with 403 ${roles.refusal}`, async () => {
      const people = await Promise.all(others.map(async (r) => (await p.person(r)).token));
      const callers = keyScope ? people : [...people, await p.apiKey()];
      for (const token of callers) {
        const res = await p.call(route.method, path(), { token, record: false });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: roles.refusal });
      }
    });
    if (keyScope) {
      it(`lets keys by scope: one without ${keyScope} gets 403 Missing scope ${keyScope}`, async () => {
        const key = await p.apiKey(SCOPES.filter((s) => s !== keyScope));
        const res = await p.call(route.method, path(), { token: key, record: false });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: `Missing scope ${keyScope}` });
      });
    }
  }
});
