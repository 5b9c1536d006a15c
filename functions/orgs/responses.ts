import * as z from 'zod/mini';
import { SCOPES } from '../../shared/kernel/auth/scopes';
import type { ResponseDocs } from '../../shared/kernel/http/responses';
import {
  InviteAnswer as Invite,
  MemberAnswer as Member,
  OrganizationAnswer as Organization,
} from '../../shared/kernel/identity/answers';

/** Success responses of the orgs routes (see shared/kernel/http/responses.ts): documentation only. */

const Team = z.object({
  teamId: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  members: z.number(),
});

const ApiKey = z.object({
  keyId: z.string(),
  kind: z.enum(['api', 'agent']),
  name: z.optional(z.string()),
  scopes: z.array(z.enum(SCOPES)),
  createdAt: z.number(),
  createdBy: z.optional(z.string()),
  expiresAt: z.optional(z.number()),
});

const count = z.int().check(z.minimum(0));

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId': { 200: z.object({ org: Organization }) },
  'PATCH /v1/orgs/:orgId': { 200: z.object({ org: Organization }) },
  'GET /v1/orgs/:orgId/contents': {
    200: z.object({
      contents: z.object({
        projects: count,
        repositories: count,
        databases: count,
        buckets: count,
        connectors: count,
        agents: count,
        docs: count,
      }),
    }),
  },
  'DELETE /v1/orgs/:orgId': { 204: null },
  'GET /v1/orgs/:orgId/members': {
    200: z.object({ members: z.array(Member), teams: z.array(Team), invites: z.optional(z.array(Invite)) }),
  },
  'POST /v1/orgs/:orgId/members': { 201: z.object({ member: Member }) },
  'PATCH /v1/orgs/:orgId/members/:userId': { 200: z.object({ member: Member }) },
  'DELETE /v1/orgs/:orgId/members/:userId': { 204: null },
  'POST /v1/orgs/:orgId/members/invites': { 201: z.object({ invite: Invite }) },
  'DELETE /v1/orgs/:orgId/members/invites/:inviteId': { 204: null },
  'GET /v1/orgs/:orgId/keys': { 200: z.object({ keys: z.array(ApiKey) }) },
  'POST /v1/orgs/:orgId/keys': { 201: z.object({ key: ApiKey, secret: z.string() }) },
  'DELETE /v1/orgs/:orgId/keys/:keyId': { 204: null },
};
