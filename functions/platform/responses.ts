import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';
import { responses as insightResponses } from './insight-routes';

/** Success responses of the platform routes (see shared/kernel/http/responses.ts): documentation only. */
const Organization = z.object({
  orgId: z.string(),
  slug: z.string(),
  name: z.string(),
  kind: z.enum(['platform', 'customer']),
  status: z.enum(['active', 'suspended', 'deleting']),
  plan: z.nullable(z.object({ id: z.string(), name: z.string() })),
  counts: z.object({ members: z.number(), projects: z.number(), resources: z.number() }),
  createdAt: z.number(),
  updatedAt: z.nullable(z.number()),
  version: z.number(),
});
const Location = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  enabled: z.boolean(),
  default: z.boolean(),
  version: z.number(),
  updatedAt: z.number(),
});
const Region = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  version: z.number(),
  updatedAt: z.number(),
  locations: z.array(Location),
});
const Limits = z.record(z.string(), z.number());
const Plan = z.object({
  id: z.string(),
  name: z.string(),
  limits: Limits,
  enforced: z.array(z.string()),
  version: z.number(),
  updatedAt: z.number(),
});
const Model = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  enabled: z.boolean(),
  version: z.number(),
  updatedAt: z.number(),
});

export const responses: ResponseDocs = {
  // The insight routes (platform-wide analytics, audit, stats) document theirs beside them.
  ...insightResponses,
  'GET /v1/platform/orgs': { 200: z.object({ organizations: z.array(Organization), cursor: z.nullable(z.string()) }) },
  'PATCH /v1/platform/orgs/:orgId': { 200: z.object({ organization: Organization }) },
  'GET /v1/platform/mail/usage': {
    200: z.object({
      month: z.string(),
      quota: z.object({
        max24HourSend: z.number(),
        maxSendRate: z.number(),
        sentLast24Hours: z.number(),
        sendingEnabled: z.boolean(),
        productionAccess: z.boolean(),
      }),
      organizations: z.array(
        z.object({
          orgId: z.string(),
          slug: z.string(),
          name: z.string(),
          mailboxes: z.number(),
          sent: z.number(),
          received: z.number(),
          sentToday: z.number(),
          bounces: z.number(),
          complaints: z.number(),
        }),
      ),
      cursor: z.nullable(z.string()),
    }),
  },
  'GET /v1/platform/regions': { 200: z.object({ regions: z.array(Region), defaultLocation: z.string() }) },
  'PUT /v1/platform/regions/:regionId': { 200: z.object({ region: Region }), 201: z.object({ region: Region }) },
  'PUT /v1/platform/locations/:locationId': {
    200: z.object({ location: Location }),
    201: z.object({ location: Location }),
  },
  'GET /v1/platform/plans': {
    200: z.object({ plans: z.array(Plan), enforced: z.array(z.string()), kept: z.array(z.string()) }),
  },
  'PUT /v1/platform/plans/:planId': { 200: z.object({ plan: Plan }), 201: z.object({ plan: Plan }) },
  'GET /v1/platform/models': { 200: z.object({ models: z.array(Model) }) },
  'PUT /v1/platform/models/:modelId': { 200: z.object({ model: Model }), 201: z.object({ model: Model }) },
};
