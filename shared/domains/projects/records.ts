import type { Caller } from '../../kernel/auth/caller';
import { conflict, notFound } from '../../kernel/ground/errors';
import { PREFIXES } from '../../kernel/store/keys';
import { getItem, keys, TABLE } from '../../kernel/store/table';
import type { ProjectRecord } from './schema';

/**
 * The record layout of a project and of what belongs to it, in one place. Everything lives under
 * the organization's partition (`pk = ORG#<orgId>`):
 *
 * | record | sk | notes |
 * |---|---|---|
 * | project | `PRJ#<projectId>` | counted by the organization's contents route |
 * | slug | `PRJSLUG#<slug>` | `{ projectId }`: slug uniqueness in one transaction |
 * | environment variable | `ENV#<projectId>#<key>` | shared/domains/projects/env.ts |
 * | deployment | `DPL#<deploymentId>` | gsi1 `PRJ#<projectId>` / `DPL#<deploymentId>`; shared/domains/projects/deployments.ts |
 * | domain | `DOM#<hostname>` | field `projectId` (domains group) |
 * | cron | `CRON#<projectId>#<name>` | (deployments group) |
 * | server function | `FN#<projectId>#<name>` | (deployments group) |
 * | route | `ROUTE#<projectId>#<host>` | edge routing of a deployment host (deployments group) |
 * | repository, database, bucket | `RES#<type>#<resourceId>` | databases and buckets link with field `projectId` |
 */
export const projectKeys = {
  project: (orgId: string, projectId: string) => ({
    pk: keys.org(orgId).pk,
    sk: `${PREFIXES.projects.project}${projectId}`,
  }),
  slug: (orgId: string, slug: string) => ({ pk: keys.org(orgId).pk, sk: `${PREFIXES.projects.slug}${slug}` }),
  env: (orgId: string, projectId: string, key: string) => ({
    pk: keys.org(orgId).pk,
    sk: `${PREFIXES.projects.env}${projectId}#${key}`,
  }),
  resource: (orgId: string, type: 'repository' | 'database' | 'bucket', resourceId: string) => ({
    pk: keys.org(orgId).pk,
    sk: `${PREFIXES.resources.resource}${type}#${resourceId}`,
  }),
};

/** Sort-key prefixes of records that belong to one project and move or go with it. */
export const projectPrefixes = {
  env: (projectId: string) => `${PREFIXES.projects.env}${projectId}#`,
  cron: (projectId: string) => `${PREFIXES.deployments.cron}${projectId}#`,
  serverFunction: (projectId: string) => `${PREFIXES.deployments.serverFunction}${projectId}#`,
  route: (projectId: string) => `${PREFIXES.deployments.route}${projectId}#`,
};
export const DOMAIN_PREFIX = PREFIXES.customDomains.domain;

export const PROJECT_NOT_FOUND = 'Project not found';
export const PROJECT_DELETING = 'This project is being deleted. Delete it again to finish.';
export const PROJECT_TRANSFERRING = 'This project is being transferred. Run the transfer again to finish it.';

export function getProject(orgId: string, projectId: string, consistent = false): Promise<ProjectRecord | undefined> {
  return getItem<ProjectRecord>(projectKeys.project(orgId, projectId), consistent);
}

/** The project, or 404 `Project not found`. */
export async function requireProject(orgId: string, projectId: string, consistent = false): Promise<ProjectRecord> {
  const project = await getProject(orgId, projectId, consistent);
  if (!project) throw notFound(PROJECT_NOT_FOUND);
  return project;
}

/** Changes are refused while a delete or transfer is unfinished (409, saying how to finish it). */
export function assertActive(project: ProjectRecord): void {
  if (project.status === 'deleting') throw conflict(PROJECT_DELETING);
  if (project.status === 'transferring') throw conflict(PROJECT_TRANSFERRING);
}

/**
 * A transaction item that holds only while the project exists and is active: writes of things
 * that belong to a project carry it, so a delete or transfer under way leaves no stragglers.
 */
export const projectIsActive = (orgId: string, projectId: string) => ({
  ConditionCheck: {
    TableName: TABLE(),
    Key: projectKeys.project(orgId, projectId),
    ConditionExpression: 'attribute_exists(pk) AND #status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':active': 'active' },
  },
});

/** Who made a change, as records name it: the person's user id, or the key's id. */
export function actorId(caller: Caller): string {
  return caller.kind === 'user' ? caller.userId : caller.keyId;
}

/** Ids as the API issues them (`prj_…`): anything else is unknown without asking the table. */
export const isId = (prefix: string, value: string) =>
  value.length <= 64 && value.startsWith(prefix) && /^[a-z]+_[0-9a-z]+$/i.test(value);
