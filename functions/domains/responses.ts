import * as z from 'zod/mini';
import { CustomDomain, DomainStatus } from '../../shared/domains/projects/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the domains routes (see shared/kernel/http/responses.ts): documentation only. */

/** The Domain record as the project detail answers it, with what a domain these routes answer always has. */
const Domain = z.extend(CustomDomain, {
  status: DomainStatus,
  records: z.string(),
  zone: z.string(),
  version: z.int().check(z.minimum(1)),
});

const Integration = z.object({
  provider: z.nullable(
    z.object({
      kind: z.enum(['route53', 'cloudflare', 'local']),
      connected: z.boolean(),
      zones: z.array(z.string()),
      connectedBy: z.string(),
    }),
  ),
});

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/domains': { 200: z.object({ domains: z.array(Domain), cursor: z.nullable(z.string()) }) },
  'POST /v1/orgs/:orgId/domains': { 201: z.object({ domain: Domain }) },
  'POST /v1/orgs/:orgId/domains/:hostname/verify': { 200: z.object({ domain: Domain }) },
  'POST /v1/orgs/:orgId/domains/:hostname/dns-provider': { 200: z.object({ domain: Domain }) },
  'PATCH /v1/orgs/:orgId/domains/:hostname': { 200: z.object({ domain: Domain }) },
  'DELETE /v1/orgs/:orgId/domains/:hostname': { 204: null },
  'GET /v1/orgs/:orgId/integrations/dns-provider': { 200: Integration },
  'PUT /v1/orgs/:orgId/integrations/dns-provider': { 200: Integration },
  'DELETE /v1/orgs/:orgId/integrations/dns-provider': { 204: null },
  'POST /v1/orgs/:orgId/integrations/dns-provider/authorize': { 200: z.object({ url: z.string() }) },
  'POST /v1/orgs/:orgId/integrations/dns-provider/oauth': { 200: Integration },
};
