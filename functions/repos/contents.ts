import * as z from 'zod/mini';
import { ARCHIVE_TOO_LARGE, requestArchive } from '../../shared/domains/repos/archives';
import { deleteLabel, LABEL_COLORS, listLabels, TOO_MANY_LABELS, upsertLabel } from '../../shared/domains/repos/labels';
import { lfsFileOf } from '../../shared/domains/repos/lfs/objects';
import { openPairs } from '../../shared/domains/repos/pulls';
import { M, type RepoRecord, requireRepo } from '../../shared/domains/repos/records';
import { repoGit } from '../../shared/domains/repos/tags';
import { createUploads, readUpload, removeUploads } from '../../shared/domains/repos/uploads';
import type { Caller } from '../../shared/kernel/auth/caller';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import { created, ok, type Reply, route } from '../../shared/kernel/http/route';
import { decodeCursor, encodeCursor, INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { type GitChange, GitChangeError, GitConflict, GitInputError } from '../../shared/ports/git';
import { isCommitId, pathProblem, refNameProblem } from '../../shared/ports/git/names';
import { protectedBranchOf, RepoParams } from './repos';

const NOT_FOUND = 'Not found';
const REF_NOT_FOUND = 'Branch or tag not found';
const BRANCH_EXISTS = 'A branch with this name already exists.';
const TAG_EXISTS = 'A tag with this name already exists.';
const NO_SUCH_COMMIT = "That commit doesn't exist.";
const DEFAULT_BRANCH = "The default branch can't be deleted.";
const BRANCH_GONE = 'Branch not found.';
const BRANCH_CHANGED = 'The branch changed. Reload and try again.';
const TOO_BIG_COMMIT = 'Web commits can change up to 100 files and 4 MB of content. Push larger changes with git.';
const TOO_LARGE_FILE = 'This file is too large to show here. Clone the repository to get it.';
/** A file that is a Git LFS pointer to an object never uploaded (e.g. pushed without git-lfs installed). */
export const LFS_OBJECT_MISSING =
  'This file is stored with Git LFS and its object was never uploaded. Push it with git lfs push --all origin.';
const PARENT_REQUIRED = 'parentCommitId is required.';

/** What a web commit may carry, and what `raw` and `blobs` answer at most (Lambda's 6 MB, base64 included). */
export const MAX_CONTENT_BYTES = 4 * 1024 * 1024;
const MAX_FILES = 10_000;

const Ref = z.string().check(z.minLength(1), z.maxLength(256));
const Sha = z.string().check(z.regex(/^[0-9a-f]{40}$/, 'Use a 40-character lowercase hex commit id.'));
/** How soon to ask again for an archive being made. */
const redirect = (location: string): Reply => ({
  status: 303,
  body: '',
  headers: { location, 'cache-control': 'no-store' },
});
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const ARCHIVE_RETRY = { 'retry-after': '2' };
const protectedMessage = (branch: string) => `${branch} is protected. Commit to a new branch and open a pull request.`;

/** A branch, tag or commit of the repository: 404 `Branch or tag not found` when it names none. */
async function commitOf(r: RepoRecord, ref: string): Promise<string> {
  const found = await (await repoGit()).resolve(r.resourceId, ref);
  if (!found) throw notFound(REF_NOT_FOUND);
  return found.commit;
}

const personOf = (c: Caller) =>
  c.kind === 'user'
    ? { name: c.name ?? c.email ?? c.userId, email: c.email ?? `${c.userId}@users.noreply.platform.local` }
    : { name: `Key ${c.keyId}`, email: `${c.keyId}@keys.noreply.platform.local` };

/** The change variants of a web commit: `content` is base64, or `uploadId` names a file of contents/uploads. */
const Change = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('put'),
    path: z.string(),
    content: z.optional(z.string()),
    uploadId: z.optional(z.string()),
  }),
  z.object({
    action: z.literal('move'),
    from: z.string(),
    path: z.string(),
    content: z.optional(z.string()),
    uploadId: z.optional(z.string()),
  }),
  z.object({ action: z.literal('delete'), path: z.string() }),
]);
type ChangeInput = z.infer<typeof Change>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

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
    if (bytes > MAX_CONTENT_BYTES) throw new HttpError(413, TOO_BIG_COMMIT);
    return buf;
  };
  const decode = (path: string, content: string) => {
    if (content.length % 4 !== 0 || !BASE64.test(content)) throw badRequest(`${path}: content is not valid base64`);
    return count(Buffer.from(content, 'base64'));
  };
  const body = async (c: { path: string; content?: string; uploadId?: string }) => {
    if (c.content !== undefined && c.uploadId !== undefined) {
      throw badRequest(`${c.path}: give content or uploadId, not both`);
    }
    if (c.uploadId !== undefined) return count(await uploaded(c.path, c.uploadId, MAX_CONTENT_BYTES - bytes));
    return c.content !== undefined ? decode(c.path, c.content) : undefined;
  };
  const claim = (path: string) => {
    const problem = pathProblem(path);
    if (problem) throw badRequest(`${path.replaceAll('\0', '\\0').slice(0, 300)}: ${problem}`);
    if (seen.has(path)) throw badRequest(`${path} is changed more than once.`);
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
      if (!content) throw badRequest(`${c.path}: content or uploadId is required`);
      out.push({ action: 'put', path: c.path, content });
    } else {
      const content = await body(c);
      out.push({ action: 'move', from: c.from, path: c.path, ...(content ? { content } : {}) });
    }
  }
  return out;
}

