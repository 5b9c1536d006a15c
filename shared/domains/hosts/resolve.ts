import { PREFIXES } from '../../kernel/store/keys';
import { getDomainRecord } from '../custom-domains/records';
import { routesForHost } from '../deployments/records';
import type { DeploymentRecord } from '../deployments/schema';
import { getHost, normalizeHost } from '../host-registry/registry';
import { getDeployment } from '../projects/deployments';
import { productionHostOf } from '../projects/hosts';
import { getProject } from '../projects/records';

/** What answers a host: a deployment, a redirect (308) to another host, or nothing. */
export type HostTarget = { deployment: DeploymentRecord } | { redirect: string } | undefined;

/**
 * The host lookup of the local edge (and of a router in front of the functions on AWS): the
 * registry item names the project; a deployment host (and a pull request's preview host) answers its deployment, the production
 * host and an active custom domain the project's production deployment, a custom domain with
 * `redirectTo` a redirect. A `skipped` deployment answers with the one it points at. A host the
 * registry does not know is looked up in the edge routes (records from before the registry).
 */
export async function resolveHostTarget(host: string): Promise<HostTarget> {
  const name = normalizeHost(host);
  const entry = await getHost(name);
  if (!entry) return legacy(name);
  let deploymentId: string | undefined;
  if (entry.kind === 'deployment' || entry.kind === 'preview') deploymentId = entry.deploymentId;
  else {
    // A custom domain's record and its project are read together (both named by the entry).
    const [domain, project] = await Promise.all([
      entry.kind === 'domain' ? getDomainRecord(entry.orgId, name) : undefined,
      getProject(entry.orgId, entry.projectId),
    ]);
    if (entry.kind === 'domain') {
      if (domain?.status !== 'active' || domain.projectId !== entry.projectId) return undefined;
      if (domain.redirectTo) return { redirect: domain.redirectTo };
    }
    deploymentId = project?.productionDeploymentId;
  }
  const deployment = deploymentId ? await follow(entry.orgId, deploymentId) : undefined;
  return deployment ? { deployment } : undefined;
}

async function follow(orgId: string, deploymentId: string): Promise<DeploymentRecord | undefined> {
  let d = await getDeployment(orgId, deploymentId);
  for (let hops = 0; d?.status === 'skipped' && d.previousDeploymentId && hops < 5; hops++) {
    d = await getDeployment(orgId, d.previousDeploymentId);
  }
  return d;
}

/**
 * Before the registry: a deployment route names its deployment; the production route names the
 * project, whose production pointer says which (its production host must still be this host).
 */
async function legacy(name: string): Promise<HostTarget> {
  for (const route of await routesForHost(name)) {
    const orgId = route.pk.slice(PREFIXES.identity.org.length);
    let deploymentId = route.deploymentId;
    if (route.production) {
      const project = await getProject(orgId, route.projectId);
      const current = project && productionHostOf(project);
      if (!current || normalizeHost(current) !== name) continue;
      deploymentId = project.productionDeploymentId;
    }
    const d = deploymentId ? await follow(orgId, deploymentId) : undefined;
    if (d) return { deployment: d };
  }
  return undefined;
}
