import { getHost, hostsOfProject } from '../../shared/domains/host-registry/registry';
import { reserveExistingHosts } from '../../shared/domains/hosts/migrate';
import { edgeFetch } from '../deployments/helpers';
import { putRecord } from '../helpers/records';
import { readRecord } from '../projects/fixtures';
import { type DomainsWorld, reserveDeploymentHost, startWorld, staticProduction, unique } from './helpers';

/**
 * The host registry (issue: One host registry): production hosts, deployment hosts and custom
 * domains are one global item per host, reserved in the transaction that makes them, so two
 * organizations' projects of one slug get different production hosts, and a slug equal to a
 * deployment host does not take it.
 */
let w: DomainsWorld;
beforeAll(async () => {
  w = await startWorld([]);
});
afterAll(() => w.close());

const projects = (orgId: string) => `/v1/orgs/${orgId}/projects`;

describe('production hosts', () => {
  it('two organizations create the same slug at once: two production hosts, each serving its own deployment', async () => {
    const other = await w.p.newOrg();
    const slug = unique('web');
    const [a, b] = await Promise.all([
      w.p.post(projects(w.p.org.orgId), { name: 'Web', slug }),
      w.p.post(projects(other.org.orgId), { name: 'Web', slug }, { token: other.owner.token }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const plain = await getHost(`${slug}.localhost`, true);
    expect(plain?.kind).toBe('production');
    const winner = plain?.projectId === a.body.project.projectId ? 'a' : 'b';
    expect(plain?.projectId).toBe(winner === 'a' ? a.body.project.projectId : b.body.project.projectId);
    const loser = winner === 'a' ? { res: b, org: other.org } : { res: a, org: w.p.org };
    const suffixed = await getHost(`${slug}-${loser.org.slug}.localhost`, true);
    expect(suffixed).toMatchObject({
      kind: 'production',
      projectId: loser.res.body.project.projectId,
      orgId: loser.org.orgId,
    });

    // Each serves its own production deployment at its own host.
    await staticProduction(w.p.org.orgId, a.body.project.projectId, 'site of A');
    await staticProduction(other.org.orgId, b.body.project.projectId, 'site of B');
    const hostA = winner === 'a' ? slug : `${slug}-${w.p.org.slug}`;
    const hostB = winner === 'b' ? slug : `${slug}-${other.org.slug}`;
    expect((await edgeFetch(w.edge, `${hostA}.localhost:${w.edge.port}`)).text).toContain('site of A');
    expect((await edgeFetch(w.edge, `${hostB}.localhost:${w.edge.port}`)).text).toContain('site of B');
    // The API names the same hosts.
    const readA = await w.p.get(`${projects(w.p.org.orgId)}/${a.body.project.projectId}`);
    expect(readA.body.productionHost).toBe(`${hostA}.localhost`);
    const readB = await w.p.get(`${projects(other.org.orgId)}/${b.body.project.projectId}`, {
      token: other.owner.token,
    });
    expect(readB.body.productionHost).toBe(`${hostB}.localhost`);
  });

  it("a slug equal to another project's deployment host gets a suffix; the deployment keeps its host", async () => {
    const other = await w.p.newOrg();
    const site = await w.p.post(
      projects(other.org.orgId),
      { name: 'Site', slug: unique('site') },
      { token: other.owner.token },
    );
    const deploymentHost = `${site.body.project.slug}-0rqqgmf0ee00`;
    const deploymentId = await reserveDeploymentHost(
      other.org.orgId,
      site.body.project.projectId,
      `${deploymentHost}.localhost`,
    );

    const res = await w.p.post(projects(w.p.org.orgId), { name: 'Clash', slug: deploymentHost });
    expect(res.status).toBe(201);
    expect((await getHost(`${deploymentHost}.localhost`, true))?.deploymentId).toBe(deploymentId);
    expect(await getHost(`${deploymentHost}-${w.p.org.slug}.localhost`, true)).toMatchObject({
      kind: 'production',
      projectId: res.body.project.projectId,
    });
  });

  it('a third project of one slug, after the org-slug host is taken too, gets a random suffix', async () => {
    const slug = unique('tri');
    const first = await w.p.newOrg();
    const second = await w.p.newOrg();
    await w.p.post(projects(first.org.orgId), { name: 'One', slug }, { token: first.owner.token });
    // A project of the third organization took `<slug>-<org slug>` first, by its own slug.
    const clash = await w.p.post(projects(w.p.org.orgId), { name: 'Clash', slug: `${slug}-${second.org.slug}` });
    expect(clash.status).toBe(201);
    const res = await w.p.post(projects(second.org.orgId), { name: 'Two', slug }, { token: second.owner.token });
    expect(res.status).toBe(201);
    const held = await hostsOfProject(res.body.project.projectId);
    expect(held).toHaveLength(1);
    expect(held[0]?.host).toMatch(new RegExp(`^${slug}-[0-9a-f]{6}\\.localhost$`));
  });

  it('a rename moves the production host; the old host is free again', async () => {
    const slug = unique('ren');
    const created = await w.p.post(projects(w.p.org.orgId), { name: 'Ren', slug });
    const { projectId } = created.body.project;
    const renamed = await w.p.patch(`${projects(w.p.org.orgId)}/${projectId}`, { slug: `${slug}-new` });
    expect(renamed.status).toBe(200);
    expect(await getHost(`${slug}.localhost`, true)).toBeUndefined();
    expect((await getHost(`${slug}-new.localhost`, true))?.projectId).toBe(projectId);
    // Another organization can now take the old host.
    const other = await w.p.newOrg();
    const again = await w.p.post(projects(other.org.orgId), { name: 'Old', slug }, { token: other.owner.token });
    expect((await getHost(`${slug}.localhost`, true))?.projectId).toBe(again.body.project.projectId);
  });

  it('a rename to a slug whose host another organization holds takes the org-slug host', async () => {
    const slug = unique('held');
    const other = await w.p.newOrg();
    await w.p.post(projects(other.org.orgId), { name: 'Held', slug }, { token: other.owner.token });
    const mine = await w.p.post(projects(w.p.org.orgId), { name: 'Mine', slug: unique('mine') });
    const res = await w.p.patch(`${projects(w.p.org.orgId)}/${mine.body.project.projectId}`, { slug });
    expect(res.status).toBe(200);
    expect((await getHost(`${slug}-${w.p.org.slug}.localhost`, true))?.projectId).toBe(mine.body.project.projectId);
  });

  it('a delete releases the production host; a transfer moves the hosts to the target organization', async () => {
    const slug = unique('gone');
    const created = await w.p.post(projects(w.p.org.orgId), { name: 'Gone', slug });
    expect((await w.p.delete(`${projects(w.p.org.orgId)}/${created.body.project.projectId}`)).status).toBe(204);
    expect(await getHost(`${slug}.localhost`, true)).toBeUndefined();

    const target = await w.p.newOrg();
    const { addMember } = await import('../../shared/kernel/identity/orgs');
    await addMember(target.org.orgId, w.p.owner.email, 'owner', 'Test owner');
    const moving = await w.p.post(projects(w.p.org.orgId), { name: 'Moving', slug: unique('mv') });
    const { projectId } = moving.body.project;
    // With an active custom domain and a production deployment, served from the source organization.
    await staticProduction(w.p.org.orgId, projectId, 'moving site');
    const hostname = `www.${unique('mv')}.test`;
    await w.p.put(`/v1/orgs/${w.p.org.orgId}/integrations/dns-provider`, { kind: 'local', credentials: {} });
    expect((await w.p.post(`/v1/orgs/${w.p.org.orgId}/domains`, { hostname, projectId })).status).toBe(201);
    await w.p.post(`/v1/orgs/${w.p.org.orgId}/domains/${hostname}/dns-provider`);
    expect((await w.p.post(`/v1/orgs/${w.p.org.orgId}/domains/${hostname}/verify`)).body.domain.status).toBe('active');
    expect((await edgeFetch(w.edge, hostname)).text).toContain('moving site');

    const res = await w.p.post(`${projects(w.p.org.orgId)}/${projectId}/transfer`, { orgId: target.org.orgId });
    expect(res.status).toBe(200);
    expect((await getHost(`${moving.body.project.slug}.localhost`, true))?.orgId).toBe(target.org.orgId);
    expect((await getHost(hostname, true))?.orgId).toBe(target.org.orgId);
    // Still served under both hosts, now from the target organization.
    expect((await edgeFetch(w.edge, hostname)).text).toContain('moving site');
    expect((await edgeFetch(w.edge, `${moving.body.project.slug}.localhost`)).text).toContain('moving site');

    // The delete in the target releases the production host and the domain's.
    expect((await w.p.delete(`${projects(target.org.orgId)}/${projectId}`)).status).toBe(204);
    expect(await getHost(`${moving.body.project.slug}.localhost`, true)).toBeUndefined();
    expect(await getHost(hostname, true)).toBeUndefined();
    expect((await edgeFetch(w.edge, hostname)).status).toBe(404);
  });
});

describe('hosts made before the registry', () => {
  it('are reserved oldest first: the older project of a slug keeps the plain host', async () => {
    const slug = unique('old');
    const older = await w.p.newOrg();
    const newer = await w.p.newOrg();
    const at = Date.now() - 86_400_000;
    const project = (orgId: string, projectId: string, createdAt: number) =>
      putRecord(orgId, `PRJ#${projectId}`, {
        projectId,
        orgId,
        slug,
        name: slug,
        createdAt,
        status: 'active',
        version: 1,
      });
    const olderId = `prj_${unique('a').replace(/-/g, '')}`;
    const newerId = `prj_${unique('b').replace(/-/g, '')}`;
    await project(newer.org.orgId, newerId, at + 1000);
    await project(older.org.orgId, olderId, at);
    await putRecord(older.org.orgId, `ROUTE#${olderId}#${slug}-abc123abc123.localhost`, {
      projectId: olderId,
      deploymentId: 'dpl_old',
      host: `${slug}-abc123abc123.localhost`,
      createdAt: at,
    });
    await putRecord(older.org.orgId, `DOM#${slug}.example.org`, {
      hostname: `${slug}.example.org`,
      projectId: olderId,
      status: 'active',
      createdAt: at,
    });
    // A claim never proven holds no host.
    await putRecord(newer.org.orgId, `DOM#${slug}.example.net`, {
      hostname: `${slug}.example.net`,
      projectId: newerId,
      status: 'pending',
      createdAt: at,
    });

    expect(await reserveExistingHosts([older.org.orgId, newer.org.orgId])).toBe(4);
    expect((await getHost(`${slug}.localhost`, true))?.projectId).toBe(olderId);
    expect((await getHost(`${slug}-${newer.org.slug}.localhost`, true))?.projectId).toBe(newerId);
    expect((await getHost(`${slug}-abc123abc123.localhost`, true))?.deploymentId).toBe('dpl_old');
    expect((await getHost(`${slug}.example.org`, true))?.kind).toBe('domain');
    expect(await getHost(`${slug}.example.net`, true)).toBeUndefined();
    expect((await readRecord(newer.org.orgId, `PRJ#${newerId}`))?.productionLabel).toBe(`${slug}-${newer.org.slug}`);
    // Once is enough: a second run finds them reserved.
    const before = await getHost(`${slug}.localhost`, true);
    expect(await reserveExistingHosts([older.org.orgId, newer.org.orgId])).toBe(0);
    expect(await getHost(`${slug}.localhost`, true)).toEqual(before);
  });
});
