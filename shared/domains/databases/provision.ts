import type { BackendDelete } from '../resources/delete';
import { deleteTable } from './tables';

/**
 * A database's backend: its table. A database in `error` never got one (its CreateTable failed);
 * a table already gone (deleted outside the platform) is no reason to keep the record either.
 * Handed to the resource's deletion (shared/domains/resources/delete.ts) by the route.
 */
export const deleteDatabaseTable: BackendDelete = async (r) => {
  if (r.status === 'error') return;
  await deleteTable(r.region, r.physicalName);
};
