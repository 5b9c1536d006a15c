import type { TablesPort } from './port';

/** DynamoDB: every capability the databases group offers. */
export const awsTables = (): TablesPort => ({ supports: async () => true });
