import type { Caller } from '../../shared/auth/caller';
import { HttpError, notFound } from '../../shared/ground/errors';
import { ORG_NOT_FOUND } from '../../shared/ground/messages';
import { orgIsActive } from '../../shared/identity/orgs';
import { actorId, projectKeys } from '../../shared/projects/records';
import type { Framework, ProjectRecord } from '../../shared/schemas/project';
import { newId } from '../../shared/store/ids';
import { putNew, transact } from '../../shared/store/table';
import { checkLocation } from './location';
import { REPO_NOT_FOUND, repoExists } from './related';

export const SLUG_TAKEN = 'A project with this slug exists.';

interface NewProject {
  name: string;
  slug: string;
  repoId?: string;
  framework: Framework;
  rootDirectory: string;
  location?: string;
}

/**
 * Creates a project. One transaction: the organization is active, the repository (if any) is in
 * it, the slug is free (its own record, `attribute_not_exists`), the project is written. So 50
 * parallel creates of one slug give exactly one project; the others are told the slug exists.
 */
export async function createProject(orgId: string, caller: Caller, input: NewProject): Promise<ProjectRecord> {
  const location = checkLocation(input.location);
  const repoCheck = input.repoId === undefined ? undefined : repoExists(orgId, input.repoId);
  const now = Date.now();
  const projectId = newId('prj_', now);
  const project: ProjectRecord = {
    ...projectKeys.project(orgId, projectId),
    projectId,
    orgId,
    name: input.name,
    slug: input.slug,
    createdBy: actorId(caller),
    createdAt: now,
    updatedAt: now,
    repoId: input.repoId,
    // The branch whose commits deploy to production (PATCH changes it).
    productionBranch: 'main',
    framework: input.framework,
    rootDirectory: input.rootDirectory === '' ? '.' : input.rootDirectory,
    location,
    version: 1,
    status: 'active',
  };
  const items = [
    orgIsActive(orgId),
    ...(repoCheck ? [repoCheck] : []),
    putNew({ ...projectKeys.slug(orgId, input.slug), projectId }),
    putNew({ ...project }),
  ];
  await transact(items, [
    () => notFound(ORG_NOT_FOUND),
    ...(repoCheck ? [() => new HttpError(400, REPO_NOT_FOUND)] : []),
    () => new HttpError(409, SLUG_TAKEN),
  ]);
  return project;
}
