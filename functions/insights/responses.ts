import type { ResponseDocs } from '../../shared/http/responses';
import { Analytics, AuditList } from '../../shared/insights/responses';

/** Success responses of the insights routes (see shared/http/responses.ts): documentation only. */
export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/audit': { 200: AuditList },
  'GET /v1/orgs/:orgId/analytics': { 200: Analytics },
};
