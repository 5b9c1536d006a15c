import { notFound } from '../../kernel/ground/errors';
import { queryAll } from '../../kernel/store/ops';
import { getMany, keys } from '../../kernel/store/table';
import { functionInfo } from '../../ports/runtime';
import { getDeployment } from '../projects/deployments';
import { productionHostOf } from '../projects/hosts';
import { DOMAIN_PREFIX, isId, projectKeys } from '../projects/records';
import type { ProjectRecord } from '../projects/schema';
import { M } from './messages';
import { type FunctionRecord, functionKey } from './records';
import { toApiDeployment } from './view';

/** The deployment, or 404 `Deployment not found` (an id of another shape is not read at all). */
export async function requireDeployment(orgId: string, deploymentId: string, consistent = false) {
  if (!isId('dpl_', deploymentId)) throw notFound(M.deploymentNotFound);
  const d = await getDeployment(orgId, deploymentId, consistent);
  if (!d) throw notFound(M.deploymentNotFound);
  return d;
}

interface DomainRecord {
  hostname: string;
  projectId?: string;
  status?: string;
  redirectTo?: string;
}

/**
 * `GET .../deployments/:deploymentId`: the deployment, its project's summary, the production
 * host, the project's domains and its server function (null for static output or once removed).
 * Two round trips: the deployment, then the project and function (one batch) with the domains.
 */
export async function readDeployment(orgId: string, deploymentId: string) {
  const d = await requireDeployment(orgId, deploymentId);
  const [[project, fn], domains] = await Promise.all([
    getMany<ProjectRecord | FunctionRecord>([
      projectKeys.project(orgId, d.projectId),
      functionKey(orgId, d.projectId, d.deploymentId),
    ]) as Promise<[ProjectRecord | undefined, FunctionRecord | undefined]>,
    queryAll<DomainRecord>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      FilterExpression: 'projectId = :project',
      ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': DOMAIN_PREFIX, ':project': d.projectId },
    }),
  ]);
  if (!project) throw notFound(M.projectNotFound);
  return {
    deployment: toApiDeployment(d),
    project: projectSummary(project),
    productionHost: productionHostOf(project),
    domains: domains.map((x) => ({ hostname: x.hostname, status: x.status, redirectTo: x.redirectTo })),
    function: fn && !fn.removedAt ? functionInfo(d.deploymentId, fn.region) : null,
  };
}

const projectSummary = (p: ProjectRecord) => ({
  projectId: p.projectId,
  name: p.name,
  slug: p.slug,
  productionDeploymentId: p.productionDeploymentId,
  repoId: p.repoId,
  framework: p.framework,
  location: p.location,
  rootDirectory: p.rootDirectory,
});
