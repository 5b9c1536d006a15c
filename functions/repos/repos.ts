import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { CHECK_MESSAGES } from '../../shared/domains/repos/checks';
import { BranchName } from '../../shared/domains/repos/inputs';
import { listPeople } from '../../shared/domains/repos/people';
import {
  MAX_REQUIRED_CHECKS,
  PROTECTION_MESSAGES,
  protectedBranchOf,
  protectionOf,
  requiredChecksOf,
} from '../../shared/domains/repos/protection';
import {
  createRepository,
  deleteRepository,
  findRepo,
  M,
  REPO_NAME,
  type RepoRecord,
  renameRepository,
  requireRepo,
} from '../../shared/domains/repos/records';
import { repoGit } from '../../shared/domains/repos/tags';
import { GITIGNORE_TEMPLATES, LICENSES } from '../../shared/domains/repos/template-names';
import { listResources, updateResource } from '../../shared/domains/resources/records';
import { toResource } from '../../shared/domains/resources/schema';
import { readEnv } from '../../shared/kernel/ground/env';
import { invalid } from '../../shared/kernel/ground/errors';
import { HttpError } from '../../shared/kernel/http/http-error';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine, plainText } from '../../shared/kernel/http/text-checks';

/** Repository names: the spec's format. */
export const RepoName = z
  .string()
  .check(
    z.regex(REPO_NAME, 'Use 3-40 lowercase letters, digits and hyphens, starting and ending with a letter or digit.'),
  );
export const RepoParams = z.object({ orgId: z.string(), name: z.string() });

/** A required check's name, as a check's (functions/pulls/checks.ts). */
const RequiredName = z.string().check(z.trim(), z.minLength(1), z.maxLength(100), oneLine);
const KeyId = z.string().check(z.regex(/^key_[0-9A-Za-z]{1,64}$/, 'Use a key id (key_…).'));
/** The writer a required check is bound to: the platform, an API key or a platform agent key of this organization. */
const RequiredSource = z.union([
  z.literal('platform'),
  z.strictObject({ apiKey: KeyId }),
  z.strictObject({ agentKey: KeyId }),
]);
/** A required check: a name (any writer's check of that name counts), or `{ name, source }` (only that writer's). */
const RequiredCheckInput = z.union([
  RequiredName,
  z.strictObject({ name: RequiredName, source: z.optional(RequiredSource) }),
]);

/**
 * `<base>/git/<orgId>/<name>.git`. The base is GIT_BASE_URL (the git function's address on AWS), else
 * the address the request came to (one machine: the local gateway serves git beside the API).
 */
export function cloneUrl(r: RepoRecord, event: APIGatewayProxyEventV2): string {
  const host = event.headers.host ?? 'localhost';
  const proto =
    event.headers['x-forwarded-proto'] ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  const base = readEnv('GIT_BASE_URL') ?? `${proto}://${host}`;
  return `${base.replace(/\/$/, '')}/git/${r.orgId}/${r.name}.git`;
}

/** `GET /repos/:name` and `PATCH`'s answer: the record, its refs and what is derived from them. */
async function repoDetail(r: RepoRecord, event: APIGatewayProxyEventV2) {
  const refs = await (await repoGit()).refs(r.resourceId);
  return {
    resourceId: r.resourceId,
    name: r.name,
    description: r.description ?? null,
    defaultBranch: r.defaultBranch,
    branches: refs.branches.map((b) => b.name),
    tags: refs.tags.map((t) => t.name),
    initialBranch: r.defaultBranch,
    protectedBranch: protectedBranchOf(r),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    openIssues: r.openIssues ?? 0,
    openPulls: r.openPulls ?? 0,
    requiredApprovals: r.requiredApprovals ?? 0,
    requiredChecks: r.requiredChecks ?? [],
    cloneUrl: cloneUrl(r, event),
    empty: refs.branches.length === 0,
    status: r.status,
  };
}

