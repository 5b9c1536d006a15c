import * as z from 'zod/mini';
import { DEPLOYMENT_STATUSES } from './deployments/schema';
import { RESOURCE_TYPES } from './resources/schema';

/**
 * Documentation schemas of records that several groups answer (functions/<group>/responses.ts),
 * and the source of their types (`Deployment`, `Resource`: type-only imports). Only documentation
 * files import its values: it stays out of the Lambda bundles.
 */

const Cache = z.optional(z.enum(['hit', 'partial', 'miss', 'off']));

/** Spec part A, "Deployment": the fields that are set (unset ones are left out, never null). */
export const DeploymentDoc = z.object({
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
});

/** Spec part A, "Resource record", as toResource answers it (no `version`, `keys` or `tags`). */
export const ResourceDoc = z.object({
  resourceId: z.string(),
  type: z.enum(RESOURCE_TYPES),
  name: z.string(),
  status: z.optional(z.enum(['error', 'active', 'creating', 'deleting'])),
  /** Why provisioning failed, when `status` is `error`. */
  error: z.optional(z.string()),
  description: z.optional(z.string()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  region: z.string(),
  orgId: z.string(),
  createdBy: z.string(),
  projectId: z.optional(z.string()),
  location: z.string(),
  arn: z.optional(z.string()),
  physicalName: z.string(),
});

/** Spec part B, "Commit summary" (with `parents`, as lists carry them). */
export const CommitDoc = z.object({
  id: z.string(),
  message: z.string(),
  author: z.object({ name: z.optional(z.string()), email: z.optional(z.string()), date: z.optional(z.number()) }),
  committedAt: z.nullable(z.number()),
  parents: z.array(z.string()),
});

/** Spec part B, "Changed file", with its unified hunks. */
export const ChangedFileDoc = z.object({
  path: z.string(),
  change: z.enum(['deleted', 'added', 'modified']),
  additions: z.number(),
  deletions: z.number(),
  binary: z.optional(z.boolean()),
  collapsed: z.optional(z.boolean()),
  hunks: z.array(
    z.object({
      oldStart: z.number(),
      oldLines: z.number(),
      newStart: z.number(),
      newLines: z.number(),
      lines: z.array(z.string()),
    }),
  ),
});

/** Spec part B, "Conflict entry". */
export const ConflictDoc = z.object({
  path: z.string(),
  conflicts: z.number(),
  binary: z.boolean(),
  kind: z.enum(['type', 'content', 'mode']),
});

/** Spec part B, "Issue/pull-request comment". */
export const CommentDoc = z.object({
  commentId: z.string(),
  number: z.number(),
  orgId: z.string(),
  repoId: z.string(),
  body: z.string(),
  authorId: z.string(),
  authorEmail: z.optional(z.string()),
  authorName: z.optional(z.string()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
});
