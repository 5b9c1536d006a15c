import * as z from 'zod/mini';
import { callerId } from '../../shared/kernel/auth/caller';
import { SCOPES } from '../../shared/kernel/auth/scopes';
import { created, noContent, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { createApiKey, KEY_MESSAGES, listKeys, revokeKey } from '../../shared/kernel/identity/keys';

/**
 * Beyond the spec: the organization's API keys (`app_api_…`), managed by owners and admins
 * (`org:write`, or a key holding it). A key grants only scopes its creator holds; its secret is
 * answered once, by the create, and never listed, logged or audited.
 */
const NOT_FOUND = 'Organization not found';

export const keyRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/keys',
    scope: 'org:write',
    summary:
      "Beyond the spec. The organization's API keys (and platform agent keys), newest first, never their secrets.",
    errors: { 404: [NOT_FOUND] },
    read: async ({ orgId }) => ({ keys: await listKeys(orgId) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/keys',
    scope: 'org:write',
    summary:
      'Beyond the spec. Creates an API key with scopes the caller holds (201 `{ key, secret }`): the secret ' +
      '(`app_api_…`) is in this answer only. `expiresAt` (milliseconds) ends it; without it, it works until revoked.',
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(64), oneLine),
      scopes: z.array(z.enum(SCOPES)).check(z.minLength(1), z.maxLength(SCOPES.length)),
      expiresAt: z.optional(z.int().check(z.minimum(0))),
    }),
    errors: { 400: [KEY_MESSAGES.past], 403: ["You can't grant ...: you don't hold it."], 404: [NOT_FOUND] },
    run: async ({ org, caller, scopes, body }) =>
      created(await createApiKey(org.orgId, { id: callerId(caller), scopes }, body)),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/keys/:keyId',
    scope: 'org:write',
    summary: 'Beyond the spec. Revokes a key (204): it stops working at once.',
    params: z.object({ keyId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    errors: { 404: [NOT_FOUND, KEY_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      await revokeKey(org.orgId, params.keyId);
      return noContent();
    },
  }),
];
