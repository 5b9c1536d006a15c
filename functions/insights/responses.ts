import { Analytics, AuditList } from '../../shared/domains/insights/responses';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the insights routes (see shared/kernel/http/responses.ts): documentation only. */
export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/audit': { 200: AuditList },
  'GET /v1/orgs/:orgId/analytics': { 200: Analytics },
};
