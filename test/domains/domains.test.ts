import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { recheck } from '../../shared/domains/custom-domains/checks';
import { CHECK_FOR_MS, getDomainRecord } from '../../shared/domains/custom-domains/records';
import { getHost } from '../../shared/domains/host-registry/registry';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { setLocalRecord } from '../../shared/ports/dns/local';
import { edgeFetch } from '../deployments/helpers';
import type { Person } from '../helpers/platform';
import { createProject } from '../projects/fixtures';
import { type DomainsWorld, startWorld, staticProduction, unique, until } from './helpers';

/**
 * Custom domains on the local DNS server (issue: Domains): added `pending` with the records to
 * create; verify names what is missing; the local provider writes them; verify then makes the
 * domain `active` and the edge serves the project under it; redirects are 308s; a delete ends
 * it at the edge and frees the host. The re-check with an injected clock ends in `error` after
 * 72 hours, raising domain.failed.
 */
let w: DomainsWorld;
const domains = (orgId = w.p.org.orgId) => `/v1/orgs/${orgId}/domains`;
const integration = () => `/v1/orgs/${w.p.org.orgId}/integrations/dns-provider`;

beforeAll(async () => {
  w = await startWorld();
});
afterAll(() => w.close());

const noticeOf = (person: Person, event: string, hostname: string) =>
  until(async () => {
    const res = await w.p.get('/v1/me/notifications', { token: person.token });
    return res.body.notices?.find(
      (x: { event: string; title: string }) => x.event === event && x.title.includes(hostname),
    );
  });

