/**
 * The platform table's key schema, read by the CDK stack and by the local platform's setup, so
 * both create the same table.
 */
export const platformTable = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  /** Records with `expiresAt` in seconds are removed by the table's TTL. */
  ttlAttribute: 'ttl',
} as const;
