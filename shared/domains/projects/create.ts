import type { Caller } from '../../kernel/auth/caller';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { ORG_NOT_FOUND } from '../../kernel/ground/messages';
import { orgIsActive } from '../../kernel/identity/orgs';
import { newId } from '../../kernel/store/ids';
import { transact } from '../../kernel/store/ops';
import { putNew } from '../../kernel/store/table';
import { HostTaken, hostEntry, productionLabels, reserveHost } from '../host-registry/registry';
import { hostOfLabel } from './hosts';
import { checkLocation } from './location';
import { actorId, projectKeys } from './records';
import { REPO_NOT_FOUND, repoExists } from './related';
import type { Framework, ProjectRecord } from './schema';

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
  throw conflict(SLUG_TAKEN);
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
    ...(repoCheck ? [() => invalid(REPO_NOT_FOUND)] : []),
    () => conflict(SLUG_TAKEN),
    undefined,
    () => new HostTaken(host),
  ]);
  return project;
}
