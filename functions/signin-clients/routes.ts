import * as z from 'zod/mini';
import { ProjectParams, projectIdOf } from '../../shared/domains/projects/params';
import { assertActive, PROJECT_NOT_FOUND, requireProject } from '../../shared/domains/projects/records';
import {
  type ClientRecord,
  deleteClientRecord,
  listClients,
  putClient,
  requireClient,
  rotatedSecrets,
  SIGNIN_CLIENT_MESSAGES,
  shownClient,
  updateClient,
} from '../../shared/domains/signin-clients/clients';
import { callerId } from '../../shared/kernel/auth/caller';
import { conflict, invalid } from '../../shared/kernel/ground/errors';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { type ClientSpec, SigninUnavailableError, signin } from '../../shared/ports/signin';

const ClientPath = z.extend(ProjectParams, { clientId: z.string() });
const SCOPES = ['openid', 'profile', 'email'] as const;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const REDIRECT =
  'Redirect URIs are absolute, without a fragment: https, http only for localhost, or a custom scheme with a dot ' +
  '(com.example.app:/callback) for native clients.';
const ORIGIN = 'Allowed origins are https origins (http only for localhost), without a path.';

/** RFC 8252 and OAuth 2.1: https, loopback http, and for native apps a private-use scheme (reverse domain). */
function redirectAllowed(raw: string, type: ClientSpec['type']): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.hash || raw.includes('#')) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
  return type === 'native' && /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
}

function originAllowed(raw: string): boolean {
  try {
    const url = new URL(raw);
    if (url.origin !== raw.replace(/\/$/, '')) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}

const Name = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
const Uris = z.array(z.string().check(z.maxLength(2000))).check(z.minLength(1), z.maxLength(20));
const Origins = z.array(z.string().check(z.maxLength(500))).check(z.maxLength(20));
const Scopes = z.array(z.enum(SCOPES)).check(z.minLength(1), z.maxLength(3));

function checkSpec(spec: ClientSpec): ClientSpec {
  if (!spec.redirectUris.every((u) => redirectAllowed(u, spec.type))) throw invalid(REDIRECT);
  if (!spec.allowedOrigins.every(originAllowed)) throw invalid(ORIGIN);
  return {
    ...spec,
    redirectUris: [...new Set(spec.redirectUris)],
    allowedOrigins: [...new Set(spec.allowedOrigins.map((o) => o.replace(/\/$/, '')))],
    scopes: SCOPES.filter((s) => spec.scopes.includes(s)),
  };
}

/** The provider's call, its refusal to take clients answered as 409. */
async function provider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof SigninUnavailableError) throw conflict(SIGNIN_CLIENT_MESSAGES.unavailable);
    throw err;
  }
}

