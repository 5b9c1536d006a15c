import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { statusOf } from '../../shared/kernel/http/http-error';
import { findPlatformOrg } from '../../shared/kernel/identity/operators';
import { createOrg, findOrgBySlug } from '../../shared/kernel/identity/orgs';
import type { Organization } from '../../shared/kernel/identity/schema';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';

/** The platform organization (slug `platform`), made as the seed makes it when no test made it yet. */
export async function platformOrg(): Promise<Organization> {
  const found = await findPlatformOrg();
  if (found) return found;
  try {
    await createOrg({ slug: 'platform', name: 'Platform', kind: 'platform' });
  } catch (err) {
    if (statusOf(err) !== 409) throw err;
  }
  const org = (await findPlatformOrg()) ?? (await findOrgBySlug('platform'));
  if (!org) throw new Error('no platform organization');
  return org;
}

/** Every stored audit item of a partition (`<orgId>` or `~<userId>`), as stored. */
export async function storedAudit(owner: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `AUDIT#${owner}` },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((out.Items ?? []) as Record<string, unknown>[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
