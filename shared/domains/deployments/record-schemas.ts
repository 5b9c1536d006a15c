import * as z from 'zod/mini';
import { DEPLOYMENT_STATUSES } from './statuses';

/**
 * The records the deployments routes (and the projects routes) answer, each declared once and registered by
 * its id: lib/openapi.ts names them in `components.schemas`, the typed client declares a type of each. Only
 * documentation (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda
 * bundles; code imports their types.
 */

const Cache = z.optional(z.enum(['hit', 'partial', 'miss', 'off']));

/** Spec part A, "Deployment": the fields that are set (unset ones are left out, never null). */
export const Deployment = z
  .object({
    deploymentId: z.string(),
    orgId: z.string(),
    projectId: z.string(),
    location: z.string(),
    target: z.enum(['preview', 'production']),
    status: z.optional(z.enum(DEPLOYMENT_STATUSES)),
    error: z.optional(z.string()),
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
    region: z.optional(z.string()),
    createdBy: z.optional(z.string()),
    branch: z.optional(z.string()),
    commitSha: z.optional(z.string()),
    commitMessage: z.optional(z.string()),
    commitAuthor: z.optional(z.string()),
    host: z.optional(z.string()),
    buildId: z.optional(z.string()),
    buildDurationMs: z.optional(z.number()),
    readyAt: z.optional(z.number()),
    crons: z.optional(z.string()),
    /** `envHash(resolveEnv(...))` of shared/domains/projects/env.ts at the time the build started. */
    envHash: z.optional(z.string()),
    previousDeploymentId: z.optional(z.string()),
    reason: z.optional(z.string()),
    source: z.optional(z.enum(['git', 'upload'])),
    sourceArchive: z.optional(z.string()),
    /** A pull request's preview: the repository and number, and the pull request's stable host. */
    pullRequest: z.optional(z.object({ repoId: z.string(), number: z.number() })),
    previewHost: z.optional(z.string()),
    buildMetrics: z.optional(
      z.object({
        restoreMs: z.optional(z.number()),
        installMs: z.optional(z.number()),
        buildMs: z.optional(z.number()),
        uploadMs: z.optional(z.number()),
        saveMs: z.optional(z.number()),
        depsCache: Cache,
        nextCache: Cache,
        packageManager: z.optional(z.string()),
        installDir: z.optional(z.string()),
      }),
    ),
    // Beyond the spec's fields: where an uploaded source came from, as the command line sent it.
    meta: z.optional(
      z.object({
        branch: z.optional(z.string()),
        commit: z.optional(z.string()),
        dirty: z.optional(z.boolean()),
        machine: z.optional(z.string()),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'Deployment' });
export type Deployment = z.output<typeof Deployment>;

export const Target = z.enum(['preview', 'production']);

/** What create and redeploy answer: a new deployment always has its host. */
export const DeploymentRef = z
  .object({ deploymentId: z.string(), host: z.string(), target: Target })
  .register(z.globalRegistry, { id: 'DeploymentRef' });
export type DeploymentRef = z.output<typeof DeploymentRef>;

export const BuildLogLine = z
  .object({ t: z.number(), m: z.string() })
  .register(z.globalRegistry, { id: 'BuildLogLine' });
export type BuildLogLine = z.output<typeof BuildLogLine>;

/** Spec part A, "Log lines": a runtime log line; `id` only on the tail route. */
export const runtimeLine = {
  t: z.number(),
  level: z.enum(['error', 'platform', 'warn', 'info', 'debug']),
  requestId: z.optional(z.string()),
  message: z.string(),
  truncated: z.optional(z.boolean()),
};

export const RuntimeLogLine = z.object(runtimeLine).register(z.globalRegistry, { id: 'RuntimeLogLine' });
export type RuntimeLogLine = z.output<typeof RuntimeLogLine>;

export const TailLogLine = z
  .object({ ...runtimeLine, id: z.string() })
  .register(z.globalRegistry, { id: 'TailLogLine' });
export type TailLogLine = z.output<typeof TailLogLine>;

export const noLines = z.array(RuntimeLogLine).check(z.maxLength(0));
