import { readFileSync } from 'node:fs';
import { type Input, urlOf } from '../../client';
import { operations } from '../../client/operations';
import { loadRouteTable, openApiDocument, operationsOf } from '../../lib/openapi';
import { CLIENT_FILE, clientSource, formatTs } from '../../scripts/openapi';

/** The typed client's generated table and its pure helpers; no engine (the unit lane). */
describe('the generated operations', () => {
  it('client/operations.ts is what the route table generates (else: npx tsx scripts/openapi.ts)', async () => {
    const doc = openApiDocument(await loadRouteTable());
    const committed = readFileSync(CLIENT_FILE, 'utf8');
    const generated = formatTs(clientSource(doc));
    if (committed !== generated) {
      throw new Error('client/operations.ts is stale: run `npx tsx scripts/openapi.ts` and commit the result.');
    }
    expect(Object.keys(operations)).toEqual(operationsOf(doc).map((o) => o.operation.operationId));
  });

  it('types each input from the schemas (checked by tsc)', () => {
    const create: Input<'postProjects'> = { orgId: 'org_1', body: { name: 'A', slug: 'a-1', framework: 'static' } };
    // @ts-expect-error framework is one of the enum
    const wrong: Input<'postProjects'> = { orgId: 'org_1', body: { name: 'A', slug: 'a-1', framework: 'rails' } };
    // @ts-expect-error the path parameter is required
    const missing: Input<'getProjectsEnv'> = { orgId: 'org_1' };
    const query: Input<'getDeployments'> = { orgId: 'org_1', target: 'preview', limit: 10 };
    expect([create, wrong, missing, query]).toHaveLength(4);
  });

  it('fills path parameters (encoded) and puts the rest in the query', () => {
    expect(urlOf('/v1/orgs/{orgId}/projects/{projectId}/env/{key}', { orgId: 'o', projectId: 'p', key: 'A B/C' })).toBe(
      '/v1/orgs/o/projects/p/env/A%20B%2FC',
    );
    expect(urlOf('/v1/orgs/{orgId}/deployments', { orgId: 'o', limit: 5, target: undefined, body: { x: 1 } })).toBe(
      '/v1/orgs/o/deployments?limit=5',
    );
    expect(() => urlOf('/v1/orgs/{orgId}', {})).toThrow('Missing orgId');
    // A query field named like a path parameter comes under `query`.
    expect(
      urlOf('/v1/orgs/{orgId}/repos/{name}/branches', { orgId: 'o', name: 'web', query: { name: 'feature/x' } }),
    ).toBe('/v1/orgs/o/repos/web/branches?name=feature%2Fx');
  });
});
