import * as z from 'zod/mini';
import { Deployment } from '../../shared/domains/deployments/record-schemas';
import {
  CustomDomain,
  FunctionConfig,
  LinkedRepo,
  Project,
  ProjectListEntry,
} from '../../shared/domains/projects/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the projects routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/projects': { 200: z.object({ projects: z.array(ProjectListEntry) }) },
  // The spec allows `deployment: { deploymentId, host, target }`; no build starts on create yet.
  'POST /v1/orgs/:orgId/projects': { 201: z.object({ project: Project, deployment: z.null() }) },
  'GET /v1/orgs/:orgId/projects/:projectId': {
    200: z.object({
      project: Project,
      productionHost: z.optional(z.string()),
      deployments: z.array(Deployment),
      production: z.optional(Deployment),
      repo: z.optional(LinkedRepo),
      domains: z.array(CustomDomain),
      functionConfig: FunctionConfig,
    }),
  },
  // `deployment: null` only when the change linked a repository (no build starts on link yet).
  'PATCH /v1/orgs/:orgId/projects/:projectId': {
    200: z.object({ project: Project, deployment: z.optional(z.null()) }),
  },
  'POST /v1/orgs/:orgId/projects/:projectId/transfer': {
    200: z.object({ project: Project, org: z.object({ orgId: z.string(), slug: z.string() }) }),
  },
  'DELETE /v1/orgs/:orgId/projects/:projectId': { 204: null },
};
