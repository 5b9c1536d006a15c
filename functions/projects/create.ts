import { HostTaken, hostEntry, hostOfLabel, productionLabels, reserveHost } from '../../shared/domains/hosts/registry';
import { actorId, projectKeys } from '../../shared/domains/projects/records';
import type { Framework, ProjectRecord } from '../../shared/domains/projects/schema';
import type { Caller } from '../../shared/kernel/auth/caller';
import { notFound } from '../../shared/kernel/ground/errors';
import { ORG_NOT_FOUND } from '../../shared/kernel/ground/messages';
import { HttpError } from '../../shared/kernel/http/http-error';
import { orgIsActive } from '../../shared/kernel/identity/orgs';
import { newId } from '../../shared/kernel/store/ids';
import { transact } from '../../shared/kernel/store/ops';
import { putNew } from '../../shared/kernel/store/table';
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
 * it, the slug is free (its own record, `attribute_not_exists`), the production host is reserved
 * in the global host registry, the project is written. So 50 parallel creates of one slug give
 * exactly one project; the others are told the slug exists. A production host another project
 * holds (another organization's `web`, a deployment host) is not an error: the next label is
 * tried (`<slug>-<org slug>`, then a random suffix), in a transaction of its own.
 */
export async function createProject(
  org: { orgId: string; slug: string },
  caller: Caller,
  input: NewProject,
): Promise<ProjectRecord> {
  for (const productionLabel of productionLabels(input.slug, org.slug)) {
    try {
      return await createWithLabel(org.orgId, caller, input, productionLabel);
    } catch (err) {
      if (!(err instanceof HostTaken)) throw err;
    }
  }
  throw new HttpError(409, SLUG_TAKEN);
}

async function createWithLabel(
  orgId: string,
  caller: Caller,
  input: NewProject,
  productionLabel: string,
): Promise<ProjectRecord> {
  const location = await checkLocation(input.location);
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
    productionLabel,
  };
  const host = hostOfLabel(productionLabel);
  const items = [
    orgIsActive(orgId),
    ...(repoCheck ? [repoCheck] : []),
    putNew({ ...projectKeys.slug(orgId, input.slug), projectId }),
    putNew({ ...project }),
    reserveHost(hostEntry(host, 'production', { orgId, projectId }, now)),
  ];
  await transact(items, [
    () => notFound(ORG_NOT_FOUND),
    ...(repoCheck ? [() => new HttpError(400, REPO_NOT_FOUND)] : []),
    () => new HttpError(409, SLUG_TAKEN),
    undefined,
    () => new HostTaken(host),
  ]);
  return project;
}
