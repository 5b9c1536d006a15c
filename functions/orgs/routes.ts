import * as z from 'zod/mini';
import { noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { listMembers, readPeople } from '../../shared/kernel/identity/members';
import { countContents } from '../../shared/kernel/identity/org-contents';
import { deleteOrganization } from '../../shared/kernel/identity/org-delete';
import { ORG_CHANGED, renameOrg } from '../../shared/kernel/identity/orgs';
import { toOrganization } from '../../shared/kernel/identity/schema';
import type { Item } from '../../shared/kernel/store/table';
import { keyRoutes } from './keys';
import { memberRoutes } from './members';

const NOT_FOUND = 'Organization not found';

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId',
    scope: 'org:read',
    summary: 'The organization.',
    errors: { 404: [NOT_FOUND] },
    run: async ({ org }) => ok({ org: toOrganization(org) }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId',
    scope: 'org:write',
    summary: 'Renames the organization; the slug does not change.',
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(64), oneLine),
      ifVersion: z.optional(z.int().check(z.minimum(1))),
    }),
    errors: { 404: [NOT_FOUND], 409: [ORG_CHANGED] },
    run: async ({ org, body }) => {
      const updated = await renameOrg(org.orgId, body.name, body.ifVersion);
      return ok({ org: toOrganization(updated) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/contents',
    scope: 'org:read',
    summary: 'What must be removed before the organization can be deleted.',
    errors: { 404: [NOT_FOUND] },
    run: async ({ org }) => ok({ contents: await countContents(org.orgId) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId',
    scope: 'org:write',
    summary: 'Deletes an empty customer organization with its members, teams, invites and keys. Owners only.',
    roles: { allow: ['owner'], refusal: 'Only owners can delete an organization.' },
    errors: {
      400: ["The platform organization can't be deleted."],
      404: [NOT_FOUND],
      409: ['Remove its ... first.'],
    },
    run: async ({ org }) => {
      await deleteOrganization(org);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/members',
    scope: 'members:read',
    summary: 'Members and teams; pending invites for callers who also hold members:write.',
    errors: { 404: [NOT_FOUND] },
    // Read together with authorization; invites are shown only once the caller's scopes are known.
    read: ({ orgId }) => readPeople(orgId),
    run: async ({ read, scopes }) => ok(listMembers(read as Item[], scopes.has('members:write'))),
  }),
  ...memberRoutes,
  ...keyRoutes,
];
