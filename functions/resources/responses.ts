import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/http/responses';
import { ResourceDoc } from '../../shared/schemas/docs';

/** Success responses of the resources routes (see shared/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/resources': { 200: z.object({ resources: z.array(ResourceDoc) }) },
  'POST /v1/orgs/:orgId/resources': { 201: z.object({ resource: ResourceDoc }) },
  'PATCH /v1/orgs/:orgId/resources/:type/:resourceId': { 200: z.object({ resource: ResourceDoc }) },
  'DELETE /v1/orgs/:orgId/resources/:type/:resourceId': { 204: null },
};
