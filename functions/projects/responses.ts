import * as z from 'zod/mini';
import { Deployment } from '../../shared/domains/deployments/record-schemas';
import { FRAMEWORKS } from '../../shared/domains/projects/schema';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the projects routes (see shared/kernel/http/responses.ts): documentation only. */

/**
 * Spec part A, "Project", plus `version` (for guarded edits) and `status` while a delete or a
 * transfer is unfinished. Create always sets the timestamps, the production branch (`main`), the
 * framework and the root directory, and edits can't remove them; the build settings are absent
 * while the framework's defaults apply.
 */
const Project = z.object({
  projectId: z.string(),
  orgId: z.string(),
  name: z.string(),
  slug: z.string(),
  createdBy: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  repoId: z.optional(z.string()),
  productionBranch: z.string(),
  framework: z.enum(FRAMEWORKS),
  rootDirectory: z.string(),
  buildCommand: z.optional(z.string()),
  installCommand: z.optional(z.string()),
  outputDirectory: z.optional(z.string()),
  location: z.string(),
  productionDeploymentId: z.optional(z.string()),
  version: z.int().check(z.minimum(1)),
  status: z.optional(z.enum(['deleting', 'transferring'])),
});

const DomainStatus = z.enum(['error', 'active', 'pending', 'verifying']);

/** Spec part A, "Domain record": the project route answers the whole record. */
const Domain = z.object({
  hostname: z.string(),
  orgId: z.string(),
  projectId: z.string(),
  status: z.optional(DomainStatus),
  message: z.optional(z.string()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  tenantId: z.optional(z.string()),
  certificateArn: z.optional(z.string()),
  records: z.optional(z.string()),
  zone: z.optional(z.string()),
  dnsProvider: z.optional(z.string()),
  checkedAt: z.optional(z.number()),
  redirectTo: z.optional(z.string()),
});

/** A domain as project summaries list it. */
const DomainSummary = z.object({
  hostname: z.string(),
  status: z.optional(DomainStatus),
  redirectTo: z.optional(z.string()),
});

/** The linked repository, as projects answer it. */
const Repo = z.object({ resourceId: z.string(), name: z.string() });

/**
 * A project of the list: with `include=summary` it also carries `domains` (always, possibly empty)
 * and `latest`, `production`, `productionHost` and `repo` where there are any.
 */
const ProjectListEntry = z.extend(Project, {
  latest: z.optional(Deployment),
  production: z.optional(Deployment),
  productionHost: z.optional(z.string()),
  repo: z.optional(Repo),
  domains: z.optional(z.array(DomainSummary)),
});

const FunctionConfig = z.object({
  memoryMb: z.literal(1024),
  timeoutSeconds: z.literal(30),
  architecture: z.literal('arm64'),
  runtime: z.literal('nodejs22.x'),
});

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
      repo: z.optional(Repo),
      domains: z.array(Domain),
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