describe('a custom domain from add to the edge', () => {
  // The issue's names: the host registry is global, so no other test file may use them.
  const zone = 'example.test';
  const shop = `shop.${zone}`;
  const www = `www.${zone}`;
  let projectId: string;

  beforeAll(async () => {
    projectId = (await createProject(w.p)).projectId;
    await staticProduction(w.p.org.orgId, projectId, 'the shop itself');
  });

  it('adds the domain pending, with the records to create and its zone', async () => {
    const res = await w.p.post(domains(), { hostname: `Shop.${zone.toUpperCase()}.`, projectId });
    expect(res.status).toBe(201);
    expect(res.body.domain).toMatchObject({ hostname: shop, projectId, status: 'pending', zone, version: 1 });
    expect(res.body.domain.dnsProvider).toBeUndefined();
    const lines = res.body.domain.records.split('\n');
    expect(lines[0]).toBe(`${shop}. 300 IN CNAME cname.localhost.`);
    expect(lines[1]).toMatch(
      new RegExp(`^_platform-verify\\.${shop.replace(/\./g, '\\.')}\\. 300 IN TXT "platform-verify=[0-9a-f]{32}"$`),
    );
    expect(res.body.domain).not.toHaveProperty('token');
    expect(res.body.domain).not.toHaveProperty('gsi1pk');
    // A pending claim holds no host: it is taken when ownership is proven.
    expect(await getHost(shop, true)).toBeUndefined();
  });

  it('the project detail answers its domains as the domains routes do: no token, check schedule or author', async () => {
    const [detail, list] = await Promise.all([
      w.p.get(`/v1/orgs/${w.p.org.orgId}/projects/${projectId}`),
      w.p.get(`${domains()}?projectId=${projectId}`),
    ]);
    expect(detail.status).toBe(200);
    expect(detail.body.domains).toEqual(list.body.domains);
    expect(Object.keys(detail.body.domains[0]).sort()).toEqual(
      [
        'hostname',
        'orgId',
        'projectId',
        'status',
        'message',
        'createdAt',
        'updatedAt',
        'records',
        'zone',
        'version',
      ].sort(),
    );
  });

  it('verify before the records: still pending, the message names what is missing', async () => {
    const res = await w.p.post(`${domains()}/${shop}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.domain.status).toBe('pending');
    expect(res.body.domain.message).toContain(`the TXT record _platform-verify.${shop}`);
    expect(res.body.domain.message).toContain(`the CNAME record ${shop} pointing to cname.localhost`);
    expect(res.body.domain.checkedAt).toEqual(expect.any(Number));
    // Not served while pending.
    expect((await edgeFetch(w.edge, `${shop}:${w.edge.port}`)).status).toBe(404);
  });

  it('409 Connect a DNS provider first. before one is connected', async () => {
    const res = await w.p.post(`${domains()}/${shop}/dns-provider`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Connect a DNS provider first.' });
  });

  it('writes the records through the local provider; verify then makes it active and raises domain.verified', async () => {
    const put = await w.p.put(integration(), { kind: 'local', credentials: {} });
    expect(put.status).toBe(200);
    expect(put.body.provider).toMatchObject({ kind: 'local', connected: true, connectedBy: w.p.owner.userId });
    const written = await w.p.post(`${domains()}/${shop}/dns-provider`);
    expect(written.status).toBe(200);
    expect(written.body.domain).toMatchObject({ dnsProvider: 'local', status: 'pending' });
    const res = await w.p.post(`${domains()}/${shop}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.domain.status).toBe('active');
    expect(res.body.domain.message).toBeUndefined();
    expect(await getHost(shop, true)).toMatchObject({ kind: 'domain', orgId: w.p.org.orgId, projectId });
    const notice = await noticeOf(w.p.owner, 'domain.verified', shop);
    expect(notice.title).toBe(`${shop} is verified`);
  });

  it('the edge serves the project for Host: <domain>', async () => {
    const res = await edgeFetch(w.edge, `${shop}:${w.edge.port}`, '/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('the shop itself');
  });

  it('a domain added once the provider holds its zone says so; redirectTo answers 308 at the edge', async () => {
    const res = await w.p.post(domains(), { hostname: www, projectId, redirectTo: shop });
    expect(res.status).toBe(201);
    expect(res.body.domain).toMatchObject({ dnsProvider: 'local', redirectTo: shop });
    await w.p.post(`${domains()}/${www}/dns-provider`);
    expect((await w.p.post(`${domains()}/${www}/verify`)).body.domain.status).toBe('active');
    const edge = await edgeFetch(w.edge, `${www}:${w.edge.port}`, '/cart?id=1');
    expect(edge.status).toBe(308);
    expect(edge.headers.location).toBe(`http://${shop}:${w.edge.port}/cart?id=1`);
  });

  it('an apex domain gets an ALIAS record, written and verified through flattening', async () => {
    const res = await w.p.post(domains(), { hostname: zone, projectId });
    expect(res.status).toBe(201);
    expect(res.body.domain.records.split('\n')[0]).toBe(`${zone}. 300 IN ALIAS cname.localhost.`);
    await w.p.post(`${domains()}/${zone}/dns-provider`);
    expect((await w.p.post(`${domains()}/${zone}/verify`)).body.domain.status).toBe('active');
    expect((await edgeFetch(w.edge, `${zone}:${w.edge.port}`)).text).toContain('the shop itself');
  });

  it('no chains and no loops of redirects (409)', async () => {
    const third = `old.${zone}`;
    const chain = await w.p.post(domains(), { hostname: third, projectId, redirectTo: www });
    expect(chain.status).toBe(409);
    expect(chain.body).toEqual({ error: 'redirectTo must name a domain that does not redirect itself.' });
    const unknown = await w.p.post(domains(), { hostname: third, projectId, redirectTo: `nowhere.${zone}` });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toEqual({ error: 'redirectTo must be another domain of the same project.' });
    const unknownPatch = await w.p.patch(`${domains()}/${shop}`, { redirectTo: `nowhere.${zone}` });
    expect(unknownPatch.status).toBe(409);
    expect(unknownPatch.body).toEqual({ error: 'redirectTo must be another domain of the same project.' });
    // shop is redirected to: it can't redirect itself (a loop through www).
    const loop = await w.p.patch(`${domains()}/${shop}`, { redirectTo: www });
    expect(loop.status).toBe(409);
    expect(loop.body).toEqual({ error: 'redirectTo must name a domain that does not redirect itself.' });
  });

  it('lists the domains, of one project, paged with a signed cursor', async () => {
    const all = await w.p.get(`${domains()}?projectId=${projectId}`);
    expect(all.status).toBe(200);
    expect(all.body.domains.map((d: { hostname: string }) => d.hostname)).toEqual([shop, www, zone].sort());
    const first = await w.p.get(`${domains()}?projectId=${projectId}&limit=2`);
    expect(first.body.domains).toHaveLength(2);
    expect(first.body.cursor).toEqual(expect.any(String));
    const second = await w.p.get(
      `${domains()}?projectId=${projectId}&limit=2&cursor=${encodeURIComponent(first.body.cursor)}`,
    );
    expect(second.body.domains.map((d: { hostname: string }) => d.hostname)).toEqual([[shop, www, zone].sort()[2]]);
    const bad = await w.p.get(`${domains()}?cursor=${encodeURIComponent(`${first.body.cursor}x`)}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
  });

  it('PATCH: ifVersion, a move to another project, what is redirected to stays', async () => {
    const other = await createProject(w.p);
    const current = (await w.p.get(`${domains()}?projectId=${projectId}`)).body.domains.find(
      (d: { hostname: string }) => d.hostname === zone,
    );
    const stale = await w.p.patch(`${domains()}/${zone}`, {
      projectId: other.projectId,
      ifVersion: current.version - 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The domain changed since it was read. Reload and try again.' });
    const redirected = await w.p.patch(`${domains()}/${shop}`, { projectId: other.projectId });
    expect(redirected.status).toBe(409);
    expect(redirected.body).toEqual({ error: 'Other domains redirect to this one: change them first.' });
    const moved = await w.p.patch(`${domains()}/${zone}`, { projectId: other.projectId, ifVersion: current.version });
    expect(moved.status).toBe(200);
    expect(moved.body.domain).toMatchObject({ projectId: other.projectId, version: current.version + 1 });
    expect((await getHost(zone, true))?.projectId).toBe(other.projectId);
    // The other project has no production deployment: nothing is served there now.
    expect((await edgeFetch(w.edge, `${zone}:${w.edge.port}`)).status).toBe(404);
    const unknown = await w.p.patch(`${domains()}/${zone}`, { projectId: 'prj_00000000000000000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Project not found' });
  });

  it('DELETE: refused while redirected to; then removes routing, the records written and the host', async () => {
    const refused = await w.p.delete(`${domains()}/${shop}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'Other domains redirect to this one: change them first.' });
    const cleared = await w.p.patch(`${domains()}/${www}`, { redirectTo: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.domain.redirectTo).toBeUndefined();
    expect((await edgeFetch(w.edge, `${www}:${w.edge.port}`)).status).toBe(200);
    expect((await w.p.delete(`${domains()}/${shop}`)).status).toBe(204);
    expect((await edgeFetch(w.edge, `${shop}:${w.edge.port}`)).status).toBe(404);
    expect(await getHost(shop, true)).toBeUndefined();
    const { localRecords } = await import('../../shared/ports/dns/local');
    expect(await localRecords(`_platform-verify.${shop}`)).toEqual([]);
    expect((await w.p.delete(`${domains()}/${shop}`)).status).toBe(404);
    // The host is free for anyone now.
    const other = await w.p.newOrg();
    const theirs = await createProject(w.p, {}, other.org.orgId, other.owner.token);
    const again = await w.p.post(
      domains(other.org.orgId),
      { hostname: shop, projectId: theirs.projectId },
      { token: other.owner.token },
    );
    expect(again.status).toBe(201);
  });

  it('a project delete removes its domains and their hosts', async () => {
    const res = await w.p.delete(`/v1/orgs/${w.p.org.orgId}/projects/${projectId}`);
    expect(res.status).toBe(204);
    expect(await getDomainRecord(w.p.org.orgId, www, true)).toBeUndefined();
    expect(await getHost(www, true)).toBeUndefined();
  });
});

describe('the re-checks', () => {
  it('end in error after 72 hours (injected clock) and raise domain.failed for the person who added it', async () => {
    const hostname = `late.${unique('z')}.test`;
    const { projectId } = await createProject(w.p);
    expect((await w.p.post(domains(), { hostname, projectId })).status).toBe(201);
    let d = await getDomainRecord(w.p.org.orgId, hostname, true);
    // A check due now, within the 72 hours: still pending, the next one queued.
    const early = await recheck(
      { orgId: w.p.org.orgId, hostname, due: d?.nextCheckAt as number },
      (d?.createdAt as number) + 3_600_000,
    );
    expect(early?.status).toBe('pending');
    // A stale message (another due time) does nothing.
    expect(await recheck({ orgId: w.p.org.orgId, hostname, due: 1 })).toBeUndefined();
    d = await getDomainRecord(w.p.org.orgId, hostname, true);
    const late = await recheck(
      { orgId: w.p.org.orgId, hostname, due: d?.nextCheckAt as number },
      (d?.createdAt as number) + CHECK_FOR_MS + 1,
    );
    expect(late?.status).toBe('error');
    expect(late?.message).toContain('the TXT record');
    const notice = await noticeOf(w.p.owner, 'domain.failed', hostname);
    expect(notice.title).toBe(`${hostname} could not be verified`);
    // Once the records exist, a verify brings it back.
    await setLocalRecord(hostname, { name: hostname, type: 'CNAME', value: 'cname.localhost' });
    const token = (await getDomainRecord(w.p.org.orgId, hostname, true))?.token as string;
    await setLocalRecord(hostname, {
      name: `_platform-verify.${hostname}`,
      type: 'TXT',
      value: `platform-verify=${token}`,
    });
    expect((await w.p.post(`${domains()}/${hostname}/verify`)).body.domain.status).toBe('active');
  });
});

describe('the certificate', () => {
  afterEach(() => {
    delete process.env.LOCAL_CERTIFICATE_SECONDS;
  });

  it('keeps a domain verifying while its certificate is issued, then active; the re-check moves it', async () => {
    // A stand-in CDN whose certificates take 10 minutes (on AWS: CloudFront's tenant certificate).
    process.env.LOCAL_CERTIFICATE_SECONDS = '600';
    const hostname = `tls.${unique('z')}.test`;
    const { projectId } = await createProject(w.p);
    expect((await w.p.post(domains(), { hostname, projectId })).status).toBe(201);
    const token = (await getDomainRecord(w.p.org.orgId, hostname, true))?.token as string;
    await setLocalRecord(hostname, { name: hostname, type: 'CNAME', value: 'cname.localhost' });
    await setLocalRecord(hostname, {
      name: `_platform-verify.${hostname}`,
      type: 'TXT',
      value: `platform-verify=${token}`,
    });
    const verifying = await w.p.post(`${domains()}/${hostname}/verify`);
    expect(verifying.body.domain).toMatchObject({
      status: 'verifying',
      message: 'DNS is set. The certificate is being issued.',
    });
    const d = await getDomainRecord(w.p.org.orgId, hostname, true);
    expect(d?.tenantId).toMatch(/^local-/);
    // Not served at its name until then.
    expect((await w.p.post(`${domains()}/${hostname}/verify`)).body.domain.status).toBe('verifying');
    // The worker's next check, 11 minutes on: issued, active, domain.verified.
    const later = await recheck(
      { orgId: w.p.org.orgId, hostname, due: d?.nextCheckAt as number },
      (d?.checkedAt as number) + 660_000,
    );
    expect(later).toMatchObject({ status: 'active', certificateArn: expect.stringMatching(/^arn:local:certificate/) });
    const notice = await noticeOf(w.p.owner, 'domain.verified', hostname);
    expect(notice.title).toBe(`${hostname} is verified`);
  });

  it('ends in error when the certificate is still not issued after 72 hours', async () => {
    process.env.LOCAL_CERTIFICATE_SECONDS = String(100 * 3600);
    const hostname = `slowtls.${unique('z')}.test`;
    const { projectId } = await createProject(w.p);
    expect((await w.p.post(domains(), { hostname, projectId })).status).toBe(201);
    const token = (await getDomainRecord(w.p.org.orgId, hostname, true))?.token as string;
    await setLocalRecord(hostname, { name: hostname, type: 'CNAME', value: 'cname.localhost' });
    await setLocalRecord(hostname, {
      name: `_platform-verify.${hostname}`,
      type: 'TXT',
      value: `platform-verify=${token}`,
    });
    expect((await w.p.post(`${domains()}/${hostname}/verify`)).body.domain.status).toBe('verifying');
    const d = await getDomainRecord(w.p.org.orgId, hostname, true);
    const late = await recheck(
      { orgId: w.p.org.orgId, hostname, due: d?.nextCheckAt as number },
      (d?.createdAt as number) + CHECK_FOR_MS + 1,
    );
    expect(late).toMatchObject({
      status: 'error',
      message: 'The certificate was not issued within 72 hours.',
    });
  });
});

describe('hostnames', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await createProject(w.p)).projectId;
  });

  it.each([
    ['an IPv4 literal', '192.0.2.1', 'An IP address is not a hostname.'],
    ['an IPv6 literal', '[2001:db8::1]', 'An IP address is not a hostname.'],
    ['254 characters', `${'a.'.repeat(126)}ab`, 'A hostname has at most 253 characters.'],
    ['a label of 64', `${'a'.repeat(64)}.example.test`, 'Each label of a hostname has at most 63 characters.'],
    ['one label', 'localdomain', 'A hostname has two labels at least, like example.com.'],
    ['a wildcard', '*.example.test', 'Wildcard hostnames are not supported. Add each hostname.'],
    ['an underscore', 'my_site.example.test', 'Letters, digits and hyphens only, like shop.example.com.'],
    ['the apps domain', 'shop.localhost', 'Hostnames under localhost belong to the platform.'],
  ])('400 for %s', async (_what, hostname, error) => {
    const res = await w.p.post(domains(), { hostname, projectId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it('253 characters and unicode (punycoded) are accepted', async () => {
    const long = `${unique('l').padEnd(63, 'a')}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(56)}.test`;
    expect(long).toHaveLength(253);
    expect((await w.p.post(domains(), { hostname: long, projectId })).status).toBe(201);
    const res = await w.p.post(domains(), { hostname: `bücher.${unique('u')}.test`, projectId });
    expect(res.status).toBe(201);
    expect(res.body.domain.hostname).toMatch(/^xn--bcher-kva\./);
  });

  it('404 for an unknown project and an unknown domain', async () => {
    const res = await w.p.post(domains(), {
      hostname: `x.${unique('z')}.test`,
      projectId: 'prj_00000000000000000000000000',
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
    for (const [method, path] of [
      ['POST', 'verify'],
      ['POST', 'dns-provider'],
    ] as const) {
      const r = await w.p.call(method, `${domains()}/nothing.example.test/${path}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Domain not found' });
    }
    expect((await w.p.patch(`${domains()}/nothing.example.test`, { redirectTo: null })).status).toBe(404);
  });

  it('409 while the project is being deleted or transferred', async () => {
    for (const [status, error] of [
      ['deleting', 'This project is being deleted. Delete it again to finish.'],
      ['transferring', 'This project is being transferred. Run the transfer again to finish it.'],
    ]) {
      const prj = await createProject(w.p);
      await db.send(
        new UpdateCommand({
          TableName: TABLE(),
          Key: { pk: `ORG#${w.p.org.orgId}`, sk: `PRJ#${prj.projectId}` },
          UpdateExpression: 'SET #s = :s',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':s': status },
        }),
      );
      const res = await w.p.post(domains(), { hostname: `x.${unique('z')}.test`, projectId: prj.projectId });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error });
      if (status === 'deleting') {
        const mine = `mv.${unique('z')}.test`;
        await w.p.post(domains(), { hostname: mine, projectId });
        const moved = await w.p.patch(`${domains()}/${mine}`, { projectId: prj.projectId });
        expect(moved.status).toBe(409);
        expect(moved.body).toEqual({ error });
      }
    }
  });

  it('50 domains per project (409), counted per project', async () => {
    const prj = await createProject(w.p);
    const zone = `${unique('many')}.test`;
    for (let i = 0; i < 50; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          w.p.post(domains(), { hostname: `h${i + j}.${zone}`, projectId: prj.projectId }),
        ),
      );
      expect(batch.map((r) => r.status)).toEqual(Array(10).fill(201));
    }
    const over = await w.p.post(domains(), { hostname: `h50.${zone}`, projectId: prj.projectId });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ error: 'A project has at most 50 domains.' });
    const other = await createProject(w.p);
    const move = await w.p.post(domains(), { hostname: `h50.${zone}`, projectId: other.projectId });
    expect(move.status).toBe(201);
    const full = await w.p.patch(`${domains()}/h50.${zone}`, { projectId: prj.projectId });
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ error: 'A project has at most 50 domains.' });
  });

  it.each([
    ['an ICANN public suffix', 'co.uk'],
    ['a private public suffix', 'github.io'],
    ['a public suffix in unicode (punycoded)', '公司.cn', 'xn--55qx5d.cn'],
  ])('400 for %s', async (_what, input, hostname = input) => {
    const res = await w.p.post(domains(), { hostname: input, projectId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: `${hostname} is a public suffix, shared by many owners: add a name registered under it.`,
    });
  });

  it('a name under a private public suffix is a name like any other', async () => {
    const res = await w.p.post(domains(), { hostname: `${unique('me')}.github.io`, projectId });
    expect(res.status).toBe(201);
    expect(res.body.domain.zone).toBe('github.io');
  });

  it('20 parallel adds of one hostname from two organizations: one claim each, the rest 409', async () => {
    const hostname = `race.${unique('z')}.test`;
    const other = await w.p.newOrg();
    const mine = await createProject(w.p);
    const theirs = await createProject(w.p, {}, other.org.orgId, other.owner.token);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? w.p.post(domains(), { hostname, projectId: mine.projectId })
          : w.p.post(domains(other.org.orgId), { hostname, projectId: theirs.projectId }, { token: other.owner.token }),
      ),
    );
    const made = results.filter((r) => r.status === 201);
    expect(made.map((r) => r.body.domain.orgId).sort()).toEqual([w.p.org.orgId, other.org.orgId].sort());
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(18);
    for (const r of refused) expect(r.body).toEqual({ error: `${hostname} is already in use.` });
    expect(await getHost(hostname, true)).toBeUndefined();
  });
});

