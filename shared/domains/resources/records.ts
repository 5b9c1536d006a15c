import { conflict, type DomainError, invalid } from '../../kernel/ground/errors';
import { orgIsActive } from '../../kernel/identity/orgs';
import { db } from '../../kernel/store/client';
import { DeleteCommand, type TransactWriteCommandInput } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, keys, ORG_PREFIX, putNew, TABLE } from '../../kernel/store/table';
import { projectKeys } from '../projects/records';
import type { ResourceRecord, ResourceType } from './schema';

/**
 * Resource records (repositories, databases, buckets), shared by the resources, databases,
 * storage and repository groups. Each lives under its organization at `RES#<type>#<resourceId>`,
 * so the organization's contents count them by type. Beside each record:
 * - `RESNAME#<type>#<name>`: the name is unique per type within the organization;
 * - `LINK#<projectId>#<type>`: a project links at most one database and one bucket (their names
 *   reach the project's deployments as `DATABASE_TABLE` and `BUCKET_NAME`, see links.ts).
 * Both are written in the same transaction as the record, so uniqueness never depends on a read.
 */
export const resourceKey = (orgId: string, type: ResourceType, resourceId: string) =>
  projectKeys.resource(orgId, type, resourceId);

export const resourceNameKey = (orgId: string, type: ResourceType, name: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${PREFIXES.resources.name}${type}#${name}`,
});

export const projectLinkKey = (orgId: string, projectId: string, type: ResourceType) => ({
  pk: keys.org(orgId).pk,
  sk: `${PREFIXES.resources.link}${projectId}#${type}`,
});

export const PROJECT_NOT_FOUND = 'Project not found in this organization.';
const ORG_DELETING = 'This organization is being deleted.';
const RESOURCE_CHANGED = 'This resource changed since it was read. Reload and try again.';

const article = (type: ResourceType) => (type === 'repository' ? 'a repository' : `a ${type}`);
const nameTaken = (type: ResourceType, name: string) => `This organization already uses ${name} for ${article(type)}.`;
const linkTaken = (project: string, other: string, type: ResourceType) =>
  `${project} already uses ${other} for its ${type}.`;

interface LinkItem {
  resourceId: string;
  name: string;
}

export async function getResource(
  orgId: string,
  type: ResourceType,
  resourceId: string,
): Promise<ResourceRecord | undefined> {
  return getItem<ResourceRecord>(resourceKey(orgId, type, resourceId));
}

/** The organization's resources of one type, or of every type, oldest first. */
export async function listResources(orgId: string, type?: ResourceType): Promise<ResourceRecord[]> {
  const pk = keys.org(orgId).pk;
  if (type) return queryPrefix<ResourceRecord>(pk, ORG_PREFIX[type]);
  return queryPrefix<ResourceRecord>(pk, PREFIXES.resources.resource);
}

/** The project's name for messages (undefined: no such project in this organization). */
export async function getProjectName(orgId: string, projectId: string): Promise<string | undefined> {
  const p = await getItem<{ name?: string; slug?: string }>(projectKeys.project(orgId, projectId), true);
  return p ? (p.name ?? p.slug ?? projectId) : undefined;
}

