import * as z from 'zod/mini';
import {
  BuildLogLine,
  Deployment,
  DeploymentRef,
  noLines,
  RuntimeLogLine,
  TailLogLine,
  Target,
} from '../../shared/domains/deployments/record-schemas';
import { DEPLOYMENT_STATUSES } from '../../shared/domains/deployments/schema';
import { FRAMEWORKS } from '../../shared/domains/projects/schema';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the deployments routes (see shared/kernel/http/responses.ts): documentation only. */
export const responses: ResponseDocs = {
  'POST /v1/orgs/:orgId/projects/:projectId/uploads': {
    201: z.object({
      uploadId: z.string(),
      url: z.string(),
      headers: z.object({ 'content-type': z.string(), 'content-length': z.string() }),
      expiresIn: z.int(),
    }),
  },
  'POST /v1/orgs/:orgId/projects/:projectId/deployments': {
    // An existing deployment of the commit and target (no `force`).
    200: z.object({
      deployment: z.object({ deploymentId: z.string(), host: z.optional(z.string()), target: Target }),
      existing: z.literal(true),
    }),
    201: z.object({ deployment: DeploymentRef, existing: z.literal(false) }),
  },
  'GET /v1/orgs/:orgId/deployments/:deploymentId/build-log': {
    200: z.object({
      lines: z.array(BuildLogLine),
      cursor: z.nullable(z.string()),
      status: z.enum(DEPLOYMENT_STATUSES),
      error: z.nullable(z.string()),
      done: z.boolean(),
    }),
  },
  'GET /v1/orgs/:orgId/deployments/:deploymentId/runtime-logs/tail': {
    200: z.discriminatedUnion('available', [
      z.object({ available: z.literal(false), lines: noLines, next: z.number(), more: z.literal(false) }),
      z.object({ available: z.literal(true), lines: z.array(TailLogLine), next: z.number(), more: z.boolean() }),
    ]),
  },
  'GET /v1/orgs/:orgId/deployments': {
    200: z.object({ deployments: z.array(Deployment), cursor: z.nullable(z.string()) }),
  },
  'GET /v1/orgs/:orgId/deployments/:deploymentId': {
    200: z.object({
      deployment: Deployment,
      project: z.object({
        projectId: z.string(),
        name: z.string(),
        slug: z.string(),
        productionDeploymentId: z.optional(z.string()),
        repoId: z.optional(z.string()),
        framework: z.optional(z.enum(FRAMEWORKS)),
        location: z.string(),
        rootDirectory: z.optional(z.string()),
      }),
      productionHost: z.optional(z.string()),
      domains: z.array(
        z.object({
          hostname: z.string(),
          status: z.optional(z.enum(['error', 'active', 'pending', 'verifying'])),
          redirectTo: z.optional(z.string()),
        }),
      ),
      // null for static output, or once the function was removed.
      function: z.nullable(
        z.object({
          region: z.string(),
          name: z.string(),
          memoryMb: z.number(),
          timeoutSeconds: z.number(),
          architecture: z.string(),
          runtime: z.string(),
        }),
      ),
    }),
  },
  'GET /v1/orgs/:orgId/deployments/:deploymentId/logs': {
    200: z.object({ lines: z.array(z.object({ t: z.optional(z.number()), m: z.string() })) }),
  },
  'GET /v1/orgs/:orgId/deployments/:deploymentId/runtime-logs': {
    200: z.discriminatedUnion('available', [
      z.object({ available: z.literal(false), lines: noLines }),
      z.object({
        available: z.literal(true),
        lines: z.array(RuntimeLogLine),
        from: z.number(),
        to: z.number(),
        limited: z.boolean(),
      }),
    ]),
  },
  'POST /v1/orgs/:orgId/deployments/:deploymentId/redeploy': { 201: z.object({ deployment: DeploymentRef }) },
  'POST /v1/orgs/:orgId/deployments/:deploymentId/cancel': { 200: z.object({ deployment: Deployment }) },
  'POST /v1/orgs/:orgId/deployments/:deploymentId/promote': {
    200: z.object({ deployment: Deployment, productionHost: z.string() }),
  },
};
