import type { Organization } from '../../kernel/identity/schema';
import { db } from '../../kernel/store/client';
import { PutCommand, ScanCommand, UpdateCommand } from '../../kernel/store/commands';
import { getItem, keys, TABLE } from '../../kernel/store/table';
import type { DomainRecord } from '../custom-domains/records';
import type { RouteRecord } from '../deployments/records';
import type { ProjectRecord } from '../projects/schema';
import { type HostEntry, hostEntry, hostOfLabel, productionLabels, reserveHost } from './registry';

/** Written when the whole table's hosts were reserved: later starts skip the scan. */
const DONE = { pk: 'MIGRATION#host-registry', sk: 'DONE' };

/**
 * Hosts made before the registry, reserved oldest first (`npm start` runs it at its start until it
 * has gone through the whole table once; what is reserved already is left as it is): each
 * project's production host (`<slug>` if free, else `<slug>-<org slug>`, else a suffix, then kept
 * on the project), deployment hosts (their routes) and verified custom domains. A host an older one holds
 * stays with it. `orgIds`: those organizations' only (no mark left). Answers how many it reserved.
 */
export async function reserveExistingHosts(orgIds?: string[]): Promise<number> {
  // Once for the whole table: every host made since is reserved by what makes it.
  if (!orgIds && (await getItem(DONE, true))) return 0;
  const only = orgIds && new Set(orgIds.map((id) => keys.org(id).pk));
  const found: (ProjectRecord | RouteRecord | DomainRecord)[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new ScanCommand({
        TableName: TABLE(),
        FilterExpression:
          'begins_with(pk, :org) AND (begins_with(sk, :prj) OR begins_with(sk, :route) OR begins_with(sk, :dom))',
        ExpressionAttributeValues: { ':org': 'ORG#', ':prj': 'PRJ#', ':route': 'ROUTE#', ':dom': 'DOM#' },
        ExclusiveStartKey: start,
      }),
    );
    found.push(...((out.Items ?? []) as never[]).filter((i: { pk: string }) => !only || only.has(i.pk)));
    start = out.LastEvaluatedKey;
  } while (start);
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
    const orgId = item.pk.replace(/^ORG#/, '');
    if (item.sk.startsWith('PRJ#')) {
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
    } else if (item.sk.startsWith('ROUTE#')) {
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