const projectExists = (orgId: string, projectId: string) => ({
  ConditionCheck: {
    TableName: TABLE(),
    Key: projectKeys.project(orgId, projectId),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

/** The 409 for a project whose link of this type is taken (the other resource's name read back). */
async function linkConflict(r: ResourceRecord, projectId: string, projectName: string): Promise<DomainError> {
  const other = await getItem<LinkItem>(projectLinkKey(r.orgId, projectId, r.type), true);
  return conflict(linkTaken(projectName, other?.name ?? 'another resource', r.type));
}

/**
 * A name or project link item whose resource is gone (removed by a path that deleted only the
 * record) or is no longer linked there is stale: it is released, conditionally, and the caller may
 * try again. Record, name and link are always written together, so a live one is never released.
 */
async function releaseIfStale(
  r: ResourceRecord,
  key: { pk: string; sk: string },
  projectId?: string,
): Promise<boolean> {
  const held = await getItem<LinkItem>(key, true);
  if (!held) return true;
  const owner = await getItem<ResourceRecord>(resourceKey(r.orgId, r.type, held.resourceId), true);
  if (owner && (projectId === undefined || owner.projectId === projectId)) return false;
  try {
    await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: key,
        ConditionExpression: 'resourceId = :id',
        ExpressionAttributeValues: { ':id': held.resourceId },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
  return true;
}

/**
 * Writes a new resource record with its name, and its project link when it has one, in one
 * transaction that also holds only while the organization is active.
 */
export async function insertResource(
  r: ResourceRecord,
  projectName?: string,
  messages: { nameTaken?: string } = {},
): Promise<void> {
  const nameKey = resourceNameKey(r.orgId, r.type, r.name);
  const linkKey = r.projectId ? projectLinkKey(r.orgId, r.projectId, r.type) : undefined;
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    orgIsActive(r.orgId),
    putNew({ ...resourceKey(r.orgId, r.type, r.resourceId), ...r }),
    putNew({ ...nameKey, resourceId: r.resourceId }),
  ];
  if (r.projectId && linkKey) {
    items.push(projectExists(r.orgId, r.projectId));
    items.push(putNew({ ...linkKey, resourceId: r.resourceId, name: r.name }));
  }
  for (let attempt = 0; ; attempt++) {
    let retry = false;
    await transact(items, async (i) => {
      if (i === 0) return conflict(ORG_DELETING);
      if (i === 2) {
        retry = attempt < 2 && (await releaseIfStale(r, nameKey));
        return retry ? undefined : conflict(messages.nameTaken ?? nameTaken(r.type, r.name));
      }
      if (i === 3) return invalid(PROJECT_NOT_FOUND);
      if (i === 4 && r.projectId && linkKey) {
        retry = attempt < 2 && (await releaseIfStale(r, linkKey, r.projectId));
        return retry ? undefined : linkConflict(r, r.projectId, projectName ?? r.projectId);
      }
      return undefined;
    }).catch((err: unknown) => {
      if (!retry) throw err;
    });
    if (!retry) return;
  }
}

/** Updates fields of the record, guarded by its version (a stale one is 409). */
export function updateResource(r: ResourceRecord, fields: Partial<ResourceRecord>): Promise<ResourceRecord> {
  return updateVersioned<ResourceRecord>(
    resourceKey(r.orgId, r.type, r.resourceId),
    r.version,
    { ...fields, updatedAt: Date.now() },
    RESOURCE_CHANGED,
  );
}

/** Removes the record, its name and its project link in one transaction. */
export async function removeResource(r: ResourceRecord): Promise<void> {
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    { Delete: { TableName: TABLE(), Key: resourceKey(r.orgId, r.type, r.resourceId) } },
    {
      Delete: {
        TableName: TABLE(),
        Key: resourceNameKey(r.orgId, r.type, r.name),
        ConditionExpression: 'attribute_not_exists(pk) OR resourceId = :id',
        ExpressionAttributeValues: { ':id': r.resourceId },
      },
    },
  ];
  if (r.projectId) {
    items.push({
      Delete: {
        TableName: TABLE(),
        Key: projectLinkKey(r.orgId, r.projectId, r.type),
        ConditionExpression: 'attribute_not_exists(pk) OR resourceId = :id',
        ExpressionAttributeValues: { ':id': r.resourceId },
      },
    });
  }
  await transact(items, async () => undefined);
}

/**
 * Links the resource to `projectId`, or unlinks it with null, in one transaction: the record
 * (guarded by its version), the old project's link released, the new project's link taken.
 */
export async function linkResource(
  r: ResourceRecord,
  projectId: string | null,
  projectName?: string,
): Promise<ResourceRecord> {
  if ((r.projectId ?? null) === projectId) return r;
  const now = Date.now();
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    {
      Update: {
        TableName: TABLE(),
        Key: resourceKey(r.orgId, r.type, r.resourceId),
        UpdateExpression: `SET #version = #version + :one, updatedAt = :now${projectId ? ', projectId = :p' : ''}${
          projectId ? '' : ' REMOVE projectId'
        }`,
        ConditionExpression: 'attribute_exists(pk) AND #version = :expected',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':now': now,
          ':expected': r.version,
          ...(projectId ? { ':p': projectId } : {}),
        },
      },
    },
  ];
  if (r.projectId) {
    items.push({
      Delete: {
        TableName: TABLE(),
        Key: projectLinkKey(r.orgId, r.projectId, r.type),
        ConditionExpression: 'attribute_not_exists(pk) OR resourceId = :id',
        ExpressionAttributeValues: { ':id': r.resourceId },
      },
    });
  }
  const projectAt = items.length;
  if (projectId) {
    items.push(projectExists(r.orgId, projectId));
    items.push(putNew({ ...projectLinkKey(r.orgId, projectId, r.type), resourceId: r.resourceId, name: r.name }));
  }
  for (let attempt = 0; ; attempt++) {
    let retry = false;
    await transact(items, async (i) => {
      if (i === 0) return conflict(RESOURCE_CHANGED);
      if (projectId && i === projectAt) return invalid(PROJECT_NOT_FOUND);
      if (projectId && i === projectAt + 1) {
        retry = attempt < 2 && (await releaseIfStale(r, projectLinkKey(r.orgId, projectId, r.type), projectId));
        return retry ? undefined : linkConflict(r, projectId, projectName ?? projectId);
      }
      return undefined;
    }).catch((err: unknown) => {
      if (!retry) throw err;
    });
    if (!retry) break;
  }
  const { projectId: _old, ...rest } = r;
  return { ...rest, ...(projectId ? { projectId } : {}), version: r.version + 1, updatedAt: now };
}
