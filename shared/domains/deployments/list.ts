import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPages } from '../../kernel/store/ops';
import { keys } from '../../kernel/store/table';
import { deploymentKeys } from '../projects/deployments';
import { requireProject } from '../projects/records';
import type { DeploymentRecord, DeploymentStatus, DeploymentTarget } from './schema';
import { toApiDeployment } from './view';

interface ListQuery {
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
 * The cursor is the key of the last deployment answered, signed for this organization and list;
 * null on the last page: one deployment beyond the page is looked for before a cursor is given.
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
  const pk = q.projectId ? deploymentKeys.byProject(q.projectId).gsi1pk : keys.org(orgId).pk;
  if (q.projectId) values[':org'] = orgId;

  const keyOf = (item: DeploymentRecord) =>
    q.projectId ? { pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk } : { pk: item.pk, sk: item.sk };
  const filtered = filters.length > (q.projectId ? 1 : 0);
  // One deployment beyond the page is looked for: found, the cursor points after the page's last;
  // not found, the page is the last and its cursor is null (never a cursor to an empty page).
  const found: DeploymentRecord[] = [];
  let more = false;
  let reads = 0;
  const pages = queryPages<DeploymentRecord>(
    () => ({
      ...keyCondition,
      FilterExpression: filters.length ? filters.join(' AND ') : undefined,
      ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
      ExpressionAttributeValues: { ':pk': pk, ':d': PREFIXES.deployments.deployment, ...values },
      ScanIndexForward: false,
      // Without filters one read is the page and the one after it; with them, read ahead.
      Limit: filtered ? Math.max(q.limit * 2, 50) : q.limit + 1 - found.length,
    }),
    start,
  );
  for await (const page of pages) {
    reads++;
    for (const item of page.items) {
      if (found.length === q.limit) {
        more = true;
        break;
      }
      found.push(item);
    }
    start = page.next;
    if (!start || more || reads >= MAX_READS) break;
  }
  // Out of reads (filters that match rarely): a short page; the cursor reads on after what was
  // read (a filtered read answers matches only, so every one of them is on this page).
  const last = found[found.length - 1];
  const cursorKey = more && last ? keyOf(last) : reads === MAX_READS && !more ? start : undefined;
  return { deployments: found.map(toApiDeployment), cursor: encodeCursor(scope, cursorKey) };
}
