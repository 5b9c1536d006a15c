import * as z from 'zod/mini';
import { AgentDevice, AgentJob, AgentOk, NetworkRequest } from '../../shared/domains/agents/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the agents routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/agents': {
    200: z.object({ devices: z.array(AgentDevice), requests: z.array(NetworkRequest), jobs: z.array(AgentJob) }),
  },
  'POST /v1/orgs/:orgId/agents/jobs': { 201: z.object({ jobId: z.string(), expiresAt: z.number() }) },
  'GET /v1/orgs/:orgId/agents/jobs/:jobId': { 200: z.object({ job: AgentJob, resultsUrl: z.nullable(z.string()) }) },
  'POST /v1/orgs/:orgId/agents/jobs/:jobId/request-access': {
    200: z.object({
      requested: z.array(z.string()),
      notified: z.boolean(),
      missing: z.optional(
        z.object({
          capability: z.optional(z.enum(['http', 'browser', 'exec'])),
          hosts: z.optional(z.array(z.string())),
          network: z.optional(z.literal('allowlist')),
        }),
      ),
    }),
  },
  'POST /v1/orgs/:orgId/agents/jobs/:jobId/cancel': { 200: z.object({ status: z.enum(['canceled', 'canceling']) }) },
  'POST /v1/orgs/:orgId/agents/login': { 200: AgentOk },
  'PATCH /v1/orgs/:orgId/agents/devices/:deviceId': { 200: AgentOk },
  'DELETE /v1/orgs/:orgId/agents/devices/:deviceId': { 204: null },
  'POST /v1/orgs/:orgId/agents/requests/:deviceId/:host/:decision': { 200: AgentOk },
};
