import { removeResource, updateResource } from './records';
import type { ResourceRecord } from './schema';

/**
 * Deletes what backs a resource; throws the spec's 409s when it can't be deleted yet. Each product
 * above resources gives its own (shared/domains/databases/provision.ts, buckets/provision.ts).
 */
export type BackendDelete = (r: ResourceRecord) => Promise<void>;

/**
 * The one deletion of a resource (`DELETE .../resources/:type/:resourceId` and
 * `DELETE .../databases/:resourceId`): the record goes `deleting` (guarded by its version), the
 * backing table or bucket is deleted, then the record, its name and its project link are removed.
 * When the backend refuses, the record gets its previous status back and the refusal is answered.
 * The caller passes the backend, so a group bundles only the clients its resource types need.
 */
export async function deleteResource(r: ResourceRecord, backend: BackendDelete): Promise<void> {
  const marked = await updateResource(r, { status: 'deleting' });
  try {
    // The backend sees the record as it was: its status tells whether there is anything to delete.
    await backend(r);
  } catch (err) {
    await updateResource(marked, { status: r.status }).catch(() => undefined);
    throw err;
  }
  await removeResource(marked);
}
