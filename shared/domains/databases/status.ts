import { updateResource } from '../resources/records';
import type { ResourceRecord } from '../resources/schema';
import { describeTable } from './tables';

/**
 * A new database is written `creating`; the create route waits briefly for its table to become
 * ACTIVE (at once on DynamoDB Local, seconds on AWS). If it is still being created when the
 * route answers, the routes that read the record finish the transition here, lazily: the table is
 * described and, once ACTIVE, the record turns `active` with the table's ARN.
 */
export async function refreshStatus(r: ResourceRecord): Promise<ResourceRecord> {
  if (r.status !== 'creating' || r.type !== 'database') return r;
  const t = await describeTable(r.region, r.physicalName);
  if (t?.TableStatus !== 'ACTIVE') return r;
  try {
    return await updateResource(r, { status: 'active', arn: t.TableArn });
  } catch {
    // Another request refreshed it first: its answer is as good as ours.
    return { ...r, status: 'active', arn: t.TableArn };
  }
}
