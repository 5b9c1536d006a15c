import * as z from 'zod/mini';
import { ENV_TARGETS } from '../../shared/domains/projects/env-schema';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the env routes (see shared/kernel/http/responses.ts): documentation only. */

const Targets = z.array(z.enum(ENV_TARGETS)).check(z.minLength(1));

/**
 * Spec part A, "Environment variable". Every write sets `sensitive`, `updatedBy` and both
 * timestamps, so they are always answered; `value` is null for sensitive variables, always.
 */
const EnvVar = z.object({
  key: z.string(),
  orgId: z.string(),
  projectId: z.string(),
  value: z.nullable(z.string()),
  targets: Targets,
  sensitive: z.boolean(),
  updatedBy: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/projects/:projectId/env': { 200: z.object({ vars: z.array(EnvVar) }) },
  // `keys` once each, in the order first given; `targets` without repeats.
  'POST /v1/orgs/:orgId/projects/:projectId/env': {
    200: z.object({ keys: z.array(z.string()), targets: Targets, sensitive: z.boolean() }),
  },
  'PUT /v1/orgs/:orgId/projects/:projectId/env/:key': {
    200: z.object({ key: z.string(), targets: Targets, sensitive: z.boolean() }),
  },
  'DELETE /v1/orgs/:orgId/projects/:projectId/env/:key': { 204: null },
};
