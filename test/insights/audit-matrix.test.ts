import { actionOf, isAudited } from '../../shared/kernel/audit/actions';
import type { Route } from '../../shared/kernel/http/route';
import { TestPlatform } from '../helpers/platform';
import { allRoutes } from '../helpers/routes';
import { platformOrg, storedAudit } from './helpers';

/**
 * The audit log, generated from the route table: every write route of every group, called once by
 * an owner with a body that carries a recognisable secret, leaves exactly one entry (none when the
 * caller is not authenticated there: device routes), with the route's action, the caller, the
 * path's ids and the status answered; and no stored entry holds the secret.
 */
const SECRET = 'sEcReT-4f1d2b9c-never-stored';
let p: TestPlatform;
let platformId: string;

beforeAll(async () => {
  p = await TestPlatform.start();
  platformId = (await platformOrg()).orgId;
});
afterAll(() => p.close());

const { groups } = allRoutes();
const writes = groups.flatMap((g) =>
  g.routes.filter((r) => r.method !== 'GET').map((route) => ({ group: g.group, route, siblings: g.routes })),
);
// The organization's own delete goes last: after it, its routes answer 404.
const isOrgDelete = (r: Route) => r.method === 'DELETE' && r.path === '/v1/orgs/:orgId';
writes.sort((a, b) => Number(isOrgDelete(a.route)) - Number(isOrgDelete(b.route)));

const sameActor = (a: unknown) => {
  const actor = a as { kind: string; id: string; email: string | null };
  return actor.kind === 'user' && actor.id === p.owner.userId && actor.email === p.owner.email.toLowerCase();
};

const fill = (route: Route, orgId: string) =>
  route.segments.map((s) => (s === ':orgId' ? orgId : s.startsWith(':') ? `x${s.slice(1)}1` : s)).join('/');

test('the matrix covers the write routes (audited and read-only POSTs)', () => {
  expect(writes.length).toBeGreaterThan(100);
  const readOnly = writes.filter((w) => !isAudited(w.route)).map((w) => w.route.path);
  expect(readOnly).toEqual(expect.arrayContaining(['/v1/orgs/:orgId/mail/mailboxes/:mailboxId/recipients/check']));
});

test('every write leaves one entry: its action, actor, target and status, and never a value it carried', async () => {
  const seen: { route: Route; action: string; status: number; partition: string }[] = [];
  for (const { route, siblings } of writes) {
    const path = `/${fill(route, p.org.orgId)}`;
    const res = await p.call(route.method, path, {
      body: route.method === 'DELETE' ? undefined : { password: SECRET, token: SECRET, value: SECRET },
      headers: { 'user-agent': 'audit-matrix' },
      record: false,
    });
    const partition = route.path.startsWith('/v1/platform')
      ? platformId
      : route.orgScoped
        ? p.org.orgId
        : `~${p.owner.userId}`;
    seen.push({ route, action: actionOf(route, siblings), status: res.status, partition });
  }
  const byPartition = new Map<string, Record<string, unknown>[]>();
  for (const partition of new Set(seen.map((s) => s.partition))) {
    byPartition.set(partition, await storedAudit(partition));
  }
  const problems: string[] = [];
  for (const s of seen) {
    const name = `${s.route.method} ${s.route.path}`;
    const entries = (byPartition.get(s.partition) ?? []).filter(
      (e) => e.route === name && (e.actor as { id: string }).id === p.owner.userId,
    );
    // Written for authenticated callers only: none for a public route, nor for a refused token.
    const expected = isAudited(s.route) && s.route.access !== 'public' && s.status !== 401 ? 1 : 0;
    if (entries.length !== expected) {
      problems.push(`${name} (${s.status}): ${entries.length} entries, expected ${expected}`);
      continue;
    }
    const e = entries[0];
    if (!e) continue;
    // The path's ids; the organization's own only where it is not the entry's (a platform route's subject).
    const platform = s.partition === platformId;
    const targetNames = s.route.segments
      .filter((x) => x.startsWith(':') && (platform || x !== ':orgId'))
      .map((x) => x.slice(1));
    const wrong = [
      e.action !== s.action && `action ${e.action}`,
      e.status !== s.status && `status ${e.status}`,
      !sameActor(e.actor) && `actor ${JSON.stringify(e.actor)}`,
      JSON.stringify(Object.keys(e.target as object).sort()) !== JSON.stringify(targetNames.sort()) && 'target',
      Object.entries(e.target as object).some(([k, v]) => v !== (k === 'orgId' ? p.org.orgId : `x${k}1`)) &&
        'target values',
      e.userAgent !== 'audit-matrix' && 'userAgent',
      typeof e.ip !== 'string' && 'ip',
      typeof e.ttl !== 'number' && 'ttl',
    ].filter(Boolean);
    if (wrong.length) problems.push(`${name}: ${wrong.join(', ')}`);
  }
  expect(problems).toEqual([]);
  // Names of the fields, never their values: the secret is nowhere in what was stored.
  const stored = JSON.stringify([...byPartition.values()]);
  expect(stored).not.toContain(SECRET);
  expect(stored).toContain('"fields"');
}, 120_000);
