import { definePort } from '../adapter';
import type { TablesPort } from './port';

export type { Capability, TablesPort } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** What the customer-table engine supports beyond the data plane: DynamoDB, or DynamoDB Local. */
export const tables = definePort<TablesPort>({
  aws: () => import('./aws').then((m) => m.awsTables()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localTables()),
});
