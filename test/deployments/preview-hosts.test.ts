import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHost, hostEntry, reserveHost } from '../../shared/domains/host-registry/registry';
import { claimExistingPreviewHosts } from '../../shared/domains/hosts/migrate';
import { db } from '../../shared/kernel/store/client';
import { PutCommand, UpdateCommand } from '../../shared/kernel/store/commands';
import { newId } from '../../shared/kernel/store/ids';
import { queryPrefix } from '../../shared/kernel/store/ops';
import { TABLE } from '../../shared/kernel/store/table';
import type { TestPlatform } from '../helpers/platform';
import { gitCli } from '../repos/git-cli';
import { type Deployments, edgeFetch, withDeployments } from './helpers';

/**
 * Pull request preview hosts are unique platform-wide (issue "Round three"): two organizations
 * whose projects share a slug, each with a pull request #1, get two previews at two hosts of the
 * global host registry, each serving its own branch; a pull request shows only a host it holds
 * (never `ready` at another project's); every label is one DNS label of at most 63 characters.
 */
let p: TestPlatform;
let env: Deployments;
let home: string;
withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'preview-hosts-home-'));
});

const git = gitCli(() => home).ok;

interface Tenant {
  orgId: string;
  token: string;
}

interface Site {
  tenant: Tenant;
  name: string;
  repoId: string;
  projectId: string;
  dir: string;
}

/** A 40-character slug (the longest a project may have), new to the platform. */
const longSlug = () => {
  const base = `pv-${process.pid.toString(36)}-${Date.now().toString(36)}-`;
  return `${base}${'x'.repeat(40 - base.length - 1)}z`;
};

/** In `tenant`'s organization: a repository linked to a project of `slug`, cloned, `text` on main. */
async function linkedSite(tenant: Tenant, slug: string, text: string): Promise<Site> {
  const as = { token: tenant.token };
  const name = `${slug.slice(0, 20)}-repo`;
  const repo = await p.post(`/v1/orgs/${tenant.orgId}/repos`, { name }, as);
  expect(repo.status).toBe(201);
  const project = await p.post(
    `/v1/orgs/${tenant.orgId}/projects`,
    { name: slug, slug, framework: 'static', repoId: repo.body.repo.resourceId },
    as,
  );
  expect(project.status).toBe(201);
  const key = await p.apiKey(['git:read', 'git:write'], tenant.orgId);
  const work = mkdtempSync(join(home, 'work-'));
  await git(work, ['clone', '-q', (repo.body.repo.cloneUrl as string).replace('://', `://git:${key}@`), 'repo']);
  const dir = join(work, 'repo');
  cpSync(join(__dirname, '..', 'fixtures', 'static-site'), dir, { recursive: true });
  await commit(dir, 'main', text);
  return { tenant, name, repoId: repo.body.repo.resourceId, projectId: project.body.project.projectId, dir };
}

async function commit(dir: string, branch: string, text: string): Promise<string> {
  if ((await git(dir, ['branch', '--show-current'])).trim() !== branch) {
    await git(dir, ['checkout', '-q', '-b', branch]);
  }
  writeFileSync(join(dir, 'index.html'), `<h1>${text}</h1>`);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', text]);
  await git(dir, ['push', '-q', 'origin', branch]);
  return (await git(dir, ['rev-parse', 'HEAD'])).trim();
}

const pullPath = (site: Site, number: number) => `/v1/orgs/${site.tenant.orgId}/repos/${site.name}/pulls/${number}`;

async function pullOf(site: Site, number: number) {
  const res = await p.get(pullPath(site, number), { token: site.tenant.token });
  expect(res.status).toBe(200);
  return res.body.pull;
}

