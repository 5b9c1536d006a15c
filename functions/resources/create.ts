import { provisionBucket } from '../../shared/domains/buckets/provision';
import { createTable, waitForTable } from '../../shared/domains/databases/tables';
import { usableLocation } from '../../shared/domains/platform-admin/geo';
import { createRepository } from '../../shared/domains/repos/records';
import {
  getProjectName,
  insertResource,
  PROJECT_NOT_FOUND,
  updateResource,
} from '../../shared/domains/resources/records';
import type { KeyAttribute, KeySchema, ResourceRecord, ResourceType } from '../../shared/domains/resources/schema';
import type { Caller } from '../../shared/kernel/auth/caller';
import { CUSTOMER_BUCKET_PREFIX, CUSTOMER_TABLE_PREFIX } from '../../shared/kernel/config';
import { invalid } from '../../shared/kernel/ground/errors';
import { log } from '../../shared/kernel/ground/log';
import { HttpError, httpErrorOf } from '../../shared/kernel/http/http-error';
import type { Organization } from '../../shared/kernel/identity/schema';
import { newId } from '../../shared/kernel/store/ids';

interface CreateInput {
  type: ResourceType;
  name: string;
  projectId?: string;
  location?: string;
  description?: string;
  partitionKey?: KeyAttribute;
  sortKey?: KeyAttribute | null;
}

export const ONLY_DATABASES_HAVE_KEYS = 'Only databases have keys.';
export const SAME_KEYS = 'The sort key must differ from the partition key.';
export const ONLY_LINKABLE = 'Only databases and buckets can be linked.';
export const PROVISIONING_FAILED = 'Provisioning failed.';

/** Databases default to `pk` and `sk`, both strings; `sortKey: null` means a partition key only. */
function keysFor(input: Pick<CreateInput, 'partitionKey' | 'sortKey'>): KeySchema {
  const partitionKey = input.partitionKey ?? { name: 'pk', type: 'S' };
  const sortKey = input.sortKey === undefined ? { name: 'sk', type: 'S' as const } : input.sortKey;
  if (sortKey && sortKey.name === partitionKey.name) throw invalid(SAME_KEYS);
  return sortKey ? { partitionKey, sortKey } : { partitionKey };
}

/**
 * The backing resource's name, unique across the platform because the resource id is: tables
 * `cust-res_…`, buckets `plt-res-…` (S3: lowercase, no underscores, at most 63 characters). The
 * prefixes are what the functions' IAM grants are scoped to.
 */
function physicalNameOf(type: ResourceType, resourceId: string): string {
  const id = resourceId.toLowerCase();
  if (type === 'database') return `${CUSTOMER_TABLE_PREFIX}${id}`;
  if (type === 'bucket') return `${CUSTOMER_BUCKET_PREFIX}${id.replace(/_/g, '-')}`;
  return `repo-${id}`;
}

const callerId = (c: Caller) => (c.kind === 'user' ? c.userId : c.keyId);

/** What provisioning failed of, for the record: the backend's words without account details. */
function causeOf(err: unknown): string {
  const e = err as { name?: string; message?: string };
  const message = (e.message ?? '')
    .replace(/arn:[^\s"']+/g, '<arn>')
    .replace(/\b\d{12}\b/g, '<account>')
    .slice(0, 300);
  return message && message !== e.name ? `${e.name ?? 'Error'}: ${message}` : (e.name ?? 'Error');
}

/**
 * Creates a database or a bucket: the record is written `creating` (with its unique name and its
 * project link, in one transaction), then the table or bucket is made and the record turns
 * `active`. When the backend refuses, the record is kept with status `error` and the cause, so the
 * failure stays visible in the lists, and the answer is 502 `Provisioning failed.`; deleting the
 * record frees the name for another try.
 */
export async function createResource(org: Organization, caller: Caller, input: CreateInput): Promise<ResourceRecord> {
  if (input.type !== 'database' && (input.partitionKey !== undefined || input.sortKey !== undefined)) {
    throw invalid(ONLY_DATABASES_HAVE_KEYS);
  }
  const keys = input.type === 'database' ? keysFor(input) : undefined;
  const location = await usableLocation(input.location);
  if (!location) throw invalid(`Unknown location: ${input.location}`);
  const locationId = location.id;
  if (input.type === 'repository') {
    if (input.projectId !== undefined) throw invalid(ONLY_LINKABLE);
    // The same code as POST /repos: an empty repository on the default branch `main`.
    return createRepository(org.orgId, caller, {
      name: input.name,
      description: input.description,
      location: locationId,
    });
  }
  let projectName: string | undefined;
  if (input.projectId !== undefined) {
    projectName = await getProjectName(org.orgId, input.projectId);
    if (!projectName) throw invalid(PROJECT_NOT_FOUND);
  }

  const now = Date.now();
  const resourceId = newId('res_', now);
  const record: ResourceRecord = {
    resourceId,
    type: input.type,
    name: input.name,
    status: 'creating',
    ...(input.description ? { description: input.description } : {}),
    createdAt: now,
    updatedAt: now,
    region: location.region,
    orgId: org.orgId,
    createdBy: callerId(caller),
    ...(input.projectId ? { projectId: input.projectId } : {}),
    location: location.id,
    physicalName: physicalNameOf(input.type, resourceId),
    ...(keys ? { keys } : {}),
    version: 1,
  };
  await insertResource(record, projectName);

  const tags = { 'platform:org': org.orgId, 'platform:resource': resourceId };
  let arn: string | undefined;
  let status: string | undefined;
  try {
    if (record.type === 'database') {
      const created = await createTable(record.region, record.physicalName, keys as KeySchema, tags);
      arn = created.TableArn;
      status = created.TableStatus;
    } else arn = await provisionBucket(record, tags);
  } catch (err) {
    if (httpErrorOf(err)) throw err;
    log.warn('provisioning failed', { resourceId, type: record.type, backend: (err as Error).name });
    await updateResource(record, { status: 'error', error: causeOf(err) }).catch(() => undefined);
    throw new HttpError(502, PROVISIONING_FAILED);
  }
  if (record.type === 'bucket') return updateResource(record, { status: 'active', arn });
  // The table exists now; if it is not ACTIVE within a few seconds (or the description fails),
  // the record stays `creating` and the routes that read it finish the transition.
  if (status !== 'ACTIVE') {
    status = (await waitForTable(record.region, record.physicalName, 5000).catch(() => undefined))?.TableStatus;
  }
  return updateResource(record, { status: status === 'ACTIVE' ? 'active' : 'creating', arn });
}
