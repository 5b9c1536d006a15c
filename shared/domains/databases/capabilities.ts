import { type Capability, tables } from '../../ports/customer-tables';

export type { Capability } from '../../ports/customer-tables';

/**
 * What the table store of this platform can do beyond the data plane (the tables port). An engine
 * that still answers `UnknownOperationException` is treated as lacking the feature too.
 */
export const supports = async (c: Capability): Promise<boolean> => tables().supports(c);

export const NOTES: Record<Capability, string> = {
  pointInTimeRecovery: 'Point-in-time recovery is not available on the local table store; it works on AWS.',
  tableClass: 'The local table store has one table class (STANDARD); table classes work on AWS.',
  tags: 'The local table store has no tags: they are kept on the database record and applied on AWS.',
};

export const isUnknownOperation = (err: unknown) => (err as Error).name === 'UnknownOperationException';
