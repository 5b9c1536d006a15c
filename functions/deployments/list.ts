import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { requireProject } from '../../shared/projects/records';
import type { DeploymentRecord, DeploymentStatus, DeploymentTarget } from '../../shared/schemas/deployment';
import { db } from '../../shared/store/client';
import { decodeCursor, encodeCursor } from '../../shared/store/cursor';
import { keys, TABLE } from '../../shared/store/table';
import { toApiDeployment } from './view';

export interface ListQuery {
  projectId?: string;
  target?: DeploymentTarget;
  status?: DeploymentStatus;
  branch?: string;
  cursor?: string;
  limit: number;
}

/** Pages read per call at most: filters that match rarely answer a short page with a cursor. */
const MAX_READS = 8;

/**
 * `GET .../deployments`, newest first: the organization's deployments (its partition, `DPL#`
 * sort keys, read backwards), or one project's (gsi1). `target`, `status` and `branch` filter.
 * The cursor is the key of the last deployment answered, signed for this organization and list.
 */
export async function listDeployments(orgId: string, q: ListQuery) {
  if (q.projectId) await requireProject(orgId, q.projectId);
  const scope = `${orgId}:deployments:${q.projectId ?? '*'}`;
  let start = decodeCursor(scope, q.cursor);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filters: string[] = [];
  if (q.projectId) filters.push('orgId = :org');
  if (q.target) {
    names['#target'] = 'target';
    values[':target'] = q.target;
    filters.push('#target = :target');
  }
  if (q.status) {
    names['#status'] = 'status';
    values[':status'] = q.status;
    filters.push('#status = :status');
  }
  if (q.branch) {
    values[':branch'] = q.branch;
    filters.push('branch = :branch');
  }
  const keyCondition = q.projectId
    ? { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :d)' }
    : { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :d)' };
  const pk = q.projectId ? `PRJ#${q.projectId}` : keys.org(orgId).pk;
  if (q.projectId) values[':org'] = orgId;

  const found: DeploymentRecord[] = [];
  let last: Record<string, unknown> | undefined;
  for (let reads = 0; reads < MAX_READS && found.length < q.limit; reads++) {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE(),
        ...keyCondition,
        FilterExpression: filters.length ? filters.join(' AND ') : undefined,
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: { ':pk': pk, ':d': 'DPL#', ...values },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
        // Without filters one read is the page; with them, read ahead.
        Limit: filters.length > (q.projectId ? 1 : 0) ? Math.max(q.limit * 2, 50) : q.limit - found.length,
      }),
    );
    const items = (out.Items ?? []) as DeploymentRecord[];
    for (const item of items) {
      if (found.length >= q.limit) break;
      found.push(item);
      last = q.projectId
        ? { pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }
        : { pk: item.pk, sk: item.sk };
    }
    if (found.length >= q.limit) {
      // The page is full: more may follow unless this read was the end and nothing is left in it.
      const lastItem = items[items.length - 1];
      const usedAll = lastItem && found[found.length - 1] === lastItem;
      if (usedAll && !out.LastEvaluatedKey) last = undefined;
      break;
    }
    start = out.LastEvaluatedKey;
    last = start;
    if (!start) break;
  }
  return { deployments: found.map(toApiDeployment), cursor: encodeCursor(scope, last) };
}
