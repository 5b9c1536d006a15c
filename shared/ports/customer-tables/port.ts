/**
 * The customer-table engine's port: what the engine behind the databases group can do beyond the
 * data plane. AWS: DynamoDB, everything. One machine: DynamoDB Local, which has no point-in-time
 * recovery, no table classes and no tagging; the routes say so in their answers instead of failing.
 */
export type Capability = 'pointInTimeRecovery' | 'tableClass' | 'tags';

export interface TablesPort {
  supports(capability: Capability): Promise<boolean>;
}
