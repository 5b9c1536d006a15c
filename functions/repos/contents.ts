import * as z from 'zod/mini';
import { ARCHIVE_TOO_LARGE } from '../../shared/domains/repos/archives';
import { COMMIT_MESSAGES, commitChanges, requestUploads } from '../../shared/domains/repos/contents/commit';
import { lastCommit, listCommits } from '../../shared/domains/repos/contents/commits';
import {
  archiveOf,
  FILES_MESSAGES,
  listFiles,
  MAX_CONTENT_BYTES,
  rawFile,
  readBlobs,
} from '../../shared/domains/repos/contents/files';
import {
  createBranch,
  deleteBranch,
  listBranches,
  listTags,
  REFS_MESSAGES,
} from '../../shared/domains/repos/contents/refs';
import { deleteLabel, LABEL_COLORS, listLabels, TOO_MANY_LABELS, upsertLabel } from '../../shared/domains/repos/labels';
import { M, requireRepo } from '../../shared/domains/repos/records';
import { queryInt } from '../../shared/kernel/http/query';
import { created, ok, type Reply, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { RepoParams } from './repos';

/**
 * The repos group's routes of refs and contents: branches, tags, web commits and their uploads,
 * archives, files and blobs, history, labels. HTTP only: each maps to a use case of
 * shared/domains/repos/contents/ (or labels) and back.
 */

const NOT_FOUND = 'Not found';
const { refNotFound: REF_NOT_FOUND } = REFS_MESSAGES;

const Ref = z.string().check(z.minLength(1), z.maxLength(256));
const Sha = z.string().check(z.regex(/^[0-9a-f]{40}$/, 'Use a 40-character lowercase hex commit id.'));
const Path = z.string().check(z.minLength(1), z.maxLength(4096));
const Content = { content: z.optional(z.string()), uploadId: z.optional(z.string()) };
/** The change variants of a web commit: `content` is base64, or `uploadId` names a file of contents/uploads. */
const Change = z.discriminatedUnion('action', [
  z.object({ action: z.literal('put'), path: z.string(), ...Content }),
  z.object({ action: z.literal('move'), from: z.string(), path: z.string(), ...Content }),
  z.object({ action: z.literal('delete'), path: z.string() }),
]);
/** How soon to ask again for an archive being made. */
const ARCHIVE_RETRY = { 'retry-after': '2' };
const redirect = (location: string): Reply => ({
  status: 303,
  body: '',
  headers: { location, 'cache-control': 'no-store' },
});
/** A file's bytes, never rendered by a browser. */
const RAW_HEADERS = {
  'content-type': 'application/octet-stream',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'content-disposition': 'attachment',
};

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
    read: ({ orgId, params }) => listBranches(orgId, params.name),
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
      400: [REFS_MESSAGES.noSuchCommit, 'Branch name ...'],
      404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND],
      409: [REFS_MESSAGES.branchExists, REFS_MESSAGES.tagExists],
    },
    run: async ({ org, params, body }) =>
      created({ branch: await createBranch(org.orgId, params.name, body.name, body.from) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/repos/:name/branches',
    scope: 'git:write',
    summary: 'Deletes a branch (never the default one); answers the commit it pointed at.',
    params: RepoParams,
    query: z.object({ name: z.string().check(z.minLength(1), z.maxLength(256)) }),
    errors: {
      400: [REFS_MESSAGES.defaultBranch],
      404: [M.repoNotFound, REFS_MESSAGES.branchGone],
      409: [REFS_MESSAGES.branchChanged],
    },
    run: async ({ org, params, query }) => ok(await deleteBranch(org.orgId, params.name, query.name)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/tags',
    scope: 'git:read',
    summary: 'Tags (pushed with git): annotated or not, the object they point at and their commit.',
    params: RepoParams,
    errors: { 404: [M.repoNotFound] },
    read: ({ orgId, params }) => listTags(orgId, params.name),
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
      400: ['...: ...', '... is changed more than once.', COMMIT_MESSAGES.parentRequired],
      403: [COMMIT_MESSAGES.protectedBranch('...')],
      404: [M.repoNotFound, 'Branch ... not found.'],
      409: ['A branch named ... already exists.', 'A tag named ... already exists.', REFS_MESSAGES.branchChanged],
      413: [COMMIT_MESSAGES.tooBig],
    },
    run: async ({ org, params, body, caller }) => created(await commitChanges(org.orgId, params.name, caller, body)),
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
        .array(z.object({ path: Path, size: z.int().check(z.minimum(0), z.maximum(MAX_CONTENT_BYTES)) }))
        .check(z.minLength(1), z.maxLength(100)),
    }),
    errors: { 400: ['...: ...'], 404: [M.repoNotFound], 413: [COMMIT_MESSAGES.tooBig] },
    run: async ({ org, params, body }) =>
      created({ uploads: await requestUploads(org.orgId, params.name, body.files) }),
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
      const archive = await archiveOf(org.orgId, params.name, body.ref, body.format ?? 'zip');
      if (archive.status !== 'building') return ok({ archive });
      const { commitId, format } = archive;
      return { status: 202, body: { archive: { status: 'building', commitId, format } }, headers: ARCHIVE_RETRY };
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
    query: z.object({ ref: z.optional(Ref), path: Path }),
    errors: { 404: [M.repoNotFound, NOT_FOUND, FILES_MESSAGES.lfsObjectMissing], 413: [FILES_MESSAGES.tooLargeFile] },
    run: async ({ org, params, query }) => {
      const file = await rawFile(org.orgId, params.name, query);
      return 'url' in file ? redirect(file.url) : { status: 200, body: file.content, headers: RAW_HEADERS };
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
    read: ({ orgId, params, query }) => listFiles(orgId, params.name, query.ref),
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
    read: ({ orgId, params, body }) => readBlobs(orgId, params.name, body.ids),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/commits',
    scope: 'git:read',
    summary: 'Commits of a ref (the default branch unless given), newest first, optionally touching `path`.',
    params: RepoParams,
    query: z.object({
      ref: z.optional(Ref),
      path: z.optional(Path),
      cursor: z.optional(z.string()),
      limit: queryInt(1, 100, 30),
    }),
    errors: { 400: [INVALID_CURSOR], 404: [M.repoNotFound, REF_NOT_FOUND] },
    read: ({ orgId, params, query }) => listCommits(orgId, params.name, query),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/last-commit',
    scope: 'git:read',
    summary: 'The newest commit of a ref that touched `path` (the whole tree without it); null when none did.',
    params: RepoParams,
    query: z.object({ ref: z.optional(Ref), path: z.optional(Path) }),
    errors: { 404: [M.repoNotFound, REF_NOT_FOUND] },
    read: ({ orgId, params, query }) => lastCommit(orgId, params.name, query),
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
      const { name, color, description } = body;
      const label = await upsertLabel(await requireRepo(org.orgId, params.name), {
        name,
        color,
        ...(description ? { description } : {}),
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
