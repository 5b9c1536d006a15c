import { config } from '../config';

/**
 * What the table store of this platform can do beyond the data plane. DynamoDB Local (the one
 * machine's engine) has no point-in-time recovery, no table classes and no tagging; the routes
 * say so in their answers instead of failing. On AWS everything is supported. An engine that
 * still answers `UnknownOperationException` is treated as lacking the feature too.
 */
export type Capability = 'pointInTimeRecovery' | 'tableClass' | 'tags';

const local = config.target === 'local';

const LOCAL_LACKS: ReadonlySet<Capability> = new Set(['pointInTimeRecovery', 'tableClass', 'tags']);

export const supports = (c: Capability): boolean => !(local && LOCAL_LACKS.has(c));

export const NOTES: Record<Capability, string> = {
  pointInTimeRecovery: 'Point-in-time recovery is not available on the local table store; it works on AWS.',
  tableClass: 'The local table store has one table class (STANDARD); table classes work on AWS.',
  tags: 'The local table store has no tags: they are kept on the database record and applied on AWS.',
};

export const isUnknownOperation = (err: unknown) => (err as Error).name === 'UnknownOperationException';
