import { readEnv } from '../../kernel/ground/env';
import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand, QueryCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPages } from '../../kernel/store/ops';
import { TABLE } from '../../kernel/store/table';
import { artifacts } from '../../ports/artifacts';
import { deploymentKeys } from '../projects/deployments';
import { getProject } from '../projects/records';
import { removeFunction } from './functions';
import { functionKey, transition } from './records';
import { type DeploymentRecord, isInProgress } from './schema';

/**
 * Deployment retention. A deployment that is not its project's current production deployment
 * expires `DEPLOYMENT_RETENTION_DAYS` (30 by default) after it was created: its status becomes
 * `expired`, its server function and output are deleted, its host answers 410, and it can no
 * longer be promoted ("Redeploy it instead"); its record and build log stay. The current
 * production deployment never expires while it is production.
 *
 * Each deployment gets an expiry marker when it is created, `EXPIRY#<due day>` / `<deploymentId>`
 * (platform bookkeeping outside the tenant partitions, removed by the table's TTL a while after
 * its day), so the hourly sweep reads only the markers that are due, never the whole table.
 */
const DAY = 86_400_000;
const days = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
const deploymentRetentionDays = () => days(readEnv('DEPLOYMENT_RETENTION_DAYS'), 30);

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

interface ExpiryMarker {
  pk: string;
  sk: string;
  deploymentId: string;
  projectId: string;
  ttl: number;
}

/** The expiry marker of a new deployment (written in its creation transaction). */
export function expiryMarker(deploymentId: string, projectId: string, createdAt: number): ExpiryMarker {
  return markerFor(deploymentId, projectId, createdAt + deploymentRetentionDays() * DAY);
}

function markerFor(deploymentId: string, projectId: string, due: number): ExpiryMarker {
  return {
    pk: `${PREFIXES.deployments.expiry}${dayOf(due)}`,
    sk: deploymentId,
    deploymentId,
    projectId,
    // Kept a month past its day (a sweep that was down for days still finds it), then TTL.
    ttl: Math.floor((due + 30 * DAY) / 1000),
  };
}

/** The deployment wherever its project lives now (a transfer moves it to another organization). */
async function findDeployment(projectId: string, deploymentId: string): Promise<DeploymentRecord | undefined> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk = :d',
      ExpressionAttributeValues: {
        ':p': deploymentKeys.byProject(projectId).gsi1pk,
        ':d': `${deploymentKeys.byProject(projectId).gsi1sk}${deploymentId}`,
      },
    }),
  );
  return out.Items?.[0] as DeploymentRecord | undefined;
}

/**
 * Expires one deployment now (unless it is production or still in progress, when false is
 * answered): status `expired` first, so nothing promotes it while its function goes.
 */
async function expireDeployment(d: DeploymentRecord): Promise<boolean> {
  if (isInProgress(d.status) || d.status === 'expired') return false;
  const project = await getProject(d.orgId, d.projectId, true);
  if (project?.productionDeploymentId === d.deploymentId) return false;
  const from = ['ready', 'error', 'canceled', 'skipped'] as const;
  const expired = await transition(d.orgId, d.deploymentId, from, 'expired', {
    reason: `Expired after ${deploymentRetentionDays()} days.`,
  });
  if (!expired) return false;
  await removeFunction({ ...functionKey(d.orgId, d.projectId, d.deploymentId), deploymentId: d.deploymentId });
  await artifacts().removeOutput(d.deploymentId);
  return true;
}

/**
 * The sweep: every marker due on the last seven days up to `now` (of `projectIds` only, if given). Expired deployments and
 * deployments that are gone drop their marker; the current production deployment and one still
 * building are looked at again the next day.
 */
export async function sweepExpired(
  now = Date.now(),
  options: { projectIds?: string[] } = {},
): Promise<{ expired: string[]; postponed: string[] }> {
  const expired: string[] = [];
  const postponed: string[] = [];
  for (let back = 7; back >= 0; back--) {
    const pk = `${PREFIXES.deployments.expiry}${dayOf(now - back * DAY)}`;
    const pages = queryPages<ExpiryMarker>({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    });
    for await (const page of pages) {
      for (const marker of page.items) {
        // Tests sweep only their own projects (they share the table with other files).
        if (options.projectIds && !options.projectIds.includes(marker.projectId)) continue;
        const d = await findDeployment(marker.projectId, marker.deploymentId);
        if (d && (await expireDeployment(d))) expired.push(d.deploymentId);
        else if (d && d.status !== 'expired') {
          const next = markerFor(d.deploymentId, d.projectId, now + DAY);
          await db.send(new PutCommand({ TableName: TABLE(), Item: next }));
          postponed.push(d.deploymentId);
        }
        await db.send(new DeleteCommand({ TableName: TABLE(), Key: { pk: marker.pk, sk: marker.sk } }));
      }
    }
  }
  return { expired, postponed };
}
