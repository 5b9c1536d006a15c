import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the signin-clients routes (see shared/kernel/http/responses.ts): documentation only. */
const Client = z.object({
  clientId: z.string(),
  projectId: z.string(),
  name: z.string(),
  type: z.enum(['web', 'spa', 'native']),
  redirectUris: z.array(z.string()),
  allowedOrigins: z.array(z.string()),
  scopes: z.array(z.enum(['openid', 'profile', 'email'])),
  secrets: z.array(z.object({ secretId: z.string(), createdAt: z.number(), expiresAt: z.optional(z.number()) })),
  createdBy: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  version: z.number(),
});

const BASE = '/v1/orgs/:orgId/projects/:projectId/oauth-clients';

export const responses: ResponseDocs = {
  [`GET ${BASE}`]: { 200: z.object({ clients: z.array(Client) }) },
  [`POST ${BASE}`]: { 201: z.object({ client: Client, clientSecret: z.optional(z.string()) }) },
  [`PATCH ${BASE}/:clientId`]: { 200: z.object({ client: Client }) },
  [`DELETE ${BASE}/:clientId`]: { 204: null },
  [`POST ${BASE}/:clientId/secret`]: {
    200: z.object({ client: Client }),
    201: z.object({ client: Client, clientSecret: z.string() }),
  },
};
