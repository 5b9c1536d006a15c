import * as z from 'zod/mini';
import { LABEL_COLORS } from './label-colors';

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

/** What a repository issue and a pull request both carry: labels, people, counts and times. */
const threadFields = {
  labels: z.optional(z.array(z.string())),
  assignees: z.optional(z.array(z.string())),
  comments: z.optional(z.number()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  closedAt: z.optional(z.number()),
  closedBy: z.optional(z.string()),
};

/** Who wrote it: a person by id, email and name, or a key by its id. */
const authorFields = {
  authorId: z.string(),
  authorEmail: z.optional(z.string()),
  authorName: z.optional(z.string()),
};

/** Spec part B, "Repository issue" (the tracker's issues are `Issue`). */
export const RepoIssue = z
  .object({
    number: z.number(),
    orgId: z.string(),
    repoId: z.string(),
    title: z.string(),
    body: z.optional(z.string()),
    state: z.optional(z.enum(['open', 'closed'])),
    ...threadFields,
    closedByPull: z.optional(z.number()),
    ...authorFields,
  })
  .register(z.globalRegistry, { id: 'RepoIssue' });
export type RepoIssue = z.output<typeof RepoIssue>;

/** Spec part B, "Issue/pull-request comment". */
export const Comment = z
  .object({
    commentId: z.string(),
    number: z.number(),
    orgId: z.string(),
    repoId: z.string(),
    body: z.string(),
    ...authorFields,
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
  })
  .register(z.globalRegistry, { id: 'Comment' });
export type Comment = z.output<typeof Comment>;

export const nullableString = z.nullable(z.string());

export const Sha = z.string();

export const RepoListEntry = z
  .object({
    name: z.string(),
    resourceId: z.string(),
    description: nullableString,
    defaultBranch: nullableString,
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
    language: nullableString,
  })
  .register(z.globalRegistry, { id: 'RepoListEntry' });
export type RepoListEntry = z.output<typeof RepoListEntry>;

/**
 * Who wrote a check run: the platform itself (the preview build's `build`), an API key or a
 * platform agent key (by key id), or a person (by user id).
 */
export const CheckSource = z
  .union([
    z.literal('platform'),
    z.object({ apiKey: z.string() }),
    z.object({ agentKey: z.string() }),
    z.object({ user: z.string() }),
  ])
  .register(z.globalRegistry, { id: 'CheckSource' });
export type CheckSource = z.output<typeof CheckSource>;

/** The writer a required check is bound to: only a check from it satisfies the requirement. */
export const RequiredCheckSource = z
  .union([z.literal('platform'), z.object({ apiKey: z.string() }), z.object({ agentKey: z.string() })])
  .register(z.globalRegistry, { id: 'RequiredCheckSource' });
export type RequiredCheckSource = z.output<typeof RequiredCheckSource>;

/**
 * A check branch protection requires: a name (a check of that name from any writer satisfies it),
 * or a name bound to its writer (`{ "name": "build", "source": "platform" }`).
 */
export const RequiredCheck = z
  .union([z.string(), z.object({ name: z.string(), source: RequiredCheckSource })])
  .register(z.globalRegistry, { id: 'RequiredCheck' });
export type RequiredCheck = z.output<typeof RequiredCheck>;

/**
 * A required check on a pull request's head: `state` of the check that counts (`missing` when none
 * does), `checkId` of it, `reportedBy` the writer of a check of that name that does not count (bound
 * to another writer), `message` why it holds the merge (null once satisfied).
 */
export const RequiredCheckStatus = z
  .object({
    name: z.string(),
    source: z.nullable(RequiredCheckSource),
    state: z.enum(['missing', 'queued', 'in_progress', 'success', 'failure', 'cancelled']),
    satisfied: z.boolean(),
    checkId: nullableString,
    reportedBy: z.nullable(CheckSource),
    message: nullableString,
  })
  .register(z.globalRegistry, { id: 'RequiredCheckStatus' });
export type RequiredCheckStatus = z.output<typeof RequiredCheckStatus>;

export const RepoDetail = z
  .object({
    resourceId: z.string(),
    name: z.string(),
    description: nullableString,
    defaultBranch: z.string(),
    branches: z.array(z.string()),
    tags: z.array(z.string()),
    initialBranch: z.string(),
    protectedBranch: nullableString,
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
    openIssues: z.number(),
    openPulls: z.number(),
    requiredApprovals: z.number(),
    requiredChecks: z.array(RequiredCheck),
    cloneUrl: z.string(),
    empty: z.boolean(),
    status: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'RepoDetail' });
export type RepoDetail = z.output<typeof RepoDetail>;

export const RepoLabel = z
  .object({ name: z.string(), color: z.enum(LABEL_COLORS), description: z.optional(z.string()) })
  .register(z.globalRegistry, { id: 'RepoLabel' });
export type RepoLabel = z.output<typeof RepoLabel>;

export const RepoCredential = z
  .object({
    keyId: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    createdAt: z.number(),
    expiresAt: z.nullable(z.number()),
  })
  .register(z.globalRegistry, { id: 'RepoCredential' });
export type RepoCredential = z.output<typeof RepoCredential>;

export const BranchProtection = z
  .object({ requiredApprovals: z.number(), requiredChecks: z.array(RequiredCheck), branch: nullableString })
  .register(z.globalRegistry, { id: 'BranchProtection' });
export type BranchProtection = z.output<typeof BranchProtection>;

export const TreeEntry = z
  .object({
    name: z.string(),
    path: z.string(),
    type: z.enum(['file', 'dir', 'link', 'submodule']),
    mode: z.string(),
    id: z.string(),
    size: z.nullable(z.number()),
  })
  .register(z.globalRegistry, { id: 'TreeEntry' });
export type TreeEntry = z.output<typeof TreeEntry>;

export const Strategy = z.enum(['fast-forward', 'squash', 'three-way']);

export const PullRequest = z
  .object({
    number: z.number(),
    pullRequestId: z.string(),
    orgId: z.string(),
    repoId: z.string(),
    title: z.string(),
    state: z.optional(z.enum(['open', 'closed', 'merged'])),
    sourceBranch: z.string(),
    targetBranch: z.string(),
    ...threadFields,
    ...authorFields,
    mergeCommitId: z.optional(z.string()),
    previousPullRequestIds: z.optional(z.array(z.string())),
  })
  .register(z.globalRegistry, { id: 'PullRequest' });
export type PullRequest = z.output<typeof PullRequest>;

/** A check run on a commit (shared/domains/repos/checks.ts). */
export const CheckRun = z
  .object({
    checkId: z.string(),
    orgId: z.string(),
    repoId: z.string(),
    commitId: z.string(),
    name: z.string(),
    state: z.enum(['queued', 'in_progress', 'success', 'failure', 'cancelled']),
    summary: nullableString,
    detailsUrl: nullableString,
    startedAt: z.nullable(z.number()),
    completedAt: z.nullable(z.number()),
    createdBy: z.string(),
    createdByKind: z.enum(['user', 'api_key', 'agent_key', 'device', 'system']),
    /** Who wrote it (every write of a check is its writer's: another writer's is refused). */
    source: CheckSource,
    createdAt: z.number(),
    updatedAt: z.number(),
    version: z.number(),
  })
  .register(z.globalRegistry, { id: 'CheckRun' });
export type CheckRun = z.output<typeof CheckRun>;

/** A check run as stored (`REPO#<repoId>`, `CHECK#<commit>#<name>`): its writer's `source` is worked out when answered. */
export const CheckRecord = z.extend(z.omit(CheckRun, { source: true }), { pk: z.string(), sk: z.string() });
export type CheckRecord = z.output<typeof CheckRecord>;

/** The check runs of a commit counted per state, and their overall state. */
export const CheckSummary = z
  .object({
    state: z.enum(['none', 'pending', 'success', 'failure']),
    total: z.number(),
    counts: z.object({
      queued: z.number(),
      in_progress: z.number(),
      success: z.number(),
      failure: z.number(),
      cancelled: z.number(),
    }),
  })
  .register(z.globalRegistry, { id: 'CheckSummary' });
export type CheckSummary = z.output<typeof CheckSummary>;

export const PullRequestDetail = z
  .object({
    ...PullRequest.shape,
    description: z.string(),
    base: nullableString,
    head: nullableString,
    mergeCommitId: nullableString,
    revisionId: nullableString,
    sourceBranchExists: z.nullable(z.boolean()),
    checks: z.object({
      ...CheckSummary.shape,
      required: z.array(RequiredCheck),
      requiredStatus: z.array(RequiredCheckStatus),
    }),
    /**
     * The preview of the pull request's head (of its most recently changed linked project): its
     * stable URL, the state of its newest build (`retired` once closed or merged), that build's
     * deployment and commit; null when none was built.
     */
    preview: z.nullable(
      z.object({
        url: z.string(),
        state: z.enum(['queued', 'building', 'ready', 'error', 'cancelled', 'retired']),
        deploymentId: z.string(),
        commit: nullableString,
        projectId: z.string(),
        skipped: z.boolean(),
      }),
    ),
    /** Merged: the production deployment of its merge commit (null until one starts, or when none does). */
    deployment: z.nullable(z.object({ deploymentId: z.string(), status: z.string(), host: nullableString })),
  })
  .register(z.globalRegistry, { id: 'PullRequestDetail' });
export type PullRequestDetail = z.output<typeof PullRequestDetail>;

export const ReviewThread = z
  .object({
    id: z.string(),
    path: nullableString,
    line: z.nullable(z.number()),
    side: z.enum(['old', 'new']),
    beforeCommitId: z.string(),
    afterCommitId: nullableString,
    outdated: z.boolean(),
    comments: z.array(
      z.object({
        id: z.string(),
        body: z.string(),
        author: z.object({ id: nullableString, name: z.string(), email: nullableString }),
        createdAt: z.number(),
        updatedAt: z.nullable(z.number()),
        deleted: z.boolean(),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'ReviewThread' });
export type ReviewThread = z.output<typeof ReviewThread>;

/**
 * A review thread as stored (`THREAD#<number>#<threadId>`, shared/domains/repos/pulls.ts): with its
 * pull request's number; whether it is `outdated` is worked out when answered.
 */
export const ThreadRecord = z.extend(z.omit(ReviewThread, { outdated: true }), { number: z.number() });
export type ThreadRecord = z.output<typeof ThreadRecord>;

export const State = z
  .object({ state: z.enum(['open', 'closed', 'merged']) })
  .register(z.globalRegistry, { id: 'State' });
export type State = z.output<typeof State>;

/** An import of an existing repository (shared/domains/repos/imports/records.ts `importView`). */
export const RepoImport = z
  .object({
    importId: z.string(),
    url: z.string(),
    name: z.string(),
    state: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    progress: z.object({
      phase: z.enum(['queued', 'cloning', 'lfs', 'pushing', 'done']),
      objects: z.number(),
      bytes: z.number(),
    }),
    message: nullableString,
    repository: z.nullable(z.object({ name: z.string(), resourceId: z.string() })),
    createdAt: z.number(),
    updatedAt: z.number(),
    finishedAt: z.nullable(z.number()),
  })
  .register(z.globalRegistry, { id: 'RepoImport' });
export type RepoImport = z.output<typeof RepoImport>;

/**
 * An import as stored (`ORG#<orgId>`, `REPOIMPORT#<importId>`): the answer without its repository
 * (named by `name` and `repoId` once it succeeded) and with `finishedAt` only once finished; its
 * organization, the new repository's description and id, the build running it once started, the
 * source's `user:password` sealed (removed at the end), who made it, and while queued or running
 * its place in the index of unfinished imports (`gsi1`).
 */
export const ImportRecord = z.extend(z.omit(RepoImport, { repository: true, finishedAt: true }), {
  pk: z.string(),
  sk: z.string(),
  orgId: z.string(),
  description: z.optional(z.string()),
  repoId: z.string(),
  buildId: z.optional(z.string()),
  sealedCredentials: z.optional(z.string()),
  createdBy: z.string(),
  finishedAt: z.optional(z.number()),
  gsi1pk: z.optional(z.string()),
  gsi1sk: z.optional(z.string()),
});
export type ImportRecord = z.output<typeof ImportRecord>;
