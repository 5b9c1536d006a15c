/**
 * A valid body for the routes whose schema alone rarely yields one (records keyed by the table's
 * attributes, ids of this file's records): the route fuzz sends these with one part changed, so
 * that most requests get past validation and reach the route's own code. `ids` are the fuzz's
 * records. A seed that no longer fits its route still fuzzes it, only less deeply.
 */
export interface SeedIds {
  otherOrgId: string;
  uploadId: string;
}

export const seeds = (ids: SeedIds): Record<string, unknown[]> => ({
  'PATCH /v1/orgs/:orgId': [{ name: 'Fuzzed organization' }],
  'POST /v1/orgs/:orgId/resources': [
    { type: 'database', name: 'fuzz-db', partitionKey: { name: 'id', type: 'S' } },
    { type: 'bucket', name: 'fuzz-bucket' },
  ],
  'PATCH /v1/orgs/:orgId/resources/:type/:resourceId': [{ projectId: null }],
  'POST /v1/orgs/:orgId/databases/:resourceId/scan': [
    { limit: 5, filters: [{ attribute: 'n', op: '>', value: { N: '1' } }], projection: ['pk', 'n'] },
  ],
  'POST /v1/orgs/:orgId/databases/:resourceId/query': [
    { partition: 'p1', sort: { op: 'begins_with', value: 's' }, limit: 5, forward: false },
  ],
  'POST /v1/orgs/:orgId/databases/:resourceId/items/get': [{ key: { pk: 'p1', sk: 's1' } }],
  'PUT /v1/orgs/:orgId/databases/:resourceId/items': [
    { item: { pk: { S: 'p1' }, sk: { S: 's1' }, n: { N: '2' }, doc: { M: { tags: { SS: ['a'] } } } } },
    {
      item: { pk: { S: 'p1' }, sk: { S: 's2' }, n: { N: '3' } },
      original: { pk: { S: 'p1' }, sk: { S: 's1' }, n: { N: '2' } },
    },
  ],
  'POST /v1/orgs/:orgId/databases/:resourceId/items/delete': [{ key: { pk: 'p1', sk: 's2' } }],
  'POST /v1/orgs/:orgId/databases/:resourceId/indexes': [
    { name: 'byN', partitionKey: { name: 'n', type: 'N' }, projection: { type: 'KEYS_ONLY' } },
  ],
  'PATCH /v1/orgs/:orgId/databases/:resourceId/settings': [
    { deletionProtection: false, ttl: { enabled: true, attribute: 'expires' } },
  ],
  'PATCH /v1/orgs/:orgId/databases/:resourceId/tags': [{ tags: { team: 'web', old: null } }],
  'POST /v1/orgs/:orgId/storage/:resourceId/uploads': [
    { files: [{ key: 'docs/a.txt', contentType: 'text/plain; charset=utf-8', size: 3 }] },
  ],
  'POST /v1/orgs/:orgId/storage/:resourceId/folders': [{ prefix: 'docs/', name: 'reports' }],
  'POST /v1/orgs/:orgId/storage/:resourceId/objects/delete': [{ keys: ['docs/a.txt'], prefixes: ['tmp/'] }],
  'PUT /v1/orgs/:orgId/storage/:resourceId/cors': [
    { rules: [{ AllowedOrigins: ['https://example.com'], AllowedMethods: ['GET', 'PUT'], MaxAgeSeconds: 60 }] },
  ],
  'PUT /v1/orgs/:orgId/storage/:resourceId/versioning': [{ enabled: true }],
  'POST /v1/orgs/:orgId/storage/:resourceId/lifecycle': [{ prefix: 'tmp/', days: 7 }],
  'POST /v1/orgs/:orgId/projects': [{ name: 'Fuzzed', slug: 'fuzzed', framework: 'static' }],
  'PATCH /v1/orgs/:orgId/projects/:projectId': [
    { name: 'Renamed', buildCommand: 'npm run build', outputDirectory: null, productionBranch: 'main' },
  ],
  'POST /v1/orgs/:orgId/projects/:projectId/transfer': [{ orgId: ids.otherOrgId }],
  'POST /v1/orgs/:orgId/projects/:projectId/env': [
    { vars: [{ key: 'API_URL', value: 'https://api' }], targets: ['production', 'preview'], sensitive: false },
  ],
  'PUT /v1/orgs/:orgId/projects/:projectId/env/:key': [{ value: 's3cr3t', targets: ['production'] }],
  'POST /v1/orgs/:orgId/projects/:projectId/uploads': [{ size: 1024 }],
  'POST /v1/orgs/:orgId/projects/:projectId/deployments': [
    { source: 'upload', uploadId: ids.uploadId, target: 'preview', meta: { branch: 'main', dirty: true } },
  ],
});
