import type { Resource, ResourceType } from '../schemas/resource';
import { getItem, keys, ORG_PREFIX, queryPrefix } from '../store/table';

/**
 * Resource records (repositories, databases, buckets), shared by the resources, databases,
 * storage and repository groups. Each lives under its organization at `RES#<type>#<resourceId>`,
 * so the organization's contents count them by type.
 */
export const resourceKey = (orgId: string, type: ResourceType, resourceId: string) => ({
  pk: keys.org(orgId).pk,
  sk: `RES#${type}#${resourceId}`,
});

export async function getResource(orgId: string, type: ResourceType, resourceId: string): Promise<Resource | undefined> {
  return getItem<Resource>(resourceKey(orgId, type, resourceId));
}

/** The organization's resources of one type, or of every type, oldest first. */
export async function listResources(orgId: string, type?: ResourceType): Promise<Resource[]> {
  const pk = keys.org(orgId).pk;
  if (type) return queryPrefix<Resource>(pk, ORG_PREFIX[type]);
  return queryPrefix<Resource>(pk, 'RES#');
}
