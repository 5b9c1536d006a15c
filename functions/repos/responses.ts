import * as z from 'zod/mini';
import {
  BranchProtection,
  ChangedFile,
  Commit,
  Conflict,
  nullableString,
  RepoCredential,
  RepoDetail,
  RepoImport,
  RepoLabel,
  RepoListEntry,
  Sha,
  TreeEntry,
} from '../../shared/domains/repos/record-schemas';
import { Resource } from '../../shared/domains/resources/record-schemas';
import { fileAnswer, type ResponseDocs, seeOther } from '../../shared/kernel/http/responses';

/** Success responses of the repos routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/repos/:name/compare': {
    200: z.object({
      mergeBase: nullableString,
      status: z.enum(['identical', 'ahead', 'behind', 'diverged']),
      aheadBy: z.number(),
      behindBy: z.number(),
      exact: z.boolean(),
      commits: z.array(Commit),
      commitsTruncated: z.boolean(),
      files: z.array(ChangedFile),
      total: z.number(),
      truncated: z.boolean(),
      mergeOptions: z.array(z.enum(['fast-forward', 'squash', 'three-way'])),
      conflicts: z.array(Conflict),
      base: z.object({ ref: z.string(), commitId: Sha }),
      head: z.object({ ref: z.string(), commitId: Sha }),
      pull: z.nullable(z.number()),
    }),
  },
  'GET /v1/orgs/:orgId/repos/:name/insights': {
    200: z.object({
      ref: z.string(),
      commitId: nullableString,
      weeks: z.array(z.object({ weekStart: z.number(), commits: z.number() })),
      contributors: z.array(z.object({ name: nullableString, email: nullableString, commits: z.number() })),
      totalCommits: z.number(),
      truncated: z.boolean(),
    }),
  },
  'GET /v1/orgs/:orgId/repos/:name/tree': {
    200: z.object({ ref: z.string(), commitId: Sha, path: z.string(), entries: z.array(TreeEntry) }),
  },
  'GET /v1/orgs/:orgId/repos/:name/blob': {
    200: z.object({
      path: z.string(),
      commitId: Sha,
      size: z.number(),
      encoding: z.optional(z.enum(['utf-8', 'base64'])),
      content: z.optional(z.string()),
      tooLarge: z.optional(z.literal(true)),
      lfs: z.optional(z.object({ oid: z.string(), size: z.number(), url: z.nullable(z.string()) })),
    }),
  },
  'GET /v1/orgs/:orgId/repos/:name/commits/:sha': {
    200: z.object({ commit: Commit, files: z.array(ChangedFile), truncated: z.boolean() }),
  },
  'GET /v1/orgs/:orgId/repos/:name/branches/divergence': {
    200: z.object({
      base: z.string(),
      divergence: z.record(
        z.string(),
        z.nullable(z.object({ ahead: z.number(), behind: z.number(), exact: z.boolean() })),
      ),
    }),
  },
  'GET /v1/orgs/:orgId/repos/:name/last-commits': {
    200: z.object({
      commitId: Sha,
      path: z.string(),
      commits: z.record(z.string(), z.nullable(Commit)),
      truncated: z.boolean(),
    }),
  },
  'GET /v1/orgs/:orgId/repos': { 200: z.object({ repos: z.array(RepoListEntry) }) },
  'GET /v1/orgs/:orgId/repos/-/available': {
    200: z.object({ name: z.string(), available: z.boolean(), reason: z.nullable(z.enum(['format', 'taken'])) }),
  },
  'GET /v1/orgs/:orgId/repos/-/people': {
    200: z.object({
      people: z.array(z.object({ userId: z.string(), name: nullableString, email: z.string(), handle: z.string() })),
    }),
  },
  'POST /v1/orgs/:orgId/repos': {
    201: z.object({
      repo: z.extend(Resource, { defaultBranch: z.string(), empty: z.boolean(), cloneUrl: z.string() }),
    }),
  },
  'POST /v1/orgs/:orgId/repos/:name/rename': { 200: z.object({ name: z.string() }) },
  'DELETE /v1/orgs/:orgId/repos/:name': { 204: null },
  'GET /v1/orgs/:orgId/repos/:name/protection': { 200: BranchProtection },
  'PUT /v1/orgs/:orgId/repos/:name/protection': { 200: BranchProtection },
  'GET /v1/orgs/:orgId/repos/:name': { 200: RepoDetail },
  'PATCH /v1/orgs/:orgId/repos/:name': { 200: z.object({ repo: RepoDetail }) },
  'GET /v1/orgs/:orgId/repos/:name/branches': {
    200: z.object({
      defaultBranch: z.string(),
      branches: z.array(
        z.object({
          name: z.string(),
          commit: Sha,
          isDefault: z.boolean(),
          protected: z.boolean(),
          openPull: z.nullable(z.number()),
        }),
      ),
    }),
  },
  'POST /v1/orgs/:orgId/repos/:name/branches': {
    201: z.object({ branch: z.object({ name: z.string(), commitId: Sha }) }),
  },
  'DELETE /v1/orgs/:orgId/repos/:name/branches': { 200: z.object({ deleted: z.string(), commitId: Sha }) },
  'GET /v1/orgs/:orgId/repos/:name/tags': {
    200: z.object({
      tags: z.array(z.object({ name: z.string(), annotated: z.boolean(), object: Sha, commit: Sha })),
    }),
  },
  'POST /v1/orgs/:orgId/repos/:name/contents': {
    201: z.object({ commitId: z.optional(Sha), branch: z.string() }),
  },
  'POST /v1/orgs/:orgId/repos/:name/contents/archive': {
    200: z.object({
      archive: z.object({
        status: z.literal('ready'),
        commitId: z.string(),
        format: z.enum(['zip', 'tar.gz']),
        size: z.number(),
        url: z.string(),
        expiresIn: z.number(),
      }),
    }),
    202: {
      content: {
        'application/json': z.object({
          archive: z.object({ status: z.literal('building'), commitId: z.string(), format: z.enum(['zip', 'tar.gz']) }),
        }),
      },
      headers: { 'Retry-After': 'Seconds to wait before asking again (`2`).' },
    },
  },
  // The file's bytes, never rendered; a file stored with Git LFS by link.
  'GET /v1/orgs/:orgId/repos/:name/contents/raw': {
    200: fileAnswer({ 'application/octet-stream': z.string() }, '`attachment`', {
      bytes: true,
      headers: {
        'X-Content-Type-Options': '`nosniff`',
        'Content-Security-Policy': "`default-src 'none'; sandbox`",
      },
    }),
    303: {
      headers: {
        ...seeOther("A link to the Git LFS object's bytes, valid 5 minutes (`GET` it without a token).").headers,
        'Cache-Control': '`no-store`',
      },
    },
  },
  'POST /v1/orgs/:orgId/repos/:name/contents/uploads': {
    201: z.object({
      uploads: z.array(
        z.object({
          path: z.string(),
          uploadId: z.string(),
          url: z.string(),
          headers: z.record(z.string(), z.string()),
          expiresIn: z.number(),
        }),
      ),
    }),
  },
  'GET /v1/orgs/:orgId/repos/:name/contents/files': {
    200: z.object({
      files: z.array(z.object({ path: z.string(), blobId: Sha, mode: z.string(), type: z.enum(['file', 'link']) })),
      truncated: z.boolean(),
      commitId: Sha,
    }),
  },
  'POST /v1/orgs/:orgId/repos/:name/contents/blobs': {
    200: z.object({
      blobs: z.array(z.object({ id: Sha, content: z.optional(z.string()), tooLarge: z.optional(z.literal(true)) })),
    }),
  },
  'GET /v1/orgs/:orgId/repos/:name/commits': {
    200: z.object({ commits: z.array(Commit), cursor: nullableString }),
  },
  'GET /v1/orgs/:orgId/repos/:name/last-commit': { 200: z.object({ commit: z.nullable(Commit) }) },
  'GET /v1/orgs/:orgId/repos/:name/labels': { 200: z.object({ labels: z.array(RepoLabel) }) },
  'PUT /v1/orgs/:orgId/repos/:name/labels': { 200: z.object({ label: RepoLabel }) },
  'DELETE /v1/orgs/:orgId/repos/:name/labels': { 204: null },
  'GET /v1/orgs/:orgId/git-credentials': { 200: z.object({ credentials: z.array(RepoCredential) }) },
  'POST /v1/orgs/:orgId/git-credentials': {
    201: z.object({ credential: RepoCredential, username: z.string(), password: z.string() }),
  },
  'DELETE /v1/orgs/:orgId/git-credentials/:keyId': { 204: null },
  'POST /v1/orgs/:orgId/repos/-/imports': { 202: z.object({ import: RepoImport }) },
  'GET /v1/orgs/:orgId/repos/-/imports': {
    200: z.object({ imports: z.array(RepoImport), nextCursor: nullableString }),
  },
  'GET /v1/orgs/:orgId/repos/-/imports/:importId': { 200: z.object({ import: RepoImport }) },
  'POST /v1/orgs/:orgId/repos/-/imports/:importId/cancel': { 200: z.object({ import: RepoImport }) },
};