/** Opens a pull request of `branch` (whose head shows `text`) and waits for its preview of that head to end. */
async function openWithPreview(site: Site, branch: string, text: string) {
  const head = await commit(site.dir, branch, text);
  const opened = await p.post(
    `/v1/orgs/${site.tenant.orgId}/repos/${site.name}/pulls`,
    { title: text, source: branch, target: 'main' },
    { token: site.tenant.token },
  );
  expect(opened.status).toBe(201);
  const number = opened.body.pull.number as number;
  const deadline = Date.now() + 90_000;
  for (let delay = 20; ; delay = Math.min(200, delay * 2)) {
    const preview = (await pullOf(site, number)).preview;
    if (preview?.commit === head && ['ready', 'error'].includes(preview.state)) return { number, head, preview };
    if (Date.now() > deadline) throw new Error(`no preview of ${head}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

const hostOf = (url: string) => new URL(url).host;
const labelOf = (url: string) => hostOf(url).split('.')[0] as string;

describe('two organizations, one project slug, pull request #1 each', () => {
  const slug = longSlug();
  let a: Site;
  let b: Site;
  let previewA: Awaited<ReturnType<typeof openWithPreview>>;
  let previewB: Awaited<ReturnType<typeof openWithPreview>>;

  beforeAll(async () => {
    const other = await p.newOrg();
    a = await linkedSite({ orgId: p.org.orgId, token: p.owner.token }, slug, 'main of A');
    b = await linkedSite({ orgId: other.org.orgId, token: other.owner.token }, slug, 'main of B');
    // A's pull request is first: it takes `<slug>-pr-1`.
    previewA = await openWithPreview(a, 'feature', 'branch of A');
    previewB = await openWithPreview(b, 'feature', 'branch of B');
  }, 240_000);

  it('get two previews at two hosts, each serving its own branch, each shown on its own pull request', async () => {
    expect(previewA.number).toBe(1);
    expect(previewB.number).toBe(1);
    expect(previewA.preview.state).toBe('ready');
    expect(previewB.preview.state).toBe('ready');
    const hostA = hostOf(previewA.preview.url);
    const hostB = hostOf(previewB.preview.url);
    expect(hostA).toBe(`${slug}-pr-1.localhost:${env.edge.port}`);
    expect(hostB).not.toBe(hostA);
    expect(labelOf(previewB.preview.url)).toMatch(new RegExp(`^${slug}-pr-1-[0-9a-f]{8}$`));
    expect((await edgeFetch(env.edge, hostA, '/')).text).toBe('<h1>branch of A</h1>');
    expect((await edgeFetch(env.edge, hostB, '/')).text).toBe('<h1>branch of B</h1>');
    // Each host is its own pull request's in the registry, pointed at its own build.
    expect(await getHost(hostA, true)).toMatchObject({
      kind: 'preview',
      orgId: a.tenant.orgId,
      projectId: a.projectId,
      deploymentId: previewA.preview.deploymentId,
    });
    expect(await getHost(hostB, true)).toMatchObject({
      kind: 'preview',
      orgId: b.tenant.orgId,
      projectId: b.projectId,
      deploymentId: previewB.preview.deploymentId,
    });
    // The deployment and the build check name the host the pull request holds.
    const deployment = await p.get(`/v1/orgs/${b.tenant.orgId}/deployments/${previewB.preview.deploymentId}`, {
      token: b.tenant.token,
    });
    expect(deployment.body.deployment.previewHost).toBe(hostB);
    const checks = await p.get(`${pullPath(b, 1)}/checks`, { token: b.tenant.token });
    expect(checks.body.checks).toContainEqual(
      expect.objectContaining({
        name: 'build',
        commitId: previewB.head,
        state: 'success',
        summary: `Preview ready: ${previewB.preview.url}`,
      }),
    );
  });

  it('a 40-character slug gives two different labels of at most 63 characters', () => {
    expect(slug).toHaveLength(40);
    const labels = [previewA.preview.url, previewB.preview.url].map(labelOf);
    expect(new Set(labels).size).toBe(2);
    for (const url of [previewA.preview.url, previewB.preview.url]) {
      expect(labelOf(url).length).toBeLessThanOrEqual(63);
      expect(labelOf(url).startsWith(`${slug}-pr-1`)).toBe(true);
    }
  });

  it('a preview recorded at a host another project holds (made before the fix) is not shown ready there', async () => {
    // As a record written before hosts were claimed per pull request: B's preview names A's host.
    const hostA = hostOf(previewA.preview.url);
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `REPOID#${b.repoId}`, sk: previewSk(1, b.projectId) },
        UpdateExpression: 'SET host = :h',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':h': hostA },
      }),
    );
    const shown = (await pullOf(b, 1)).preview;
    expect(shown.state).toBe('ready');
    expect(hostOf(shown.url)).not.toBe(hostA);
    // The deployment's own host, which it holds and serves.
    const deployment = await p.get(`/v1/orgs/${b.tenant.orgId}/deployments/${shown.deploymentId}`, {
      token: b.tenant.token,
    });
    expect(hostOf(shown.url)).toBe(deployment.body.deployment.host);
    expect((await edgeFetch(env.edge, hostOf(shown.url), '/')).text).toBe('<h1>branch of B</h1>');
    // A's pull request still shows (and its host still serves) A's preview.
    expect((await pullOf(a, 1)).preview.url).toBe(previewA.preview.url);
  });
});

const previewSk = (number: number, projectId: string) => `PREVIEW#${String(number).padStart(10, '0')}#${projectId}`;

