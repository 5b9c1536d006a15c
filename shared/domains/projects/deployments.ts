import { db } from '../../kernel/store/client';
import { QueryCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll, queryPages } from '../../kernel/store/ops';
import { getItem, keys, TABLE } from '../../kernel/store/table';
import { type Deployment, type DeploymentRecord, IN_PROGRESS } from '../deployments/schema';
import { projectKeys } from './records';

/**
 * Deployment records, shared by the projects and deployments groups.
 * pk `ORG#<orgId>`, sk `DPL#<deploymentId>`; gsi1pk `PRJ#<projectId>`, gsi1sk `DPL#<deploymentId>`.
 * Deployment ids are time-ordered (`newId('dpl_')`), so the project's GSI partition read
 * backwards is newest first.
 */
export const deploymentKeys = {
  deployment: (orgId: string, deploymentId: string) => ({
    pk: keys.org(orgId).pk,
    sk: `${PREFIXES.deployments.deployment}${deploymentId}`,
  }),
  byProject: (projectId: string) => ({
    gsi1pk: `${PREFIXES.projects.project}${projectId}`,
    gsi1sk: PREFIXES.deployments.deployment,
  }),
};

/** `:p` and `:d` of a query over one project's deployments (`gsi1pk = :p AND begins_with(gsi1sk, :d)`). */
export const byProjectValues = (projectId: string) => {
  const { gsi1pk, gsi1sk } = deploymentKeys.byProject(projectId);
  return { ':p': gsi1pk, ':d': gsi1sk };
};

/** The number of deployments the project route answers ("most recent"). */
const RECENT_DEPLOYMENTS = 10;

/**
 * A deployment as every group answers it: exactly the fields of spec part A "Deployment" that are
 * set, `meta`, and a pull request preview's `pullRequest` and `previewHost`. Picked one by one: bookkeeping on the record (keys, version, the sealed log
 * mask, the archive's size and hash) never reaches an answer.
 */
export const toDeployment = (r: DeploymentRecord): Deployment => ({
  deploymentId: r.deploymentId,
  orgId: r.orgId,
  projectId: r.projectId,
  location: r.location,
  target: r.target,
  status: r.status,
  error: r.error,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  region: r.region,
  createdBy: r.createdBy,
  branch: r.branch,
  commitSha: r.commitSha,
  commitMessage: r.commitMessage,
  commitAuthor: r.commitAuthor,
  host: r.host,
  buildId: r.buildId,
  buildDurationMs: r.buildDurationMs,
  readyAt: r.readyAt,
  crons: r.crons,
  envHash: r.envHash,
  previousDeploymentId: r.previousDeploymentId,
  reason: r.reason,
  source: r.source,
  sourceArchive: r.sourceArchive,
  buildMetrics: r.buildMetrics,
  meta: r.meta,
  pullRequest: r.pullRequest,
  previewHost: r.previewHost,
});

export function getDeployment(orgId: string, deploymentId: string, consistent = false) {
  return getItem<DeploymentRecord>(deploymentKeys.deployment(orgId, deploymentId), consistent);
}

/** The project's most recent deployments, newest first: one query on gsi1. */
export async function recentDeployments(projectId: string, limit = RECENT_DEPLOYMENTS): Promise<DeploymentRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :d)',
      ExpressionAttributeValues: byProjectValues(projectId),
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []) as DeploymentRecord[];
}

/** Every deployment record of a project (keys and organization only), for delete and transfer. */
export function projectDeploymentKeys(projectId: string): Promise<{ pk: string; sk: string; orgId?: string }[]> {
  return queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :d)',
    ExpressionAttributeValues: byProjectValues(projectId),
    ProjectionExpression: 'pk, sk, orgId',
  });
}

/**
 * A deployment of the project that is queued, building or deploying, if any. Reads the project's
 * deployments on gsi1, filtered, until one is found.
 */
export async function deploymentInProgress(projectId: string): Promise<DeploymentRecord | undefined> {
  const pages = queryPages<DeploymentRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :d)',
    FilterExpression: '#status IN (:s0, :s1, :s2)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ...byProjectValues(projectId),
      ':s0': IN_PROGRESS[0],
      ':s1': IN_PROGRESS[1],
      ':s2': IN_PROGRESS[2],
    },
    ScanIndexForward: false,
  });
  for await (const page of pages) if (page.items[0]) return page.items[0];
  return undefined;
}

/**
 * The transaction items that create a deployment: the record, and the project's
 * `latestDeploymentId` (so project lists read the latest deployments in one batch), guarded by
 * the project being active (no deployment starts while a delete or transfer runs).
 * The deployments group adds its own items (e.g. `orgIsActive`) beside these.
 */
export function newDeploymentItems(deployment: Omit<DeploymentRecord, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'version'>) {
  const { orgId, projectId, deploymentId } = deployment;
  const record: DeploymentRecord = {
    ...deployment,
    ...deploymentKeys.deployment(orgId, deploymentId),
    gsi1pk: deploymentKeys.byProject(projectId).gsi1pk,
    gsi1sk: `${deploymentKeys.byProject(projectId).gsi1sk}${deploymentId}`,
    version: 1,
  };
  return [
    { Put: { TableName: TABLE(), Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Update: {
        TableName: TABLE(),
        Key: projectKeys.project(orgId, projectId),
        UpdateExpression: 'SET latestDeploymentId = :d',
        ConditionExpression: 'attribute_exists(pk) AND #status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':d': deploymentId, ':active': 'active' },
      },
    },
  ];
}
