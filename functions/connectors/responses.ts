import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the connectors routes (see shared/kernel/http/responses.ts): documentation only. */
const Connector = z.object({
  connectorId: z.string(),
  orgId: z.string(),
  name: z.string(),
  slug: z.string(),
  url: z.string(),
  transport: z.enum(['http', 'sse']),
  authType: z.enum(['none', 'bearer', 'header', 'oauth']),
  headerName: z.optional(z.string()),
  enabled: z.optional(z.boolean()),
  status: z.optional(z.enum(['ok', 'unknown', 'error'])),
  lastError: z.optional(z.string()),
  lastCheckedAt: z.optional(z.number()),
  accessExpiresAt: z.optional(z.number()),
  createdBy: z.string(),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  hasSecret: z.boolean(),
  toolCount: z.number(),
  omittedTools: z.number(),
  oauth: z.optional(
    z.object({ connected: z.boolean(), server: z.nullable(z.string()), registered: z.nullable(z.boolean()) }),
  ),
});

const Tool = z.object({
  name: z.string(),
  exposedName: z.string(),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  inputSchema: z.record(z.string(), z.unknown()),
});

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/connectors': { 200: z.object({ connectors: z.array(Connector) }) },
  'GET /v1/orgs/:orgId/connectors/:connectorId': { 200: z.object({ connector: Connector, tools: z.array(Tool) }) },
  'POST /v1/orgs/:orgId/connectors': { 201: z.object({ connector: Connector }) },
  'POST /v1/orgs/:orgId/connectors/:connectorId/test': { 200: z.object({ connector: Connector }) },
  'PATCH /v1/orgs/:orgId/connectors/:connectorId': { 200: z.object({ connector: Connector }) },
  'DELETE /v1/orgs/:orgId/connectors/:connectorId': { 204: null },
  'POST /v1/orgs/:orgId/connectors/:connectorId/oauth/start': { 200: z.object({ url: z.string() }) },
  'POST /v1/orgs/:orgId/connectors/oauth/callback': {
    200: z.object({ connected: z.boolean(), returnTo: z.nullable(z.string()), connectorId: z.string() }),
  },
};