export const contentRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/branches',
    scope: 'git:read',
    summary:
      'Branches with their commits; which is the default, which is protected, and the open pull request from ' +
      'each (`openPull`: its number, the lowest when several).',
    params: RepoParams,
    errors: { 404: [M.repoNotFound] },
    read: async ({ orgId, params }) => {
      const r = await requireRepo(orgId, params.name);
      const [{ branches }, pairs] = await Promise.all([(await repoGit()).refs(r.resourceId), openPairs(r.resourceId)]);
      // A branch's open pull request: the first one opened from it, when there are several.
      const openPull = new Map<string, number>();
      for (const pair of pairs) {
        const known = openPull.get(pair.source);
        if (known === undefined || pair.number < known) openPull.set(pair.source, pair.number);
      }
      const guarded = protectedBranchOf(r);
      return {
        defaultBranch: r.defaultBranch,
        branches: branches.map((b) => ({
          name: b.name,
          commit: b.commit,
          isDefault: b.name === r.defaultBranch,
          protected: b.name === guarded,
          openPull: openPull.get(b.name) ?? null,
        })),
      };
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/branches',
    scope: 'git:write',
    summary: 'Creates a branch from a branch, a tag or a commit.',
    params: RepoParams,
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(256)),
      from: z.string().check(z.trim(), z.minLength(1), z.maxLength(256)),
    }),
    errors: {
      400: [NO_SUCH_COMMIT, 'Branch name ...'],
      404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND],
      409: [BRANCH_EXISTS, TAG_EXISTS],
    },
    run: async ({ org, params, body }) => {
      const problem = refNameProblem(body.name);
      if (problem) throw badRequest(`Branch name ${problem}.`);
      const r = await requireRepo(org.orgId, params.name);
      const port = await repoGit();
      const refs = await port.refs(r.resourceId);
      if (refs.tags.some((t) => t.name === body.name)) throw conflict(TAG_EXISTS);
      if (refs.branches.some((b) => b.name === body.name)) throw conflict(BRANCH_EXISTS);
      const from = await port.resolve(r.resourceId, body.from);
      if (!from) throw isCommitId(body.from) ? badRequest(NO_SUCH_COMMIT) : notFound(REF_NOT_FOUND);
      try {
        await port.setRef(r.resourceId, `refs/heads/${body.name}`, from.commit, null);
      } catch (err) {
        if (err instanceof GitConflict) throw conflict(BRANCH_EXISTS);
        throw err;
      }
      return created({ branch: { name: body.name, commitId: from.commit } });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/repos/:name/branches',
    scope: 'git:write',
    summary: 'Deletes a branch (never the default one); answers the commit it pointed at.',
    params: RepoParams,
    query: z.object({ name: z.string().check(z.minLength(1), z.maxLength(256)) }),
    errors: { 400: [DEFAULT_BRANCH], 404: [M.repoNotFound, BRANCH_GONE], 409: [BRANCH_CHANGED] },
    run: async ({ org, params, query }) => {
      const r = await requireRepo(org.orgId, params.name);
      if (query.name === r.defaultBranch) throw badRequest(DEFAULT_BRANCH);
      const port = await repoGit();
      const branch = (await port.refs(r.resourceId)).branches.find((b) => b.name === query.name);
      if (!branch) throw notFound(BRANCH_GONE);
      try {
        await port.setRef(r.resourceId, `refs/heads/${branch.name}`, null, branch.commit);
      } catch (err) {
        if (err instanceof GitConflict) throw conflict(BRANCH_CHANGED);
        throw err;
      }
      return ok({ deleted: branch.name, commitId: branch.commit });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/tags',
    scope: 'git:read',
    summary: 'Tags (pushed with git): annotated or not, the object they point at and their commit.',
    params: RepoParams,
    errors: { 404: [M.repoNotFound] },
    read: async ({ orgId, params }) => {
      const r = await requireRepo(orgId, params.name);
      return { tags: (await (await repoGit()).refs(r.resourceId)).tags };
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/contents',
    scope: 'git:write',
    summary:
      'Commits file changes (put with base64 content, move, delete) on `branch`, or on a `newBranch` made from ' +
      'it, only if the branch is still at `parentCommitId`. No `commitId` when nothing changed.',
    params: RepoParams,
    body: z.object({
      branch: z.string().check(z.minLength(1), z.maxLength(256)),
      parentCommitId: z.optional(Sha),
      message: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)),
      description: z.optional(z.string().check(z.maxLength(20_000))),
      newBranch: z.optional(z.string().check(z.trim(), z.maxLength(256))),
      changes: z.array(Change).check(z.minLength(1), z.maxLength(100)),
    }),
    errors: {
      400: ['...: ...', '... is changed more than once.', PARENT_REQUIRED],
      403: ['... is protected. Commit to a new branch and open a pull request.'],
      404: [M.repoNotFound, 'Branch ... not found.'],
      409: ['A branch named ... already exists.', 'A tag named ... already exists.', BRANCH_CHANGED],
      413: [TOO_BIG_COMMIT],
    },
    run: async ({ org, params, body, caller }) => {
      const r = await requireRepo(org.orgId, params.name);
      const changes = await toChanges(body.changes, (path, uploadId, max) =>
        readUpload(r.resourceId, path, uploadId, max),
      );
      const port = await repoGit();
      const refs = await port.refs(r.resourceId);
      const head = refs.branches.find((b) => b.name === body.branch);
      const empty = refs.branches.length === 0;
      if (!head && !(empty && body.branch === r.defaultBranch)) throw notFound(`Branch ${body.branch} not found.`);
      if (head && !body.parentCommitId) throw badRequest(PARENT_REQUIRED);
      const target = body.newBranch || body.branch;
      if (body.newBranch) {
        const problem = refNameProblem(body.newBranch);
        if (problem) throw badRequest(`${body.newBranch}: ${problem}`);
        if (refs.branches.some((b) => b.name === body.newBranch))
          throw conflict(`A branch named ${body.newBranch} already exists.`);
        if (refs.tags.some((t) => t.name === body.newBranch))
          throw conflict(`A tag named ${body.newBranch} already exists.`);
      } else if (target === protectedBranchOf(r)) {
        throw forbidden(protectedMessage(target));
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
        return created({ ...(commitId ? { commitId } : {}), branch: target });
      } catch (err) {
        if (err instanceof GitConflict) {
          throw conflict(body.newBranch ? `A branch named ${body.newBranch} already exists.` : BRANCH_CHANGED);
        }
        if (err instanceof GitChangeError || err instanceof GitInputError) throw badRequest(err.message);
        throw err;
      }
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/contents/uploads',
    scope: 'git:write',
    summary:
      'Presigned PUTs for files of a web commit (1-100 files, 4 MB in all, as web commits): PUT each file to ' +
      'its `url` with exactly its `headers` within 15 minutes, then commit with `uploadId` instead of `content`.',
    params: RepoParams,
    body: z.object({
      files: z
        .array(
          z.object({
            path: z.string().check(z.minLength(1), z.maxLength(4096)),
            size: z.int().check(z.minimum(0), z.maximum(MAX_CONTENT_BYTES)),
          }),
        )
        .check(z.minLength(1), z.maxLength(100)),
    }),
    errors: { 400: ['...: ...'], 404: [M.repoNotFound], 413: [TOO_BIG_COMMIT] },
    run: async ({ org, params, body }) => {
      for (const f of body.files) {
        const problem = pathProblem(f.path);
        if (problem) throw badRequest(`${f.path.slice(0, 300)}: ${problem}`);
      }
      if (body.files.reduce((n, f) => n + f.size, 0) > MAX_CONTENT_BYTES) throw new HttpError(413, TOO_BIG_COMMIT);
      const r = await requireRepo(org.orgId, params.name);
      return created({ uploads: await createUploads(r.resourceId, body.files) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/contents/archive',
    scope: 'git:read',
    summary:
      'An archive of a branch, tag or commit (default: the default branch), `zip` (default) or `tar.gz`, as ' +
      '`git archive` makes it. `202` with `Retry-After` while it is made: ask again; then `200` with a link valid ' +
      '5 minutes. A commit is archived once; later requests get a new link to the same archive.',
    params: RepoParams,
    body: z.object({ ref: z.optional(Ref), format: z.optional(z.enum(['zip', 'tar.gz'])) }),
    errors: { 404: [M.repoNotFound, REF_NOT_FOUND], 422: [ARCHIVE_TOO_LARGE] },
    run: async ({ org, params, body }) => {
      const r = await requireRepo(org.orgId, params.name);
      const commitId = await commitOf(r, body.ref ?? r.defaultBranch);
      const format = body.format ?? 'zip';
      const state = await requestArchive(r, commitId, format);
      if (state.status === 'failed') throw new HttpError(422, state.error);
      if (state.status === 'building') {
        return { status: 202, body: { archive: { status: 'building', commitId, format } }, headers: ARCHIVE_RETRY };
      }
      return ok({ archive: { ...state, commitId, format } });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/contents/raw',
    scope: 'git:read',
    summary:
      "A file's bytes at a ref, as application/octet-stream (never rendered). Up to 4 MB: larger files are cloned. " +
      'A file stored with Git LFS answers `303` to a link to its object, valid 5 minutes (its bytes never pass ' +
      'through the API).',
    params: RepoParams,
    query: z.object({ ref: z.optional(Ref), path: z.string().check(z.minLength(1), z.maxLength(4096)) }),
    errors: { 404: [M.repoNotFound, NOT_FOUND, LFS_OBJECT_MISSING], 413: [TOO_LARGE_FILE] },
    run: async ({ org, params, query }) => {
      const r = await requireRepo(org.orgId, params.name);
      if (pathProblem(query.path)) throw notFound(NOT_FOUND);
      const found = await (await repoGit()).resolve(r.resourceId, query.ref ?? r.defaultBranch);
      if (!found) throw notFound(NOT_FOUND);
      const file = await (await repoGit()).readFile(r.resourceId, found.commit, query.path, MAX_CONTENT_BYTES);
      if (!file) throw notFound(NOT_FOUND);
      if ('tooLarge' in file) throw new HttpError(413, TOO_LARGE_FILE);
      const lfs = await lfsFileOf({ orgId: org.orgId, repoId: r.resourceId }, file.content, baseName(query.path));
      if (lfs && !lfs.url) throw notFound(LFS_OBJECT_MISSING);
      if (lfs?.url) return redirect(lfs.url);
      return {
        status: 200,
        body: file.content,
        headers: {
          'content-type': 'application/octet-stream',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'content-disposition': 'attachment',
        },
      };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/contents/files',
    scope: 'git:read',
    summary: 'Every file of a ref (path, blob id, mode, file or link), up to 10,000 (`truncated` past that).',
    params: RepoParams,
    query: z.object({ ref: Ref }),
    errors: { 404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND] },
    read: async ({ orgId, params, query }) => {
      const r = await requireRepo(orgId, params.name);
      const commitId = await commitOf(r, query.ref);
      const { files, truncated } = await (await repoGit()).files(r.resourceId, commitId, MAX_FILES);
      return { files, truncated, commitId };
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/contents/blobs',
    scope: 'git:read',
    summary:
      'Blobs by id, base64, in request order, as many as fit in 4 MB; a blob larger than that alone is ' +
      '`tooLarge`. Ask again for the ones not answered.',
    params: RepoParams,
    body: z.object({ ids: z.array(Sha).check(z.minLength(1), z.maxLength(50)) }),
    errors: { 404: [M.repoNotFound] },
    read: async ({ orgId, params, body }) => {
      const r = await requireRepo(orgId, params.name);
      const port = await repoGit();
      const blobs: ({ id: string; content: string } | { id: string; tooLarge: true })[] = [];
      let room = MAX_CONTENT_BYTES;
      for (const id of body.ids) {
        const blob = await port.readBlob(r.resourceId, id, MAX_CONTENT_BYTES);
        if (!blob) continue;
        if ('tooLarge' in blob) {
          blobs.push({ id, tooLarge: true });
          continue;
        }
        if (blob.size > room) break;
        room -= blob.size;
        blobs.push({ id, content: blob.content.toString('base64') });
      }
      return { blobs };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/commits',
    scope: 'git:read',
    summary: 'Commits of a ref (the default branch unless given), newest first, optionally touching `path`.',
    params: RepoParams,
    query: z.object({
      ref: z.optional(Ref),
      path: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
      cursor: z.optional(z.string()),
      limit: queryInt(1, 100, 30),
    }),
    errors: { 400: [INVALID_CURSOR], 404: [M.repoNotFound, REF_NOT_FOUND] },
    read: async ({ orgId, params, query }) => {
      const r = await requireRepo(orgId, params.name);
      const scope = `commits:${r.resourceId}:${query.path ?? ''}`;
      const at = query.cursor ? decodeCursor<{ from: string; skip: number }>(scope, query.cursor) : undefined;
      if (query.cursor && !at) throw badRequest(INVALID_CURSOR);
      if (query.path && pathProblem(query.path)) return { commits: [], cursor: null };
      const empty = (await (await repoGit()).refs(r.resourceId)).branches.length === 0;
      if (empty && !at) return { commits: [], cursor: null };
      const from = at?.from ?? (await commitOf(r, query.ref ?? r.defaultBranch));
      const skip = at?.skip ?? 0;
      const page = await (await repoGit()).log(r.resourceId, { from, path: query.path, skip, limit: query.limit + 1 });
      const more = page.length > query.limit;
      return {
        commits: page.slice(0, query.limit),
        cursor: more ? encodeCursor(scope, { from, skip: skip + query.limit }) : null,
      };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/last-commit',
    scope: 'git:read',
    summary: 'The newest commit of a ref that touched `path` (the whole tree without it); null when none did.',
    params: RepoParams,
    query: z.object({ ref: z.optional(Ref), path: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))) }),
    errors: { 404: [M.repoNotFound, REF_NOT_FOUND] },
    read: async ({ orgId, params, query }) => {
      const r = await requireRepo(orgId, params.name);
      if (query.path && pathProblem(query.path)) return { commit: null };
      const from = await commitOf(r, query.ref ?? r.defaultBranch);
      const [commit] = await (await repoGit()).log(r.resourceId, { from, path: query.path, skip: 0, limit: 1 });
      return { commit: commit ?? null };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/labels',
    scope: 'git:read',
    summary: "The repository's labels.",
    params: RepoParams,
    errors: { 404: [M.repoNotFound] },
    read: async ({ orgId, params }) => ({ labels: await listLabels(await requireRepo(orgId, params.name)) }),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/repos/:name/labels',
    scope: 'git:write',
    summary: 'Creates or replaces a label by name; a repository keeps up to 100.',
    params: RepoParams,
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(50)),
      color: z.enum(LABEL_COLORS),
      description: z.optional(z.string().check(z.trim(), z.maxLength(100))),
    }),
    errors: { 400: [TOO_MANY_LABELS], 404: [M.repoNotFound] },
    run: async ({ org, params, body }) => {
      const r = await requireRepo(org.orgId, params.name);
      const label = await upsertLabel(r, {
        name: body.name,
        color: body.color,
        ...(body.description ? { description: body.description } : {}),
      });
      return ok({ label });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/repos/:name/labels',
    scope: 'git:write',
    summary: 'Removes a label; removing one that is not there is fine.',
    params: RepoParams,
    query: z.object({ name: z.string().check(z.minLength(1), z.maxLength(50)) }),
    errors: { 404: [M.repoNotFound] },
    run: async ({ org, params, query }) => {
      await deleteLabel(await requireRepo(org.orgId, params.name), query.name);
      return { status: 204 };
    },
  }),
];
