import { invalid } from '../../kernel/ground/errors';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll } from '../../kernel/store/ops';
import { type Item, keys, TABLE } from '../../kernel/store/table';
import type { CustomDomain } from './record-schemas';
import { DOMAIN_PREFIX, isId, projectKeys } from './records';

/**
 * The records around a project that other groups own, read against the platform table layout
 * (shared/domains/projects/records.ts): repositories, domains, and linked databases and buckets.
 */
export type DomainRecord = Item & Pick<CustomDomain, 'hostname' | 'orgId' | 'projectId' | 'status' | 'redirectTo'>;

export interface ResourceRecord extends Item {
  resourceId: string;
  type: 'repository' | 'database' | 'bucket';
  name: string;
  status?: 'creating' | 'active' | 'deleting' | 'error';
  projectId?: string;
}

export const REPO_NOT_FOUND = 'Repository not found in this organization.';

/**
 * A transaction item that holds while the repository exists in the organization (and is not
 * being deleted): linking checks it in the same transaction as the write, not before it.
 * An id that is not a resource id names no repository: 400 at once, without a read.
 */
export function repoExists(orgId: string, repoId: string) {
  if (!isId('res_', repoId)) throw invalid(REPO_NOT_FOUND);
  return {
    ConditionCheck: {
      TableName: TABLE(),
      Key: projectKeys.resource(orgId, 'repository', repoId),
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#status) OR #status <> :deleting)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':deleting': 'deleting' },
    },
  };
}

/** The organization's domains (one query: an organization holds few), optionally of one project. */
export function domainsOf(orgId: string, projectId?: string, consistent = false): Promise<DomainRecord[]> {
  return queryAll<DomainRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ...(projectId ? { FilterExpression: 'projectId = :project' } : {}),
    ExpressionAttributeValues: {
      ':pk': keys.org(orgId).pk,
      ':p': DOMAIN_PREFIX,
      ...(projectId ? { ':project': projectId } : {}),
    },
    ConsistentRead: consistent,
  });
}

/** The databases and buckets linked to the project (strongly consistent). */
export async function linkedStorage(orgId: string, projectId: string): Promise<ResourceRecord[]> {
  const read = (type: 'database' | 'bucket') =>
    queryAll<ResourceRecord>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      FilterExpression: 'projectId = :project',
      ExpressionAttributeValues: {
        ':pk': keys.org(orgId).pk,
        ':p': `${PREFIXES.resources.resource}${type}#`,
        ':project': projectId,
      },
      ConsistentRead: true,
    });
  const [databases, buckets] = await Promise.all([read('database'), read('bucket')]);
  return [...databases, ...buckets];
}

/** `{ hostname, status?, redirectTo? }`: a domain as project summaries list it. */
export const domainSummary = (d: DomainRecord) => ({
  hostname: d.hostname,
  status: d.status,
  redirectTo: d.redirectTo,
});

/** `{ resourceId, name }`: the linked repository as projects answer it. */
export const repoSummary = (r: ResourceRecord) => ({ resourceId: r.resourceId, name: r.name });
