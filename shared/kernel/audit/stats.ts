import { db } from '../store/client';
import { QueryCommand } from '../store/commands';
import { queryCount } from '../store/ops';
import { TABLE } from '../store/table';

/**
 * The platform's totals by kind, moved by the audit of each successful create and delete (the
 * action and status of the write, shared/kernel/audit/record.ts), so no group's code counts. Kinds
 * whose records also go away without a request of their own (a project's deployments, a page's
 * subtree) count what the API created and deleted by request.
 */
export const STAT_KINDS = [
  'projects',
  'deployments',
  'repositories',
  'databases',
  'buckets',
  'mailboxes',
  'mailDomains',
  'domains',
  'webhooks',
  'connectors',
  'pages',
  'signinClients',
  'issues',
  'pulls',
] as const;
export type StatKind = (typeof STAT_KINDS)[number];

const CREATES: Record<string, StatKind> = {
  'projects.create': 'projects',
  'projects.deployments.create': 'deployments',
  'deployments.redeploy': 'deployments',
  'repos.create': 'repositories',
  'mail.admin.mailboxes.create': 'mailboxes',
  'mail.domains.create': 'mailDomains',
  'domains.create': 'domains',
  'webhooks.create': 'webhooks',
  'connectors.create': 'connectors',
  'pages.create': 'pages',
  'projects.oauth-clients.create': 'signinClients',
  'repos.issues.create': 'issues',
  'repos.pulls.create': 'pulls',
};
const DELETES: Record<string, StatKind> = {
  'projects.delete': 'projects',
  'repos.delete': 'repositories',
  'databases.delete': 'databases',
  'storage.delete': 'buckets',
  'mail.admin.mailboxes.delete': 'mailboxes',
  'mail.domains.delete': 'mailDomains',
  'domains.delete': 'domains',
  'webhooks.delete': 'webhooks',
  'connectors.delete': 'connectors',
  'pages.delete': 'pages',
  'projects.oauth-clients.delete': 'signinClients',
};
const RESOURCE_KINDS: Record<string, StatKind> = {
  database: 'databases',
  bucket: 'buckets',
  repository: 'repositories',
};

/** The total a write moves, if it succeeded and creates or deletes something counted. */
export function statOf(
  action: string,
  status: number,
  params: Record<string, string>,
  body: unknown,
): { kind: StatKind; delta: 1 | -1 } | undefined {
  if (status < 200 || status >= 300) return undefined;
  if (action === 'resources.create') {
    const type = body && typeof body === 'object' ? (body as { type?: unknown }).type : undefined;
    const kind = typeof type === 'string' ? RESOURCE_KINDS[type] : undefined;
    return kind ? { kind, delta: 1 } : undefined;
  }
  if (action === 'resources.delete') {
    const kind = params.type ? RESOURCE_KINDS[params.type] : undefined;
    return kind ? { kind, delta: -1 } : undefined;
  }
  const created = CREATES[action];
  if (created) return { kind: created, delta: 1 };
  const deleted = DELETES[action];
  return deleted ? { kind: deleted, delta: -1 } : undefined;
}

const STATS_KEY = { pk: 'PLATFORMSTATS', sk: 'TOTALS' };

/** The counter's update, for the audit entry's transaction. */
export const statUpdate = (kind: StatKind, delta: 1 | -1) => ({
  Update: {
    TableName: TABLE(),
    Key: STATS_KEY,
    UpdateExpression: 'ADD #k :d SET updatedAt = :now',
    ExpressionAttributeNames: { '#k': kind },
    ExpressionAttributeValues: { ':d': delta, ':now': Date.now() },
  },
});

/** Every total, and the organizations (counted on the index that lists them). */
export async function readStats(): Promise<{ totals: Record<string, number>; updatedAt: number | null }> {
  const [item, organizations] = await Promise.all([
    db.send(
      new QueryCommand({
        TableName: TABLE(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': STATS_KEY.pk },
      }),
    ),
    countOrganizations(),
  ]);
  const stored = (item.Items?.[0] ?? {}) as Record<string, unknown>;
  const totals: Record<string, number> = { organizations };
  for (const kind of STAT_KINDS) totals[kind] = Math.max(0, Number(stored[kind] ?? 0));
  return { totals, updatedAt: typeof stored.updatedAt === 'number' ? stored.updatedAt : null };
}

function countOrganizations(): Promise<number> {
  return queryCount({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :orgs',
    ExpressionAttributeValues: { ':orgs': 'ORGS' },
  });
}