export const repoRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos',
    scope: 'git:read',
    summary: "The organization's repositories, by name.",
    read: async ({ orgId }) => {
      const repos = (await listResources(orgId, 'repository')) as RepoRecord[];
      return {
        repos: repos
          .filter((r) => r.status !== 'deleting')
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((r) => ({
            name: r.name,
            resourceId: r.resourceId,
            description: r.description ?? null,
            defaultBranch: r.defaultBranch ?? null,
            createdAt: r.createdAt,
            updatedAt: r.updatedAt,
            language: null,
          })),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/-/available',
    scope: 'git:read',
    summary: 'Whether a name can be used for a new repository: `reason` is `format` or `taken` when it cannot.',
    query: z.object({ name: z.string().check(z.minLength(1), z.maxLength(100)) }),
    read: async ({ orgId, query }) => {
      const reason = !REPO_NAME.test(query.name) ? 'format' : (await findRepo(orgId, query.name)) ? 'taken' : null;
      return { name: query.name, available: reason === null, reason };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/-/people',
    scope: 'git:read',
    summary: 'The members who can be assigned or mentioned, each with a handle unique in the organization.',
    read: async ({ orgId }) => ({ people: await listPeople(orgId) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos',
    scope: 'git:write',
    summary:
      'Creates a repository, empty unless a README, a .gitignore template or a license is asked for (then one ' +
      'first commit holds them). After a 502, creating it again with the same name finishes it.',
    body: z.object({
      name: RepoName,
      description: z.optional(z.string().check(z.trim(), z.maxLength(1000), plainText)),
      readme: z._default(z.boolean(), false),
      gitignore: z.optional(z.enum(GITIGNORE_TEMPLATES)),
      license: z.optional(z.enum(LICENSES)),
      defaultBranch: z._default(BranchName, 'main'),
      location: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    }),
    errors: {
      400: ['Unknown location: ...'],
      409: [M.nameTaken],
      502: [M.createFailed, M.commitFailed],
    },
    run: async ({ org, caller, body, event }) => {
      const repo = await createRepository(org.orgId, caller, body);
      const detail = await repoDetail(repo, event);
      return created({
        repo: {
          ...toResource(repo),
          defaultBranch: repo.defaultBranch,
          empty: detail.empty,
          cloneUrl: detail.cloneUrl,
        },
      });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/rename',
    scope: 'git:write',
    summary: 'Renames a repository; its clone URL changes with it.',
    params: RepoParams,
    body: z.object({ name: RepoName }),
    errors: { 404: [M.repoNotFound], 409: [M.nameTaken, M.changed] },
    run: async ({ org, params, body }) => {
      const r = await requireRepo(org.orgId, params.name);
      return ok({ name: (await renameRepository(r, body.name)).name });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/repos/:name',
    scope: 'git:write',
    summary:
      'Deletes a repository and its history; `confirm` must be its name. Linked projects are unlinked, their ' +
      'deployments kept.',
    params: RepoParams,
    query: z.object({ confirm: z.optional(z.string()) }),
    errors: { 400: [M.confirm], 404: [M.repoNotFound] },
    run: async ({ org, params, query }) => {
      const r = await findRepo(org.orgId, params.name);
      if (!r) throw new HttpError(404, M.repoNotFound);
      if (query.confirm !== r.name) throw invalid(M.confirm);
      await deleteRepository(r);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/protection',
    scope: 'git:read',
    summary:
      'The approvals and the checks pull requests into the default branch need; `branch` is null while none are.',
    params: RepoParams,
    errors: { 404: [M.repoNotFound] },
    read: async ({ orgId, params }) => protectionOf(await requireRepo(orgId, params.name)),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/repos/:name/protection',
    scope: 'git:write',
    summary:
      'Protects the default branch: it then changes only through pull requests with this many approvals and ' +
      'these checks `success` on their head (`requiredChecks`, up to 20). A required check is a name (a check ' +
      'of that name from any writer counts) or `{ "name", "source" }`, bound to its writer as GitHub binds one ' +
      'to an app: `"platform"`, `{ "apiKey": "<key id>" }` or `{ "agentKey": "<key id>" }` of this ' +
      "organization; then only that writer's check counts. A field left out stays as it is; 0 and [] remove " +
      'the rule. The rule follows the default branch.',
    params: RepoParams,
    body: z.object({
      requiredApprovals: z.optional(z.int().check(z.minimum(0), z.maximum(10))),
      requiredChecks: z.optional(z.array(RequiredCheckInput).check(z.maxLength(MAX_REQUIRED_CHECKS))),
    }),
    errors: {
      400: [
        'Push a branch before protecting it.',
        PROTECTION_MESSAGES.twice('lint'),
        PROTECTION_MESSAGES.keyNotFound('API key', 'key_…'),
        CHECK_MESSAGES.reserved('build'),
      ],
      404: [M.repoNotFound],
      409: [M.changed],
    },
    run: async ({ org, params, body }) => {
      const r = await requireRepo(org.orgId, params.name);
      const fields = {
        requiredApprovals: body.requiredApprovals ?? r.requiredApprovals ?? 0,
        requiredChecks: body.requiredChecks
          ? await requiredChecksOf(
              org.orgId,
              body.requiredChecks.map((e) => (typeof e === 'string' ? { name: e } : e)),
            )
          : (r.requiredChecks ?? []),
      };
      const protecting = fields.requiredApprovals > 0 || fields.requiredChecks.length > 0;
      if (protecting && !(await (await repoGit()).resolve(r.resourceId, r.defaultBranch))) {
        throw invalid('Push a branch before protecting it.');
      }
      return ok(protectionOf((await updateResource(r, fields as never)) as RepoRecord));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name',
    scope: 'git:read',
    summary: 'A repository with its branches, tags, protection, clone URL and counts.',
    params: RepoParams,
    errors: { 404: [M.repoNotFound] },
    run: async ({ org, params, event }) => ok(await repoDetail(await requireRepo(org.orgId, params.name), event)),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/repos/:name',
    scope: 'git:write',
    summary: 'Changes the description (null removes it) or the default branch (one that exists).',
    params: RepoParams,
    body: z.object({
      description: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(1000), plainText))),
      defaultBranch: z.optional(BranchName),
    }),
    errors: { 400: ['Branch ... not found.'], 404: [M.repoNotFound], 409: [M.changed] },
    run: async ({ org, params, body, event }) => {
      const r = await requireRepo(org.orgId, params.name);
      const fields: Record<string, unknown> = {};
      if (body.description !== undefined) fields.description = body.description ?? undefined;
      if (body.defaultBranch !== undefined && body.defaultBranch !== r.defaultBranch) {
        const found = await (await repoGit()).resolve(r.resourceId, body.defaultBranch);
        if (found?.kind !== 'branch') throw invalid(`Branch ${body.defaultBranch} not found.`);
        fields.defaultBranch = body.defaultBranch;
      }
      const next = Object.keys(fields).length > 0 ? ((await updateResource(r, fields as never)) as RepoRecord) : r;
      return ok({ repo: await repoDetail(next, event) });
    },
  }),
];