const specOf = (c: ClientRecord): ClientSpec => ({
  name: c.name,
  type: c.type,
  redirectUris: c.redirectUris,
  allowedOrigins: c.allowedOrigins,
  scopes: c.scopes,
});

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/projects/:projectId/oauth-clients',
    scope: 'projects:read',
    summary: "The project's sign-in clients, oldest first (secrets by id and date, never their values).",
    params: ProjectParams,
    errors: { 404: [PROJECT_NOT_FOUND] },
    run: async ({ org, params }) => {
      const project = await requireProject(org.orgId, projectIdOf(params));
      return ok({ clients: (await listClients(project.projectId)).map(shownClient) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects/:projectId/oauth-clients',
    scope: 'projects:write',
    summary:
      "An OAuth client for the project's own users to sign in with the platform's identity provider (code flow " +
      'with PKCE). `web` clients are confidential: their secret is in the answer, once.',
    params: ProjectParams,
    body: z.object({
      name: Name,
      type: z.enum(['web', 'spa', 'native']),
      redirectUris: Uris,
      allowedOrigins: z._default(Origins, []),
      scopes: z._default(Scopes, [...SCOPES]),
    }),
    errors: {
      400: [REDIRECT, ORIGIN, SIGNIN_CLIENT_MESSAGES.tooMany],
      404: [PROJECT_NOT_FOUND],
      409: [SIGNIN_CLIENT_MESSAGES.unavailable],
    },
    run: async ({ org, params, body, caller }) => {
      const project = await requireProject(org.orgId, projectIdOf(params));
      assertActive(project);
      const spec = checkSpec(body);
      const made = await provider(() => signin().create(spec));
      let client: ClientRecord;
      try {
        client = await putClient(
          { orgId: org.orgId, projectId: project.projectId, createdBy: callerId(caller) },
          spec,
          made,
        );
      } catch (err) {
        // Not stored (the limit): the provider's client goes too.
        await signin().remove(made.clientId);
        throw err;
      }
      return created({ client: shownClient(client), ...(made.secret ? { clientSecret: made.secret.value } : {}) });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/projects/:projectId/oauth-clients/:clientId',
    scope: 'projects:write',
    summary: 'Changes a client (its type stays); with `ifVersion`, only if it is still that version.',
    params: ClientPath,
    body: z.object({
      name: z.optional(Name),
      type: z.optional(z.string()),
      redirectUris: z.optional(Uris),
      allowedOrigins: z.optional(Origins),
      scopes: z.optional(Scopes),
      ifVersion: z.optional(z.int()),
    }),
    errors: {
      400: [SIGNIN_CLIENT_MESSAGES.typeFixed, REDIRECT, ORIGIN],
      404: [PROJECT_NOT_FOUND, SIGNIN_CLIENT_MESSAGES.notFound],
      409: [SIGNIN_CLIENT_MESSAGES.changed],
    },
    run: async ({ org, params, body }) => {
      const project = await requireProject(org.orgId, projectIdOf(params));
      const c = await requireClient(project.projectId, params.clientId);
      if (body.type !== undefined && body.type !== c.type) throw invalid(SIGNIN_CLIENT_MESSAGES.typeFixed);
      if (body.ifVersion !== undefined && body.ifVersion !== c.version) throw conflict(SIGNIN_CLIENT_MESSAGES.changed);
      const { ifVersion: _v, type: _t, ...changes } = body;
      const spec = checkSpec({
        ...specOf(c),
        ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
      });
      await provider(() => signin().update(c.clientId, spec));
      return ok({ client: shownClient(await updateClient(c, { ...spec })) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/projects/:projectId/oauth-clients/:clientId',
    scope: 'projects:write',
    summary: 'Deletes a client: its users get no more tokens from it, refresh tokens included.',
    params: ClientPath,
    errors: { 404: [PROJECT_NOT_FOUND, SIGNIN_CLIENT_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      const project = await requireProject(org.orgId, projectIdOf(params));
      const c = await requireClient(project.projectId, params.clientId);
      await provider(() => signin().remove(c.clientId));
      await deleteClientRecord(c);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects/:projectId/oauth-clients/:clientId/secret',
    scope: 'projects:write',
    summary:
      "Rotates a web client's secret: a new one (in the answer, once) beside the current, which keeps working " +
      'for 7 days. `{ "revokePrevious": true }` instead ends every secret but the newest now.',
    params: ClientPath,
    body: z._default(z.object({ revokePrevious: z._default(z.boolean(), false) }), { revokePrevious: false }),
    errors: {
      400: [SIGNIN_CLIENT_MESSAGES.onlyWeb],
      404: [PROJECT_NOT_FOUND, SIGNIN_CLIENT_MESSAGES.notFound],
      409: [SIGNIN_CLIENT_MESSAGES.changed],
    },
    run: async ({ org, params, body }) => {
      const project = await requireProject(org.orgId, projectIdOf(params));
      const c = await requireClient(project.projectId, params.clientId);
      if (c.type !== 'web') throw invalid(SIGNIN_CLIENT_MESSAGES.onlyWeb);
      if (body.revokePrevious) {
        const [newest, ...previous] = c.secrets;
        await provider(() => Promise.all(previous.map((s) => signin().removeSecret(c.clientId, s.secretId))));
        const updated = await updateClient(c, { secrets: newest ? [newest] : [] });
        return ok({ client: shownClient(updated) });
      }
      // Two at most, as Cognito holds them: the oldest goes first (secrets are newest first).
      const dropped = c.secrets.length >= 2 ? c.secrets[c.secrets.length - 1] : undefined;
      if (dropped) await provider(() => signin().removeSecret(c.clientId, dropped.secretId));
      const kept = dropped ? { ...c, secrets: c.secrets.slice(0, -1) } : c;
      const added = await provider(() => signin().addSecret(c.clientId));
      const updated = await updateClient(c, { secrets: rotatedSecrets(kept, added) });
      return created({ client: shownClient(updated), clientSecret: added.value });
    },
  }),
];
