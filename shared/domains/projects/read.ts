import { notFound } from '../../kernel/ground/errors';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll } from '../../kernel/store/ops';
import { getMany, type Item, keys } from '../../kernel/store/table';
import { FUNCTION_CONFIG } from '../../ports/runtime/port';
import type { DeploymentRecord } from '../deployments/schema';
import { deploymentKeys, recentDeployments, toDeployment } from './deployments';
import { toDomain } from './domain-view';
import { productionHostOf } from './hosts';
import { getProject, PROJECT_NOT_FOUND, projectKeys } from './records';
import { type DomainRecord, domainSummary, domainsOf, type ResourceRecord, repoSummary } from './related';
import { type ProjectRecord, toProject } from './schema';

const byName = (a: ProjectRecord, b: ProjectRecord) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.slug.localeCompare(b.slug);

function allProjects(orgId: string): Promise<ProjectRecord[]> {
  return queryAll<ProjectRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': PREFIXES.projects.project },
  });
}

/**
 * The organization's projects, by name. With `summary`, each also carries its latest and
 * production deployments, production host, repository and domains, read in a bounded number of
 * calls whatever the number of projects: one query for the projects, one for the organization's
 * domains (in parallel), then one BatchGet per 100 repositories and deployments.
 */
export async function listProjects(orgId: string, summary: boolean) {
  const [projects, domains] = await Promise.all([allProjects(orgId), summary ? domainsOf(orgId) : []]);
  projects.sort(byName);
  if (!summary) return projects.map(toProject);

  const wanted = new Map<string, { pk: string; sk: string }>();
  const want = (key: { pk: string; sk: string }) => wanted.set(key.sk, key);
  for (const p of projects) {
    if (p.repoId) want(projectKeys.resource(orgId, 'repository', p.repoId));
    if (p.latestDeploymentId) want(deploymentKeys.deployment(orgId, p.latestDeploymentId));
    if (p.productionDeploymentId) want(deploymentKeys.deployment(orgId, p.productionDeploymentId));
  }
  const list = [...wanted.values()];
  const found = new Map<string, Item>();
  (await getMany(list)).forEach((item) => {
    if (item) found.set(item.sk, item);
  });
  const deployment = (id: string | undefined) => {
    const d = id ? (found.get(deploymentKeys.deployment(orgId, id).sk) as DeploymentRecord | undefined) : undefined;
    return d ? toDeployment(d) : undefined;
  };
  const byProject = new Map<string, DomainRecord[]>();
  for (const d of domains) byProject.set(d.projectId, [...(byProject.get(d.projectId) ?? []), d]);

  return projects.map((p) => {
    const repo = p.repoId
      ? (found.get(projectKeys.resource(orgId, 'repository', p.repoId).sk) as ResourceRecord | undefined)
      : undefined;
    const production = deployment(p.productionDeploymentId);
    return {
      ...toProject(p),
      latest: deployment(p.latestDeploymentId),
      production,
      productionHost: production ? productionHostOf(p) : undefined,
      repo: repo ? repoSummary(repo) : undefined,
      domains: (byProject.get(p.projectId) ?? []).map(domainSummary),
    };
  });
}

/**
 * One project with its most recent deployments, production deployment and host, repository,
 * domains and the function configuration: two round trips (project, deployments and domains in
 * parallel; then repository and production deployment in one BatchGet).
 */
export async function readProject(orgId: string, projectId: string) {
  const [project, recent, domains] = await Promise.all([
    getProject(orgId, projectId),
    recentDeployments(projectId),
    domainsOf(orgId, projectId),
  ]);
  if (!project) throw notFound(PROJECT_NOT_FOUND);
  const second = [
    ...(project.repoId ? [projectKeys.resource(orgId, 'repository', project.repoId)] : []),
    ...(project.productionDeploymentId ? [deploymentKeys.deployment(orgId, project.productionDeploymentId)] : []),
  ];
  const found = await getMany<Item>(second);
  const repo = found.find((i) => i?.sk.startsWith(PREFIXES.resources.resource)) as ResourceRecord | undefined;
  const production = found.find((i) => i?.sk.startsWith(PREFIXES.deployments.deployment)) as
    | DeploymentRecord
    | undefined;
  return {
    project: toProject(project),
    productionHost: production ? productionHostOf(project) : undefined,
    deployments: recent.filter((d) => d.orgId === orgId).map(toDeployment),
    production: production ? toDeployment(production) : undefined,
    repo: repo ? repoSummary(repo) : undefined,
    domains: domains.map(toDomain),
    functionConfig: FUNCTION_CONFIG,
  };
}
