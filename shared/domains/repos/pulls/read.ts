import { invalid, notFound } from '../../../kernel/ground/errors';
import { publicFields } from '../../../kernel/store/table';
import { mergedDeployment } from '../../deployments/preview-builds';
import { pullPreview } from '../../deployments/previews';
import { checkSummary, checksOf, requiredView } from '../checks';
import { type CommentRecord, commentsOf, listNumbered } from '../issues';
import { requiredChecksFor } from '../protection';
import { PULL_MESSAGES, type PullRecord, reviewedHead } from '../pulls';
import { requireRepo } from '../records';
import { repoGit } from '../tags';
import {
  headsOf,
  MAX_COMMITS,
  MAX_FILES,
  mergeBaseOf,
  mergeState,
  pullOf,
  requireHeads,
  revisionAt,
  shown,
} from './state';

/**
 * Reading pull requests. Reads only: a pull request finished outside the platform (its source
 * deleted, or pushed into its target) is settled where that happens (./settle.ts), never here.
 */

/** A file with more changed lines than this is shown collapsed. */
const COLLAPSE_LINES = 1000;

/** A page of a repository's pull requests, newest first, as lists show them. */
export async function listPulls(
  orgId: string,
  name: string,
  query: { state: string; cursor?: string; label?: string; author?: string; assignee?: string; limit: number },
) {
  const r = await requireRepo(orgId, name);
  const page = await listNumbered<PullRecord>(r, 'pull', query);
  return { pulls: page.items.map(shown), cursor: page.cursor };
}

/**
 * A pull request in detail: merge base, heads, revision, checks, preview, the deployment of its
 * merge; the strategies that would merge it now, its conflicts and its comments.
 */
export async function pullDetail(orgId: string, name: string, number: number) {
  const { r, pull } = await pullOf(orgId, name, number);
  const port = await repoGit();
  const [heads, comments, preview, deployment] = await Promise.all([
    headsOf(port, pull),
    commentsOf(r.resourceId, pull.number),
    pullPreview(pull.repoId, pull.number),
    pull.state === 'merged' && pull.mergeCommitId
      ? mergedDeployment(orgId, pull.repoId, pull.mergeCommitId)
      : undefined,
  ]);
  const checkHead = reviewedHead(pull, heads.source) ?? heads.source;
  const headChecks = checkHead ? await checksOf(pull.repoId, checkHead) : [];
  const checks = checkSummary(headChecks);
  const open = pull.state === 'open';
  if (open && !heads.target) throw notFound(PULL_MESSAGES.refNotFound);
  const merge =
    open && heads.source && heads.target
      ? await mergeState(port, pull.repoId, heads.target, heads.source, () => invalid(PULL_MESSAGES.tooFar))
      : undefined;
  return {
    pull: {
      ...shown(pull),
      description: pull.description,
      base: merge?.mergeBase ?? null,
      head: heads.source,
      mergeCommitId: pull.mergeCommitId ?? null,
      revisionId: revisionAt(pull, heads.source),
      sourceBranchExists: heads.source !== null,
      checks: { ...checks, ...requiredView(requiredChecksFor(r, pull.targetBranch), headChecks) },
      preview,
      deployment: deployment
        ? {
            deploymentId: deployment.deploymentId,
            status: deployment.status ?? 'queued',
            host: deployment.host ?? null,
          }
        : null,
    },
    mergeOptions: merge?.options ?? [],
    conflicts: merge?.conflicts ?? [],
    comments: comments.map((c) => publicFields(c as CommentRecord & Record<string, unknown>)),
  };
}

/** The commits the source brings since the merge base (newest first, 250 at most: `truncated` past them). */
export async function pullCommits(orgId: string, name: string, number: number) {
  const { pull } = await pullOf(orgId, name, number);
  const port = await repoGit();
  const heads = await requireHeads(port, pull);
  // From the merge base (not the target's head: CodeCommit walks down to it), and too far apart is 400.
  const base = await mergeBaseOf(port, pull.repoId, heads, () => invalid(PULL_MESSAGES.tooFar));
  const commits = await port.commitsBetween(pull.repoId, base ?? heads.target, heads.source, MAX_COMMITS + 1);
  return { commits: commits.slice(0, MAX_COMMITS), truncated: commits.length > MAX_COMMITS };
}

/** The files the source changes since the merge base; binary and very long ones collapsed. */
export async function pullFiles(orgId: string, name: string, number: number) {
  const { pull } = await pullOf(orgId, name, number);
  const port = await repoGit();
  const heads = await requireHeads(port, pull);
  const base = await mergeBaseOf(port, pull.repoId, heads, () => invalid(PULL_MESSAGES.tooFar));
  const diff = await port.diff(pull.repoId, base, heads.source, { maxFiles: MAX_FILES, maxLines: 50_000 });
  const files = diff.files.map((f) =>
    f.binary || f.additions + f.deletions > COLLAPSE_LINES ? { ...f, collapsed: true, hunks: [] } : f,
  );
  return { files, total: files.length, truncated: diff.truncated, base, head: heads.source };
}
