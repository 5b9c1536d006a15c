import type { Capability, TablesPort } from './port';

const LACKS: ReadonlySet<Capability> = new Set(['pointInTimeRecovery', 'tableClass', 'tags']);

/** DynamoDB Local: the data plane and indexes, none of the capabilities in LACKS. */
export const localTables = (): TablesPort => ({ supports: async (c) => !LACKS.has(c) });
