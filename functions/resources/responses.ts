import * as z from 'zod/mini';
import { ResourceDoc } from '../../shared/domains/record-docs';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the resources routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/resources': { 200: z.object({ resources: z.array(ResourceDoc) }) },
  'POST /v1/orgs/:orgId/resources': { 201: z.object({ resource: ResourceDoc }) },
  'PATCH /v1/orgs/:orgId/resources/:type/:resourceId': { 200: z.object({ resource: ResourceDoc }) },
  'DELETE /v1/orgs/:orgId/resources/:type/:resourceId': { 204: null },
};
