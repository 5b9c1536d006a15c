import * as z from 'zod';
import { isAudited } from '../../shared/kernel/audit/actions';
import { createdTarget, rememberActions } from '../../shared/kernel/audit/record';
import { responseDoc } from '../../shared/kernel/http/responses';
import { route as makeRoute, ok } from '../../shared/kernel/http/route';
import { allRoutes } from '../helpers/routes';

/**
 * A create's audit entry names the record it made (shared/kernel/audit/record.ts, `createdTarget`):
 * for every audited POST of the route table documented with a 201, the answer its documentation
 * describes yields an id.
 */
type Schema = { type?: string | string[]; properties?: Record<string, Schema>; anyOf?: Schema[]; oneOf?: Schema[] };

/** An answer of the documented shape: a record's fields one level deep, strings as `v-<name>`. */
function example(schema: Schema, name = '', depth = 0): unknown {
  const one = (schema.anyOf ?? schema.oneOf)?.find((s) => s.type !== 'null');
  if (one) return example(one, name, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' && depth < 2) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, example(s, k, depth + 1)]));
  }
  if (type === 'integer' || type === 'number') return 7;
  if (type === 'string') return `v-${name}`;
  return null;
}

/**
 * 201s that name no record of their own: an attachment answers the spec's `{ ok: true }` (the path
 * and the body name what it attaches); a web commit's uploads are presigned URLs, not a record; a
 * calendar's feed is one per calendar (the path names it, and its answer is its secret address).
 */
const NO_ID = [
  '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/feed',
  '/v1/orgs/:orgId/notify/protocols/:protocolId/attachments',
  '/v1/orgs/:orgId/repos/:name/contents/uploads',
];

test('every documented create yields the id of what it made', () => {
  const creates: string[] = [];
  const missing: string[] = [];
  for (const g of allRoutes().groups) {
    rememberActions(g.routes);
    for (const route of g.routes) {
      const entry = g.responses[`${route.method} ${route.path}`]?.[201];
      const doc = entry === undefined ? undefined : responseDoc(entry).content?.['application/json'];
      if (route.method !== 'POST' || !doc || !isAudited(route) || NO_ID.includes(route.path)) continue;
      // An empty metadata registry: the named records inline, not as `$ref`s this sketch does not follow.
      const json = z.toJSONSchema(doc, { unrepresentable: 'any', metadata: z.registry() });
      const answer = JSON.stringify(example(json as Schema));
      const target = createdTarget(route, {}, 201, answer);
      creates.push(route.path);
      if (Object.keys(target).length !== 1) missing.push(`${route.path} ${answer}`);
    }
  }
  expect(creates.length).toBeGreaterThan(40);
  expect(missing).toEqual([]);
});

test('the name of the id: the item parameter, `<record>Id`, `id` as `<record>Id`; never a secret', () => {
  const run = async () => ok({});
  const route = makeRoute({ method: 'POST', path: '/v1/orgs/:orgId/webhooks', access: 'token', run });
  rememberActions([
    route,
    makeRoute({ method: 'GET', path: '/v1/orgs/:orgId/webhooks/:endpointId', access: 'token', run }),
  ]);
  const answer = (body: unknown) => createdTarget(route, { orgId: 'o' }, 201, JSON.stringify(body));
  expect(answer({ endpoint: { endpointId: 'wh_1', orgId: 'o' }, secret: 's' })).toEqual({ endpointId: 'wh_1' });
  expect(answer({ rule: { id: 'r1' } })).toEqual({ ruleId: 'r1' });
  expect(answer({ jobId: 'j1', expiresAt: 3 })).toEqual({ jobId: 'j1' });
  expect(answer({ uploadId: 'u1', url: 'https://signed', headers: { 'content-type': 'x' } })).toEqual({
    uploadId: 'u1',
  });
  expect(answer({ branch: { name: 'main', commitId: 'c1' } })).toEqual({ branchName: 'main' });
  expect(answer({ key: 'docs/' })).toEqual({ key: 'docs/' });
  expect(answer({ ok: true, secret: 's' })).toEqual({});
  expect(createdTarget(route, {}, 200, JSON.stringify({ endpoint: { endpointId: 'wh_1' } }))).toEqual({});
  // The path names another record of the same kind: a redeploy's new deployment.
  const redeploy = { method: 'POST' as const, path: '/v1/orgs/:orgId/deployments/:deploymentId/redeploy' };
  expect(
    createdTarget(
      redeploy,
      { deploymentId: 'dpl_old' },
      201,
      JSON.stringify({ deployment: { deploymentId: 'dpl_new' } }),
    ),
  ).toEqual({ createdDeploymentId: 'dpl_new' });
});
