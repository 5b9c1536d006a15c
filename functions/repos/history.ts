import * as z from 'zod/mini';
import {
  blobOf,
  COMMIT_NOT_FOUND,
  commitWithChanges,
  compare,
  divergenceOf,
  insights,
  lastCommits,
  NOT_FOUND,
  REF_NOT_FOUND,
  TOO_FAR,
  TOO_MANY_BRANCHES,
  treeOf,
} from '../../shared/domains/repos/contents/history';
import { M } from '../../shared/domains/repos/records';
import { route } from '../../shared/kernel/http/route';
import { RepoParams } from './repos';

const Ref = z.optional(z.string().check(z.minLength(1), z.maxLength(256)));
const Path = z.optional(z.string().check(z.maxLength(4096)));

export const historyRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/compare',
    scope: 'git:read',
    summary:
      'Compares head with base as a pull request would: their merge base, how far apart they are, the commits ' +
      'and files head brings (up to 250 commits and 300 files), the merge strategies that would succeed now ' +
      'and the conflicts a merge would meet; `pull` is the pull request open from head into base (branches).',
    params: RepoParams,
    query: z.object({
      base: z.string().check(z.minLength(1), z.maxLength(256)),
      head: z.string().check(z.minLength(1), z.maxLength(256)),
    }),
    errors: {
      400: [TOO_FAR],
      404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND, 'Branch or commit not found.', COMMIT_NOT_FOUND],
    },
    read: async ({ orgId, params, query }) => compare(orgId, params.name, query),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/insights',
    scope: 'git:read',
    summary:
      'Activity of a ref (the default branch unless given) over the last 52 weeks: commits per week (weeks start ' +
      'Monday, UTC) and the ten authors with the most commits.',
    params: RepoParams,
    query: z.object({ ref: Ref }),
    errors: { 404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND] },
    read: async ({ orgId, params, query }) => insights(orgId, params.name, query),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/tree',
    scope: 'git:read',
    summary: 'A folder of a ref (the default branch unless given): folders first, then files, by name.',
    params: RepoParams,
    query: z.object({ ref: Ref, path: Path }),
    errors: { 404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND] },
    read: async ({ orgId, params, query }) => treeOf(orgId, params.name, query),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/blob',
    scope: 'git:read',
    summary:
      'A file of a ref with its content: UTF-8 text, or base64 for anything else; `tooLarge` past 1 MB (read it with contents/raw or clone). ' +
      'A Git LFS pointer also gets `lfs`: its object (oid, size) and a link to it valid 5 minutes, `url: null` when the object was never uploaded.',
    params: RepoParams,
    query: z.object({ ref: Ref, path: z.string().check(z.minLength(1), z.maxLength(4096)) }),
    errors: { 404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND] },
    read: async ({ orgId, params, query }) => blobOf(orgId, params.name, query),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/commits/:sha',
    scope: 'git:read',
    summary:
      "A commit with the files it changed against its first parent (hunks in the spec's shape; up to 300 files " +
      'and 5,000 lines of hunks, later files collapsed, `truncated` past 300 files).',
    params: z.object({ orgId: z.string(), name: z.string(), sha: z.string() }),
    errors: { 404: [M.repoNotFound, COMMIT_NOT_FOUND] },
    read: async ({ orgId, params }) => commitWithChanges(orgId, params.name, params.sha),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/branches/divergence',
    scope: 'git:read',
    summary:
      'How far each named branch (up to 20) is ahead of and behind the default branch; null for a branch that ' +
      'does not exist; `exact: false` when the count stopped at 1,000 commits.',
    params: RepoParams,
    // `name` repeated: API Gateway (and the local gateway) join the values with commas.
    query: z.object({ name: z.optional(z.string().check(z.maxLength(21 * 257))) }),
    errors: { 400: [TOO_MANY_BRANCHES], 404: [M.repoNotFound, NOT_FOUND, COMMIT_NOT_FOUND] },
    read: async ({ orgId, params, query }) => divergenceOf(orgId, params.name, query),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/last-commits',
    scope: 'git:read',
    summary:
      'The last commit of each entry of a folder (up to 100 entries; `truncated` past them), as repository ' +
      'browsers show beside each name.',
    params: RepoParams,
    query: z.object({ ref: Ref, path: Path }),
    errors: { 404: [M.repoNotFound, NOT_FOUND, REF_NOT_FOUND] },
    read: async ({ orgId, params, query }) => lastCommits(orgId, params.name, query),
  }),
];
