import * as z from 'zod/mini';
import { Resource } from '../../shared/domains/resources/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the resources routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/resources': { 200: z.object({ resources: z.array(Resource) }) },
  'POST /v1/orgs/:orgId/resources': { 201: z.object({ resource: Resource }) },
  'PATCH /v1/orgs/:orgId/resources/:type/:resourceId': { 200: z.object({ resource: Resource }) },
  'DELETE /v1/orgs/:orgId/resources/:type/:resourceId': { 204: null },
};