describe('claims: a pending domain blocks no one', () => {
  /** The domain's records, as its owner publishes them on the local DNS server (`npm run local -- dns set`). */
  const publish = async (domain: { hostname: string; zone: string; records: string }) => {
    for (const line of domain.records.split('\n')) {
      const [name, , , type, value] = line.split(' ') as [string, string, string, 'CNAME' | 'TXT', string];
      await setLocalRecord(domain.zone, {
        name: name.slice(0, -1),
        type,
        value: type === 'TXT' ? JSON.parse(value) : value.slice(0, -1),
      });
    }
  };

  it('the first to prove ownership takes the host; the other claims fail saying why', async () => {
    const hostname = `shop.${unique('victimcorp')}.test`;
    const squatter = await w.p.newOrg();
    const theirs = await createProject(w.p, {}, squatter.org.orgId, squatter.owner.token);
    const asSquatter = { token: squatter.owner.token };
    const squatted = await w.p.post(domains(squatter.org.orgId), { hostname, projectId: theirs.projectId }, asSquatter);
    expect(squatted.status).toBe(201);
    expect(await getHost(hostname, true)).toBeUndefined();

    // The real owner adds it too, publishes its records and verifies.
    const { projectId } = await createProject(w.p);
    const added = await w.p.post(domains(), { hostname, projectId });
    expect(added.status).toBe(201);
    await publish(added.body.domain);
    const verified = await w.p.post(`${domains()}/${hostname}/verify`);
    expect(verified.body.domain).toMatchObject({ status: 'active' });
    expect(await getHost(hostname, true)).toMatchObject({ orgId: w.p.org.orgId, projectId });

    // The squatter's claim failed, saying why, and its verify says the same.
    const why = `${hostname} was verified by another organization: its DNS records prove they own it.`;
    const listed = await w.p.get(domains(squatter.org.orgId), asSquatter);
    expect(listed.body.domains).toEqual([expect.objectContaining({ hostname, status: 'error', message: why })]);
    const again = await w.p.post(`${domains(squatter.org.orgId)}/${hostname}/verify`, undefined, asSquatter);
    expect(again.status).toBe(200);
    expect(again.body.domain).toMatchObject({ status: 'error', message: why });
    const notice = await noticeOf(squatter.owner, 'domain.failed', hostname);
    expect(notice.title).toBe(`${hostname} could not be verified`);

    // Now that it is verified, a new claim is refused at once.
    const late = await w.p.newOrg();
    const lateProject = await createProject(w.p, {}, late.org.orgId, late.owner.token);
    const refused = await w.p.post(
      domains(late.org.orgId),
      { hostname, projectId: lateProject.projectId },
      { token: late.owner.token },
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: `${hostname} is already in use.` });
  });

  it('a pending claim moves between projects and is deleted without touching the host', async () => {
    const hostname = `www.${unique('claim')}.test`;
    const holder = await w.p.newOrg();
    const held = await createProject(w.p, {}, holder.org.orgId, holder.owner.token);
    const added = await w.p.post(
      domains(holder.org.orgId),
      { hostname, projectId: held.projectId },
      { token: holder.owner.token },
    );
    await publish(added.body.domain);
    await w.p.post(`${domains(holder.org.orgId)}/${hostname}/verify`, undefined, { token: holder.owner.token });
    // Another organization's claim, added before the verification, moved and deleted: the holder keeps the host.
    const [a, b] = [await createProject(w.p), await createProject(w.p)];
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: {
          ...(await getDomainRecord(holder.org.orgId, hostname, true)),
          pk: `ORG#${w.p.org.orgId}`,
          orgId: w.p.org.orgId,
          projectId: a.projectId,
          status: 'pending',
          version: 1,
        },
      }),
    );
    const moved = await w.p.patch(`${domains()}/${hostname}`, { projectId: b.projectId });
    expect(moved.status).toBe(200);
    expect((await w.p.delete(`${domains()}/${hostname}`)).status).toBe(204);
    expect(await getHost(hostname, true)).toMatchObject({ orgId: holder.org.orgId, projectId: held.projectId });
  });

  it('two organizations that both publish their records and verify at once: one wins, the other fails', async () => {
    const hostname = `both.${unique('z')}.test`;
    const other = await w.p.newOrg();
    const asOther = { token: other.owner.token };
    const mine = await createProject(w.p);
    const theirs = await createProject(w.p, {}, other.org.orgId, other.owner.token);
    const a = await w.p.post(domains(), { hostname, projectId: mine.projectId });
    const b = await w.p.post(domains(other.org.orgId), { hostname, projectId: theirs.projectId }, asOther);
    await publish(a.body.domain);
    await publish(b.body.domain);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? w.p.post(`${domains()}/${hostname}/verify`)
          : w.p.post(`${domains(other.org.orgId)}/${hostname}/verify`, undefined, asOther),
      ),
    );
    // Each answer is the claim's state or a 409 of a write that lost to another verify of the same claim.
    for (const r of results) expect([200, 409]).toContain(r.status);
    const holder = await getHost(hostname, true);
    const winner = holder?.orgId;
    expect([w.p.org.orgId, other.org.orgId]).toContain(winner);
    const loser = winner === w.p.org.orgId ? other.org.orgId : w.p.org.orgId;
    expect((await getDomainRecord(winner as string, hostname, true))?.status).toBe('active');
    expect(await getDomainRecord(loser, hostname, true)).toMatchObject({
      status: 'error',
      message: `${hostname} was verified by another organization: its DNS records prove they own it.`,
    });
  });
});