describe('every preview label held by another project', () => {
  it("the preview is at the deployment's own host, never another project's; closing keeps that host", async () => {
    const other = await p.newOrg();
    const slug = `f${process.pid.toString(36)}${Date.now().toString(36)}`.slice(0, 19);
    const site = await linkedSite({ orgId: p.org.orgId, token: p.owner.token }, slug, 'main');
    // Another organization's projects take each label as their production host first.
    const hash = (n: number) => createHash('sha256').update(site.projectId).digest('hex').slice(0, n);
    for (const taken of [`${slug}-pr-1`, `${slug}-pr-1-${hash(8)}`, `${slug}-pr-1-${hash(16)}`]) {
      const res = await p.post(
        `/v1/orgs/${other.org.orgId}/projects`,
        { name: taken, slug: taken, framework: 'static' },
        { token: other.owner.token },
      );
      expect(res.status).toBe(201);
      expect((await getHost(`${taken}.localhost`, true))?.projectId).toBe(res.body.project.projectId);
    }
    const { number, preview } = await openWithPreview(site, 'feature', 'the branch');
    expect(number).toBe(1);
    expect(preview.state).toBe('ready');
    const deployment = await p.get(`/v1/orgs/${p.org.orgId}/deployments/${preview.deploymentId}`);
    expect(hostOf(preview.url)).toBe(deployment.body.deployment.host);
    expect(deployment.body.deployment.previewHost).toBe(deployment.body.deployment.host);
    expect((await edgeFetch(env.edge, hostOf(preview.url), '/')).text).toBe('<h1>the branch</h1>');
    // Closing retires the preview; the deployment's own host is not released with it.
    const closed = await p.post(`${pullPath(site, number)}/close`);
    expect(closed.status).toBe(200);
    expect((await pullOf(site, number)).preview.state).toBe('retired');
    expect((await getHost(hostOf(preview.url), true))?.deploymentId).toBe(preview.deploymentId);
    expect((await edgeFetch(env.edge, hostOf(preview.url), '/')).text).toBe('<h1>the branch</h1>');
  });
});

describe('previews made before hosts were claimed per pull request', () => {
  it('the migration gives each its own host: the holder keeps it, the other gets its derived label', async () => {
    const other = await p.newOrg();
    const slug = `old-${process.pid.toString(36)}-${Date.now().toString(36)}`;
    const create = (orgId: string, token: string) =>
      p.post(`/v1/orgs/${orgId}/projects`, { name: slug, slug, framework: 'static' }, { token });
    const [a, b] = [await create(p.org.orgId, p.owner.token), await create(other.org.orgId, other.owner.token)];
    expect([a.status, b.status]).toEqual([201, 201]);
    const old = { a: a.body.project.projectId as string, b: b.body.project.projectId as string };
    const repo = { a: newId('rep_'), b: newId('rep_') };
    const shared = `${slug}-pr-1.localhost:${env.edge.port}`;
    // As written before: A was ready first and holds the host (no pull request named); B's
    // preview names the same host.
    const legacy = hostEntry(shared, 'preview', { orgId: p.org.orgId, projectId: old.a, deploymentId: 'dpl_olda' });
    await db.send(new PutCommand(reserveHost(legacy).Put));
    const item = (orgId: string, repoId: string, projectId: string, deploymentId: string, updatedAt: number) => ({
      pk: `REPOID#${repoId}`,
      sk: previewSk(1, projectId),
      orgId,
      repoId,
      number: 1,
      projectId,
      host: shared,
      state: 'ready',
      deploymentId,
      skipped: false,
      updatedAt,
    });
    await db.send(new PutCommand({ TableName: TABLE(), Item: item(p.org.orgId, repo.a, old.a, 'dpl_olda', 1) }));
    await db.send(new PutCommand({ TableName: TABLE(), Item: item(other.org.orgId, repo.b, old.b, 'dpl_oldb', 2) }));

    expect(await claimExistingPreviewHosts([p.org.orgId, other.org.orgId])).toBe(2);
    expect(await getHost(shared, true)).toMatchObject({
      kind: 'preview',
      projectId: old.a,
      pull: `${repo.a}#1`,
      deploymentId: 'dpl_olda',
    });
    const [moved] = await readPreview(repo.b, old.b);
    expect(moved?.host).toMatch(new RegExp(`^${slug}-pr-1-[0-9a-f]{8}\\.localhost:${env.edge.port}$`));
    expect(await getHost(moved?.host as string, true)).toMatchObject({
      kind: 'preview',
      orgId: other.org.orgId,
      projectId: old.b,
      pull: `${repo.b}#1`,
      deploymentId: 'dpl_oldb',
    });
    // Once is enough.
    expect(await claimExistingPreviewHosts([p.org.orgId, other.org.orgId])).toBe(0);
  });
});

function readPreview(repoId: string, projectId: string) {
  return queryPrefix<{ host: string }>(`REPOID#${repoId}`, previewSk(1, projectId));
}
