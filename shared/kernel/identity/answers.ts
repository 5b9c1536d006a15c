import * as z from 'zod/mini';
import { ROLES } from '../auth/scopes';

/**
 * How an organization, a member and an invitation are answered (spec part A), for the response
 * documentation of the groups that answer them (functions/orgs and functions/core's `/v1/orgs`
 * and `/v1/me/invites`): one shape each, documentation only.
 */
export const OrganizationAnswer = z.object({
  orgId: z.string(),
  slug: z.string(),
  name: z.string(),
  kind: z.enum(['platform', 'customer']),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  version: z.number(),
});

export const MemberAnswer = z.object({
  userId: z.string(),
  role: z.enum(ROLES),
  email: z.optional(z.string()),
  name: z.optional(z.string()),
  joinedAt: z.optional(z.number()),
});

export const InviteAnswer = z.object({
  inviteId: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  expiresAt: z.number(),
  createdAt: z.optional(z.number()),
});
