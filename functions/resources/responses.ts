import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/http/responses';
import { RESOURCE_TYPES } from '../../shared/schemas/resource';

/** Success responses of the resources routes (see shared/http/responses.ts): documentation only. */

/** Spec part A, "Resource record", as toResource answers it (no `version`, `keys` or `tags`). */
const Resource = z.object({
  resourceId: z.string(),
  type: z.enum(RESOURCE_TYPES),
  name: z.string(),
  status: z.optional(z.enum(['error', 'active', 'creating', 'deleting'])),
  /** Why provisioning failed, when `status` is `error`. */
  error: z.optional(z.string()),
  description: z.optional(z.string()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  region: z.string(),
  orgId: z.string(),
  createdBy: z.string(),
  projectId: z.optional(z.string()),
  location: z.string(),
  arn: z.optional(z.string()),
  physicalName: z.string(),
});

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/resources': { 200: z.object({ resources: z.array(Resource) }) },
  'POST /v1/orgs/:orgId/resources': { 201: z.object({ resource: Resource }) },
  'PATCH /v1/orgs/:orgId/resources/:type/:resourceId': { 200: z.object({ resource: Resource }) },
  'DELETE /v1/orgs/:orgId/resources/:type/:resourceId': { 204: null },
};
