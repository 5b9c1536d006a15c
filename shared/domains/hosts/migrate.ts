import type { Organization } from '../../kernel/identity/schema';
import { db } from '../../kernel/store/client';
import { PutCommand, UpdateCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { scanAll } from '../../kernel/store/ops';
import { getItem, keys, TABLE } from '../../kernel/store/table';
import type { DomainRecord } from '../custom-domains/records';
import { type PreviewRecord, reclaimPreviewHost } from '../deployments/previews';
import type { RouteRecord } from '../deployments/records';
import {
  getHost,
  type HostEntry,
  hostEntry,
  productionLabels,
  pullOfPreview,
  reserveHost,
} from '../host-registry/registry';
import { hostOfLabel } from '../projects/hosts';
import { getProject } from '../projects/records';
import type { ProjectRecord } from '../projects/schema';

/** Written when the whole table's hosts were reserved: later starts skip the scan. */
const DONE = { pk: `${PREFIXES.hosts.migration}host-registry`, sk: 'DONE' };
/** Written when every pull request preview had its host claimed for its pull request. */
const PREVIEWS_DONE = { pk: `${PREFIXES.hosts.migration}preview-hosts`, sk: 'DONE' };

/**
 * Hosts made before the registry, reserved oldest first (`npm start` runs it at its start until it
 * has gone through the whole table once; what is reserved already is left as it is): each
 * project's production host (`<slug>` if free, else `<slug>-<org slug>`, else a suffix, then kept
 * on the project), deployment hosts (their routes) and verified custom domains. A host an older one holds
 * stays with it. `orgIds`: those organizations' only (no mark left). Answers how many it reserved.
 */
export async function reserveExistingHosts(orgIds?: string[]): Promise<number> {
  return (await reserveOlderHosts(orgIds)) + (await claimExistingPreviewHosts(orgIds));
}

async function reserveOlderHosts(orgIds?: string[]): Promise<number> {
  // Once for the whole table: every host made since is reserved by what makes it.
  if (!orgIds && (await getItem(DONE, true))) return 0;
  const only = orgIds && new Set(orgIds.map((id) => keys.org(id).pk));
  const found = (
    await scanAll<ProjectRecord | RouteRecord | DomainRecord>({
      FilterExpression:
        'begins_with(pk, :org) AND (begins_with(sk, :prj) OR begins_with(sk, :route) OR begins_with(sk, :dom))',
      ExpressionAttributeValues: {
        ':org': PREFIXES.identity.org,
        ':prj': PREFIXES.projects.project,
        ':route': PREFIXES.deployments.route,
        ':dom': PREFIXES.customDomains.domain,
      },
    })
  ).filter((i) => !only || only.has(i.pk));
  found.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  let reserved = 0;
  const reserve = async (entry: HostEntry) => {
    try {
      await db.send(new PutCommand(reserveHost(entry).Put));
      reserved++;
      return true;
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') return false;
      throw err;
    }
  };
  for (const item of found) {
    const orgId = item.pk.slice(PREFIXES.identity.org.length);
    if (item.sk.startsWith(PREFIXES.projects.project)) {
      const project = item as ProjectRecord;
      if (project.productionLabel || project.status !== 'active') continue;
      const org = await getItem<Organization>(keys.org(orgId));
      for (const label of productionLabels(project.slug, org?.slug ?? orgId)) {
        const owner = { orgId, projectId: project.projectId };
        if (!(await reserve(hostEntry(hostOfLabel(label), 'production', owner, project.createdAt)))) continue;
        await db.send(
          new UpdateCommand({
            TableName: TABLE(),
            Key: { pk: project.pk, sk: project.sk },
            UpdateExpression: 'SET productionLabel = :l',
            ExpressionAttributeValues: { ':l': label },
          }),
        );
        break;
      }
    } else if (item.sk.startsWith(PREFIXES.deployments.route)) {
      const route = item as RouteRecord;
      if (!route.deploymentId) continue;
      const owner = { orgId, projectId: route.projectId, deploymentId: route.deploymentId };
      await reserve(hostEntry(route.host, 'deployment', owner, route.createdAt));
    } else {
      const domain = item as DomainRecord;
      // A pending claim holds no host: only a domain whose ownership was proven does.
      if (domain.status !== 'active' && domain.status !== 'verifying') continue;
      await reserve(hostEntry(domain.hostname, 'domain', { orgId, projectId: domain.projectId }, domain.createdAt));
    }
  }
  if (!orgIds) await db.send(new PutCommand({ TableName: TABLE(), Item: { ...DONE, at: Date.now(), reserved } }));
  return reserved;
}

/**
 * Pull request previews made before their hosts were claimed for their pull request (the host was
 * `<project slug>-pr-<number>` for every organization, and the first project to be ready kept it):
 * each preview not retired, least recently changed first, gets a host of its own
 * (shared/domains/deployments/previews.ts `reclaimPreviewHost`): the one it names when free or
 * its project's already (marked as this pull request's), else its label derived from the project
 * id; a ready build is pointed there. Until then, and for any preview it could not move, the pull
 * request shows the deployment's own host (`pullPreview` reads the registry), never another
 * project's. Once for the whole table, like the hosts above; `orgIds`: those organizations' only.
 */
export async function claimExistingPreviewHosts(orgIds?: string[]): Promise<number> {
  if (!orgIds && (await getItem(PREVIEWS_DONE, true))) return 0;
  const only = orgIds && new Set(orgIds);
  const found = (
    await scanAll<PreviewRecord>({
      FilterExpression: 'begins_with(pk, :repo) AND begins_with(sk, :preview) AND attribute_not_exists(retired)',
      ExpressionAttributeValues: { ':repo': PREFIXES.repos.repo, ':preview': PREFIXES.deployments.preview },
    })
  ).filter((i) => !only || only.has(i.orgId));
  found.sort((a, b) => a.updatedAt - b.updatedAt);
  let claimed = 0;
  for (const preview of found) {
    const project = await getProject(preview.orgId, preview.projectId);
    if (project?.status !== 'active') continue;
    // Claimed for its pull request already (a build since, or an earlier run): nothing to do.
    const entry = await getHost(preview.host, true);
    if (entry?.projectId === preview.projectId && entry.pull === pullOfPreview(preview.repoId, preview.number))
      continue;
    if (await reclaimPreviewHost(preview, project)) claimed++;
  }
  if (!orgIds)
    await db.send(new PutCommand({ TableName: TABLE(), Item: { ...PREVIEWS_DONE, at: Date.now(), claimed } }));
  return claimed;
}
