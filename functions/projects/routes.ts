import * as z from 'zod/mini';
import { removeProjectDomains } from '../../shared/domains/custom-domains/domains';
import { removeProjectFunctions, removeProjectOutputs } from '../../shared/domains/deployments/functions';
import { createProject, SLUG_TAKEN } from '../../shared/domains/projects/create';
import {
  deleteProject,
  NOT_ALL_REMOVED,
  type ProjectRemovers,
  WAIT_FOR_DEPLOYMENT,
} from '../../shared/domains/projects/delete';
import { ProjectParams, projectIdOf } from '../../shared/domains/projects/params';
import { listProjects, readProject } from '../../shared/domains/projects/read';
import {
  PROJECT_DELETING as DELETING,
  PROJECT_NOT_FOUND,
  PROJECT_TRANSFERRING as TRANSFERRING,
} from '../../shared/domains/projects/records';
import { REPO_NOT_FOUND } from '../../shared/domains/projects/related';
import {
  FRAMEWORKS,
  PREVIEW_MESSAGES,
  PreviewSettings,
  ProjectName,
  ProjectSlug,
  RootDirectory,
  toProject,
} from '../../shared/domains/projects/schema';
import { ALREADY_HERE, transferProject, UNLINK_STORAGE } from '../../shared/domains/projects/transfer';
import { PROJECT_CHANGED, updateProject } from '../../shared/domains/projects/update';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';

const UNKNOWN_LOCATION = 'Unknown location: ...';

/**
 * What a project's deletion and transfer remove of the products above projects (they stand below
 * custom domains and deployments): its domains, its deployed functions and their outputs.
 */
const removers: ProjectRemovers = {
  domains: removeProjectDomains,
  functions: removeProjectFunctions,
  outputs: removeProjectOutputs,
};

/** `:projectId` of any shape; one that is not a project id is 404 without a read. */
/** Build settings: text, or null (or empty) to go back to the framework's default. */
const Setting = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max), oneLine)));

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/projects',
    scope: 'projects:read',
    allowed: ['deployments:read', 'domains:read'],
    summary:
      'Projects, by name. include=summary adds latest and production deployments, productionHost, repo and domains.',
    query: z.object({ include: z.optional(z.enum(['summary'])) }),
    run: async ({ org, query }) => ok({ projects: await listProjects(org.orgId, query.include === 'summary') }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects',
    scope: 'projects:write',
    summary:
      'Creates a project. `deployment` is null: a first deployment is started from the deployments routes ' +
      '(no build starts on create yet).',
    body: z.object({
      name: ProjectName,
      slug: ProjectSlug,
      repoId: z.optional(z.string()),
      framework: z._default(z.enum(FRAMEWORKS), 'nextjs'),
      rootDirectory: z._default(RootDirectory, '.'),
      location: z.optional(z.string()),
    }),
    errors: {
      400: [REPO_NOT_FOUND, UNKNOWN_LOCATION],
      409: [SLUG_TAKEN],
    },
    run: async ({ org, caller, body }) =>
      created({ project: toProject(await createProject(org, caller, body)), deployment: null }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/projects/:projectId',
    scope: 'projects:read',
    allowed: ['domains:read'],
    summary:
      'The project with its 10 most recent deployments, production deployment and host, repository, domains ' +
      'and function configuration.',
    params: ProjectParams,
    errors: { 404: [PROJECT_NOT_FOUND] },
    run: async ({ org, params }) => ok(await readProject(org.orgId, projectIdOf(params))),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/projects/:projectId',
    scope: 'projects:write',
    summary:
      'Changes project settings; repoId null unlinks the repository. Linking a repository answers ' +
      '`deployment: null` too (builds start from the deployments routes).',
    params: ProjectParams,
    body: z.object({
      name: z.optional(ProjectName),
      slug: z.optional(ProjectSlug),
      framework: z.optional(z.enum(FRAMEWORKS)),
      repoId: z.optional(z.nullable(z.string())),
      productionBranch: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(255), oneLine)),
      rootDirectory: z.optional(RootDirectory),
      buildCommand: Setting(1024),
      installCommand: Setting(1024),
      outputDirectory: Setting(256),
      previews: z.optional(PreviewSettings),
      location: z.optional(z.string().check(z.minLength(1))),
      ifVersion: z.optional(z.int().check(z.minimum(1))),
    }),
    errors: {
      400: [REPO_NOT_FOUND, UNKNOWN_LOCATION, PREVIEW_MESSAGES.tooManyIgnores, PREVIEW_MESSAGES.ignorePattern],
      404: [PROJECT_NOT_FOUND],
      409: [SLUG_TAKEN, PROJECT_CHANGED, DELETING, TRANSFERRING],
    },
    run: async ({ org, params, body }) => {
      const { project, linked } = await updateProject(org, projectIdOf(params), body);
      return ok(linked ? { project: toProject(project), deployment: null } : { project: toProject(project) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects/:projectId/transfer',
    scope: 'org:write',
    summary:
      'Moves the project, with its deployments, domains, variables (re-encrypted) and crons, to another ' +
      'organization the caller administers; the repository is disconnected.',
    params: ProjectParams,
    body: z.object({ orgId: z.string().check(z.minLength(1)) }),
    errors: {
      400: [ALREADY_HERE],
      403: ['Missing scope org:write'],
      404: [PROJECT_NOT_FOUND],
      409: [
        UNLINK_STORAGE,
        WAIT_FOR_DEPLOYMENT,
        '... already has a project with this slug. Rename it first.',
        DELETING,
        TRANSFERRING,
      ],
    },
    run: async ({ org, caller, params, body }) => {
      const moved = await transferProject(org, caller, projectIdOf(params), body.orgId, removers);
      return ok({ project: toProject(moved.project), org: { orgId: moved.org.orgId, slug: moved.org.slug } });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/projects/:projectId',
    scope: 'projects:write',
    summary:
      'Deletes the project with its domains, crons, server functions, routes, deployment records and ' +
      'variables; unlinks storage; keeps the repository. After a 502, delete again to finish.',
    params: ProjectParams,
    errors: {
      404: [PROJECT_NOT_FOUND],
      409: [WAIT_FOR_DEPLOYMENT, TRANSFERRING],
      502: [NOT_ALL_REMOVED],
    },
    run: async ({ org, params }) => {
      await deleteProject(org.orgId, projectIdOf(params), removers);
      return noContent();
    },
  }),
];
