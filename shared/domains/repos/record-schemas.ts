import * as z from 'zod/mini';

/**
 * The records the repository routes (repos, pulls, repo issues) answer, each declared once and registered
 * by its id: lib/openapi.ts names them in `components.schemas`, the typed client declares a type of each.
 * Only documentation (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda
 * bundles; code imports their types.
 */

/** Spec part B, "Commit summary" (with `parents`, as lists carry them). */
export const Commit = z
  .object({
    id: z.string(),
    message: z.string(),
    author: z.object({ name: z.optional(z.string()), email: z.optional(z.string()), date: z.optional(z.number()) }),
    committedAt: z.nullable(z.number()),
    parents: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'Commit' });
export type Commit = z.output<typeof Commit>;

/** Spec part B, "Changed file", with its unified hunks. */
export const ChangedFile = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'ChangedFile' });
export type ChangedFile = z.output<typeof ChangedFile>;

/** Spec part B, "Conflict entry". */
export const Conflict = z
  .object({
    path: z.string(),
    conflicts: z.number(),
    binary: z.boolean(),
    kind: z.enum(['type', 'content', 'mode']),
  })
  .register(z.globalRegistry, { id: 'Conflict' });
export type Conflict = z.output<typeof Conflict>;

/** Spec part B, "Issue/pull-request comment". */
export const Comment = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'Comment' });
export type Comment = z.output<typeof Comment>;
