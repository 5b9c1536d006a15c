import * as z from 'zod/mini';
import { Deployment } from '../deployments/record-schemas';
import { FRAMEWORKS } from './frameworks';

/**
 * The records the projects routes answer, each declared once and registered by its id: lib/openapi.ts names them
 * in `components.schemas`, the typed client declares a type of each. Only documentation
 * (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda bundles; code
 * imports their types.
 */

/**
 * Spec part A, "Project", plus `version` (for guarded edits) and `status` while a delete or a
 * transfer is unfinished. Create always sets the timestamps, the production branch (`main`), the
 * framework and the root directory, and edits can't remove them; the build settings are absent
 * while the framework's defaults apply.
 */
export const Project = z
  .object({
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
    /** Pull request previews: on unless `enabled` is false; `ignore`: globs whose changes alone deploy nothing. */
    previews: z.optional(z.object({ enabled: z.boolean(), ignore: z.array(z.string()) })),
    location: z.string(),
    productionDeploymentId: z.optional(z.string()),
    version: z.int().check(z.minimum(1)),
    status: z.optional(z.enum(['deleting', 'transferring'])),
  })
  .register(z.globalRegistry, { id: 'Project' });
export type Project = z.output<typeof Project>;

/**
 * The stored project: pk `ORG#<orgId>`, sk `PRJ#<projectId>` (shared/domains/projects/records.ts),
 * its status always kept (`active` is not answered).
 */
export const ProjectRecord = z.extend(Project, {
  pk: z.string(),
  sk: z.string(),
  status: z.enum(['active', 'deleting', 'transferring']),
  /** The newest deployment, kept by `newDeploymentItems` so project lists read it in a batch. */
  latestDeploymentId: z.optional(z.string()),
  /** While `transferring`: the organization the project is moving to. */
  transferTo: z.optional(z.string()),
  /** The label of its production host, reserved in the host registry (shared/domains/host-registry/registry.ts). */
  productionLabel: z.optional(z.string()),
});
export type ProjectRecord = z.output<typeof ProjectRecord>;

export const DomainStatus = z.enum(['error', 'active', 'pending', 'verifying']);

/**
 * Spec part A, "Domain record", plus `version` (for `ifVersion`): the domains routes and the project
 * detail answer it (shared/domains/projects/domain-view.ts). The ownership token is in `records` (the
 * TXT line); what the platform keeps to re-check and undo a domain is not answered. Optional as the
 * spec has them (the domains routes always answer `status`, `records`, `zone` and `version`).
 */
export const CustomDomain = z
  .object({
    hostname: z.string(),
    orgId: z.string(),
    projectId: z.string(),
    status: z.optional(DomainStatus),
    message: z.optional(z.string()),
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
    tenantId: z.optional(z.string()),
    certificateArn: z.optional(z.string()),
    /** The records to create, one a line, in zone-file form. */
    records: z.optional(z.string()),
    zone: z.optional(z.string()),
    dnsProvider: z.optional(z.string()),
    checkedAt: z.optional(z.number()),
    redirectTo: z.optional(z.string()),
    version: z.optional(z.int().check(z.minimum(1))),
  })
  .register(z.globalRegistry, { id: 'CustomDomain' });
export type CustomDomain = z.output<typeof CustomDomain>;

/** A domain as project summaries list it. */
export const CustomDomainSummary = z
  .object({
    hostname: z.string(),
    status: z.optional(DomainStatus),
    redirectTo: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'CustomDomainSummary' });
export type CustomDomainSummary = z.output<typeof CustomDomainSummary>;

/** The linked repository, as projects answer it. */
export const LinkedRepo = z
  .object({ resourceId: z.string(), name: z.string() })
  .register(z.globalRegistry, { id: 'LinkedRepo' });
export type LinkedRepo = z.output<typeof LinkedRepo>;

/**
 * A project of the list: with `include=summary` it also carries `domains` (always, possibly empty)
 * and `latest`, `production`, `productionHost` and `repo` where there are any.
 */
export const ProjectListEntry = z
  .extend(Project, {
    latest: z.optional(Deployment),
    production: z.optional(Deployment),
    productionHost: z.optional(z.string()),
    repo: z.optional(LinkedRepo),
    domains: z.optional(z.array(CustomDomainSummary)),
  })
  .register(z.globalRegistry, { id: 'ProjectListEntry' });
export type ProjectListEntry = z.output<typeof ProjectListEntry>;

export const FunctionConfig = z
  .object({
    memoryMb: z.literal(1024),
    timeoutSeconds: z.literal(30),
    architecture: z.literal('arm64'),
    runtime: z.literal('nodejs22.x'),
  })
  .register(z.globalRegistry, { id: 'FunctionConfig' });
export type FunctionConfig = z.output<typeof FunctionConfig>;
