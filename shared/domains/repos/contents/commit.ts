import type { Caller } from '../../../kernel/auth/caller';
import { conflict, forbidden, invalid, notFound, tooLarge } from '../../../kernel/ground/errors';
import { type GitChange, GitChangeError, GitConflict, GitInputError } from '../../../ports/git';
import { pathProblem, refNameProblem } from '../../../ports/git/names';
import { protectedBranchOf } from '../protection';
import { requireRepo } from '../records';
import { repoGit } from '../tags';
import { createUploads, readUpload, removeUploads } from '../uploads';
import { MAX_CONTENT_BYTES } from './files';
import { REFS_MESSAGES } from './refs';

/** Web commits: file changes committed on a branch (or a new one) from the API, and the uploads they may name. */

export const COMMIT_MESSAGES = {
  tooBig: 'Web commits can change up to 100 files and 4 MB of content. Push larger changes with git.',
  parentRequired: 'parentCommitId is required.',
  protectedBranch: (branch: string) => `${branch} is protected. Commit to a new branch and open a pull request.`,
} as const;

/** A change of a web commit: `content` is base64, or `uploadId` names a file of contents/uploads. */
export type ChangeInput =
  | { action: 'put'; path: string; content?: string; uploadId?: string }
  | { action: 'move'; from: string; path: string; content?: string; uploadId?: string }
  | { action: 'delete'; path: string };

export interface WebCommit {
  branch: string;
  parentCommitId?: string;
  message: string;
  description?: string;
  newBranch?: string;
  changes: ChangeInput[];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const personOf = (c: Caller) =>
  c.kind === 'user'
    ? { name: c.name ?? c.email ?? c.userId, email: c.email ?? `${c.userId}@users.noreply.platform.local` }
    : { name: `Key ${c.keyId}`, email: `${c.keyId}@keys.noreply.platform.local` };

/**
 * Commits `changes` on `branch` (or on `newBranch` made from it) only if the branch is still at
 * `parentCommitId`; never on the protected branch. Every 400 and the 413 before anything is
 * written. No `commitId` when nothing changed. The uploads it named are removed.
 */
export async function commitChanges(orgId: string, name: string, caller: Caller, body: WebCommit) {
  const r = await requireRepo(orgId, name);
  const changes = await toChanges(body.changes, (path, uploadId, max) => readUpload(r.resourceId, path, uploadId, max));
  const port = await repoGit();
  const refs = await port.refs(r.resourceId);
  const head = refs.branches.find((b) => b.name === body.branch);
  const empty = refs.branches.length === 0;
  if (!head && !(empty && body.branch === r.defaultBranch)) throw notFound(`Branch ${body.branch} not found.`);
  if (head && !body.parentCommitId) throw invalid(COMMIT_MESSAGES.parentRequired);
  const target = body.newBranch || body.branch;
  if (body.newBranch) {
    const problem = refNameProblem(body.newBranch);
    if (problem) throw invalid(`${body.newBranch}: ${problem}`);
    if (refs.branches.some((b) => b.name === body.newBranch))
      throw conflict(`A branch named ${body.newBranch} already exists.`);
    if (refs.tags.some((t) => t.name === body.newBranch))
      throw conflict(`A tag named ${body.newBranch} already exists.`);
  } else if (target === protectedBranchOf(r)) {
    throw forbidden(COMMIT_MESSAGES.protectedBranch(target));
  }
  const message = body.description ? `${body.message}\n\n${body.description}` : body.message;
  try {
    const { commitId } = await port.commit(r.resourceId, {
      branch: target,
      parent: head ? (body.parentCommitId as string) : null,
      changes,
      message,
      author: personOf(caller),
      create: Boolean(body.newBranch),
    });
    if (!commitId && body.newBranch && head) {
      await port.setRef(r.resourceId, `refs/heads/${body.newBranch}`, body.parentCommitId as string, null);
    }
    const uploads = body.changes.flatMap((c) => ('uploadId' in c && c.uploadId ? [c.uploadId] : []));
    await removeUploads(r.resourceId, uploads).catch(() => undefined);
    return { ...(commitId ? { commitId } : {}), branch: target };
  } catch (err) {
    if (err instanceof GitConflict) {
      throw conflict(body.newBranch ? `A branch named ${body.newBranch} already exists.` : REFS_MESSAGES.branchChanged);
    }
    if (err instanceof GitChangeError || err instanceof GitInputError) throw invalid(err.message);
    throw err;
  }
}

/** Presigned PUTs for the files of a web commit: valid paths, 4 MB in all. */
export async function requestUploads(orgId: string, name: string, files: { path: string; size: number }[]) {
  for (const f of files) {
    const problem = pathProblem(f.path);
    if (problem) throw invalid(`${f.path.slice(0, 300)}: ${problem}`);
  }
  if (files.reduce((n, f) => n + f.size, 0) > MAX_CONTENT_BYTES) throw tooLarge(COMMIT_MESSAGES.tooBig);
  const r = await requireRepo(orgId, name);
  return createUploads(r.resourceId, files);
}

/**
 * The changes as the port takes them: every spec 400 and the 413, before anything is written.
 * `uploaded` reads a file of contents/uploads.
 */
async function toChanges(
  changes: ChangeInput[],
  uploaded: (path: string, uploadId: string, maxBytes: number) => Promise<Buffer>,
): Promise<GitChange[]> {
  const seen = new Set<string>();
  let bytes = 0;
  const count = (buf: Buffer) => {
    bytes += buf.length;
    if (bytes > MAX_CONTENT_BYTES) throw tooLarge(COMMIT_MESSAGES.tooBig);
    return buf;
  };
  const decode = (path: string, content: string) => {
    if (content.length % 4 !== 0 || !BASE64.test(content)) throw invalid(`${path}: content is not valid base64`);
    return count(Buffer.from(content, 'base64'));
  };
  const body = async (c: { path: string; content?: string; uploadId?: string }) => {
    if (c.content !== undefined && c.uploadId !== undefined) {
      throw invalid(`${c.path}: give content or uploadId, not both`);
    }
    if (c.uploadId !== undefined) return count(await uploaded(c.path, c.uploadId, MAX_CONTENT_BYTES - bytes));
    return c.content !== undefined ? decode(c.path, c.content) : undefined;
  };
  const claim = (path: string) => {
    const problem = pathProblem(path);
    if (problem) throw invalid(`${path.replaceAll('\0', '\\0').slice(0, 300)}: ${problem}`);
    if (seen.has(path)) throw invalid(`${path} is changed more than once.`);
    seen.add(path);
  };
  for (const c of changes) {
    claim(c.path);
    if (c.action === 'move') claim(c.from);
  }
  const out: GitChange[] = [];
  for (const c of changes) {
    if (c.action === 'delete') out.push({ action: 'delete', path: c.path });
    else if (c.action === 'put') {
      const content = await body(c);
      if (!content) throw invalid(`${c.path}: content or uploadId is required`);
      out.push({ action: 'put', path: c.path, content });
    } else {
      const content = await body(c);
      out.push({ action: 'move', from: c.from, path: c.path, ...(content ? { content } : {}) });
    }
  }
  return out;
}
