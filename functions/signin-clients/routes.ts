import * as z from 'zod/mini';
import { ProjectParams, projectIdOf } from '../../shared/domains/projects/params';
import { assertActive, PROJECT_NOT_FOUND, requireProject } from '../../shared/domains/projects/records';
import {
  listClients,
  requireClient,
  SIGNIN_CLIENT_MESSAGES,
  shownClient,
} from '../../shared/domains/signin-clients/clients';
import {
  changeClient,
  createClient,
  ORIGIN,
  REDIRECT,
  removeClient,
  rotateSecret,
  SCOPES,
} from '../../shared/domains/signin-clients/use-cases';
import { callerId } from '../../shared/kernel/auth/caller';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';

const ClientPath = z.extend(ProjectParams, { clientId: z.string() });
const Name = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
const Uris = z.array(z.string().check(z.maxLength(2000))).check(z.minLength(1), z.maxLength(20));
const Origins = z.array(z.string().check(z.maxLength(500))).check(z.maxLength(20));
const Scopes = z.array(z.enum(SCOPES)).check(z.minLength(1), z.maxLength(3));

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
      const { client, secret } = await createClient(
        { orgId: org.orgId, projectId: project.projectId, createdBy: callerId(caller) },
        body,
      );
      return created({ client: shownClient(client), ...(secret ? { clientSecret: secret } : {}) });
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
      return ok({ client: shownClient(await changeClient(c, body)) });
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
      await removeClient(c);
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
      const { client, secret } = await rotateSecret(c, body.revokePrevious);
      return secret
        ? created({ client: shownClient(client), clientSecret: secret })
        : ok({ client: shownClient(client) });
    },
  }),
];
