import { queryCount } from '../store/ops';
import { keys, ORG_PREFIX } from '../store/table';

/** What must be removed before an organization can be deleted, in the order the spec names it. */
const COUNTED = [
  { field: 'projects', prefix: ORG_PREFIX.project, one: 'project', many: 'projects' },
  { field: 'repositories', prefix: ORG_PREFIX.repository, one: 'repository', many: 'repositories' },
  { field: 'databases', prefix: ORG_PREFIX.database, one: 'database', many: 'databases' },
  { field: 'buckets', prefix: ORG_PREFIX.bucket, one: 'bucket', many: 'buckets' },
  { field: 'connectors', prefix: ORG_PREFIX.connector, one: 'connector', many: 'connectors' },
  // Agents count while they are active: a revoked device's record stays, and does not hold the organization.
  { field: 'agents', prefix: ORG_PREFIX.agent, one: 'active agent', many: 'active agents', gone: 'revoked' },
  // Pages (shared/domains/pages): a deleted page is hidden at once (`status: removed`) while its subtree goes.
  { field: 'docs', prefix: ORG_PREFIX.doc, one: 'doc', many: 'docs', gone: 'removed' },
] as const;

export type Contents = Record<(typeof COUNTED)[number]['field'], number>;

/** How many records of `prefix` the organization holds, leaving out those whose `status` is `gone`. */
function count(orgId: string, prefix: string, gone: string | undefined, consistent: boolean): Promise<number> {
  return queryCount({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ...(gone
      ? {
          FilterExpression: 'attribute_not_exists(#status) OR #status <> :gone',
          ExpressionAttributeNames: { '#status': 'status' },
        }
      : {}),
    ExpressionAttributeValues: {
      ':pk': keys.org(orgId).pk,
      ':p': prefix,
      ...(gone ? { ':gone': gone } : {}),
    },
    ConsistentRead: consistent,
  });
}

export async function countContents(orgId: string, consistent = false): Promise<Contents> {
  const counts = await Promise.all(
    COUNTED.map((c) => count(orgId, c.prefix, 'gone' in c ? c.gone : undefined, consistent)),
  );
  return Object.fromEntries(COUNTED.map((c, i) => [c.field, counts[i]])) as Contents;
}

/** `2 projects and 1 database`, or undefined when nothing remains. */
export function describeRemaining(contents: Contents): string | undefined {
  const parts = COUNTED.filter((c) => contents[c.field] > 0).map(
    (c) => `${contents[c.field]} ${contents[c.field] === 1 ? c.one : c.many}`,
  );
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
