import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { removeFunction } from '../../shared/domains/deployments/functions';
import { functionKey } from '../../shared/domains/deployments/records';
import { sourceKey } from '../../shared/domains/deployments/sources';
import { projectKeys } from '../../shared/domains/projects/records';
import { artifactsBucket } from '../../shared/kernel/config';
import { addMember } from '../../shared/kernel/identity/orgs';
import { db } from '../../shared/kernel/store/client';
import { newId } from '../../shared/kernel/store/ids';
import { TABLE } from '../../shared/kernel/store/table';
import { storage } from '../../shared/ports/object-storage';
import { hasFunction } from '../../shared/ports/runtime/local';
import { tarOfDir } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';
import { type Deployments, deploy, edgeFetch, newProject, upload, waitFinal, withDeployments } from './helpers';

/** Every error the spec lists for the deployments routes, through the gateway. */
let p: TestPlatform;
let env: Deployments;
const staticArchive = tarOfDir(join(__dirname, '..', 'fixtures', 'static-site'));
const nodeArchive = tarOfDir(join(__dirname, '..', 'fixtures', 'node-server'));
const SHA = 'a'.repeat(40);

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;
const unknownDeployment = () => newId('dpl_');
const unknownProject = () => newId('prj_');

/** A deployment record as the builds leave it, written directly (states a test can't wait for). */
async function fakeDeployment(projectId: string, fields: Record<string, unknown>): Promise<string> {
  const deploymentId = newId('dpl_');
  await putRecord(p.org.orgId, `DPL#${deploymentId}`, {
    deploymentId,
    orgId: p.org.orgId,
    projectId,
    location: 'fra',
    target: 'preview',
    status: 'ready',
    createdAt: Date.now(),
    updatedAt: Date.now(),
    gsi1pk: `PRJ#${projectId}`,
    gsi1sk: `DPL#${deploymentId}`,
    version: 1,
    ...fields,
  });
  return deploymentId;
}

/** A repository resource record, as the resources group writes it. */
/** A real repository (the repos routes, the local git port) with one commit: its id and that commit. */
async function realRepository(): Promise<{ repoId: string; sha: string }> {
  const name = `repo-${newId('res_').slice(-8)}`;
  const res = await p.post(`${orgPath()}/repos`, { name, readme: true });
  if (res.status !== 201) throw new Error(`repo: ${res.status} ${res.text}`);
  const branches = await p.get(`${orgPath()}/repos/${name}/branches`);
  return { repoId: res.body.repo.resourceId, sha: branches.body.branches[0].commit };
}

async function fakeRepository(): Promise<string> {
  const resourceId = newId('res_');
  await putRecord(p.org.orgId, `RES#repository#${resourceId}`, {
    resourceId,
    type: 'repository',
    name: `repo-${resourceId.slice(-6)}`,
    status: 'active',
    orgId: p.org.orgId,
    region: 'eu-central-1',
    location: 'fra',
    createdBy: p.owner.userId,
    physicalName: resourceId,
    version: 1,
  });
  return resourceId;
}

/** Points DATA_DIR at a file for the duration of `fn`: no build folder can be made (502). */
async function withBrokenDataDir<T>(fn: () => Promise<T>): Promise<T> {
  const previous = process.env.DATA_DIR;
  const file = join(env.dataDir, 'not-a-folder');
  writeFileSync(file, 'x');
  process.env.DATA_DIR = file;
  try {
    return await fn();
  } finally {
    process.env.DATA_DIR = previous;
  }
}

describe('POST .../uploads', () => {
  it('answers a presigned PUT link, its exact headers, and its lifetime', async () => {
    const { projectId } = await newProject(p, 'static');
    const res = await p.post(`${orgPath()}/projects/${projectId}/uploads`, { size: 1234 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uploadId: expect.stringMatching(/^up_[A-Za-z0-9_-]{16,64}$/),
      url: expect.stringContaining(res.body.uploadId),
      headers: { 'content-type': 'application/gzip', 'content-length': '1234' },
      expiresIn: 900,
    });
    expect(res.body.url).toMatch(/X-Amz-Expires=900/);
    expect(res.body.url).toMatch(/X-Amz-SignedHeaders=[^&]*content-length/);
    expect(res.body.url).toMatch(/X-Amz-SignedHeaders=[^&]*content-type/);
  });

  it('validates the size: an integer from 1 to 262144000', async () => {
    const { projectId } = await newProject(p, 'static');
    for (const size of [0, 262_144_001, 1.5, '10']) {
      const res = await p.post(`${orgPath()}/projects/${projectId}/uploads`, { size });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request');
    }
    expect((await p.post(`${orgPath()}/projects/${projectId}/uploads`, {})).status).toBe(400);
    expect((await p.post(`${orgPath()}/projects/${projectId}/uploads`, { size: 262_144_000 })).status).toBe(201);
  });

  it('404 Project not found', async () => {
    for (const id of [unknownProject(), 'nope']) {
      const res = await p.post(`${orgPath()}/projects/${id}/uploads`, { size: 10 });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Project not found' });
    }
  });
});

describe('POST .../projects/:projectId/deployments', () => {
  it('400 A git deployment needs branch and commitSha.', async () => {
    const { projectId } = await newProject(p, 'static');
    for (const body of [{ source: 'git' }, { source: 'git', branch: 'main' }, { source: 'git', commitSha: SHA }]) {
      const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'A git deployment needs branch and commitSha.' });
    }
  });

  it('400 An upload deployment needs uploadId and target.', async () => {
    const { projectId } = await newProject(p, 'static');
    const uploadId = newId('up_');
    for (const body of [
      { source: 'upload' },
      { source: 'upload', uploadId },
      { source: 'upload', target: 'preview' },
    ]) {
      const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'An upload deployment needs uploadId and target.' });
    }
  });

  it('validates the body: source, commitSha, uploadId, meta', async () => {
    const { projectId } = await newProject(p, 'static');
    const bad = [
      {},
      { source: 'zip' },
      { source: 'git', branch: 'main', commitSha: 'ABC' },
      { source: 'upload', uploadId: 'up_short', target: 'preview' },
      { source: 'upload', uploadId: newId('up_'), target: 'staging' },
      { source: 'upload', uploadId: newId('up_'), target: 'preview', meta: { commit: 'xyz' } },
      { source: 'git', branch: '', commitSha: SHA },
    ];
    for (const body of bad) {
      const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request');
    }
  });

  it('meta (dirty, machine, a short commit) is kept on the deployment and shown; redeploy keeps it', async () => {
    const { projectId } = await newProject(p, 'static');
    const meta = { branch: 'feature/x', commit: 'abc1234', dirty: true, machine: 'dev-laptop.local' };
    const d = await deploy(p, projectId, staticArchive, 'preview', { meta });
    const read = await waitFinal(p, d.deploymentId);
    expect(read.deployment).toMatchObject({ status: 'ready', meta, branch: 'feature/x' });
    // A commit shorter than 40 characters names no commitSha.
    expect(read.deployment.commitSha).toBeUndefined();
    const list = await p.get(`${orgPath()}/deployments?projectId=${projectId}`);
    expect(list.body.deployments[0]).toMatchObject({ deploymentId: d.deploymentId, meta });
    const project = await p.get(`${orgPath()}/projects/${projectId}`);
    expect(project.body.deployments[0]).toMatchObject({ deploymentId: d.deploymentId, meta });
    const summary = await p.get(`${orgPath()}/projects?include=summary`);
    const mine = summary.body.projects.find((x: { projectId: string }) => x.projectId === projectId);
    expect(mine.latest).toMatchObject({ deploymentId: d.deploymentId, meta });
    // Bookkeeping never reaches an answer: keys, version, the sealed log mask, the archive's size.
    for (const shown of [read.deployment, list.body.deployments[0], project.body.deployments[0], mine.latest]) {
      for (const field of ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'version', 'logMask', 'sourceSize', 'sourceHash']) {
        expect(shown).not.toHaveProperty(field);
      }
    }
    const again = await p.post(`${orgPath()}/deployments/${d.deploymentId}/redeploy`);
    expect(again.status).toBe(201);
    const redeployed = await waitFinal(p, again.body.deployment.deploymentId);
    expect(redeployed.deployment).toMatchObject({ status: 'ready', meta });
  });

  it('404 Project not found', async () => {
    const res = await p.post(`${orgPath()}/projects/${unknownProject()}/deployments`, { source: 'upload' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });

  it('409 Link a repository to this project first.', async () => {
    const { projectId } = await newProject(p, 'static');
    const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, {
      source: 'git',
      branch: 'main',
      commitSha: SHA,
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Link a repository to this project first.' });
  });

  it('git: an existing building or ready deployment of the commit and target is answered (200, existing)', async () => {
    const { repoId, sha } = await realRepository();
    const { projectId } = await newProject(p, 'static', { repoId });
    const existing = await fakeDeployment(projectId, {
      source: 'git',
      branch: 'main',
      commitSha: sha,
      target: 'production',
      host: 'existing.localhost',
    });
    const body = { source: 'git', branch: 'main', commitSha: sha };
    const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deployment: { deploymentId: existing, host: 'existing.localhost', target: 'production' },
      existing: true,
    });
    // Another target (a preview of the same commit) is not the same deployment.
    const preview = await p.post(`${orgPath()}/projects/${projectId}/deployments`, { ...body, target: 'preview' });
    expect(preview.status).toBe(201);
    expect(preview.body.existing).toBe(false);
    // force builds it again, from the commit.
    const forced = await p.post(`${orgPath()}/projects/${projectId}/deployments`, { ...body, force: true });
    expect(forced.status).toBe(201);
    expect(forced.body).toMatchObject({ existing: false, deployment: { target: 'production' } });
    const built = await waitFinal(p, forced.body.deployment.deploymentId);
    expect(built.deployment).toMatchObject({ status: 'ready', source: 'git', commitSha: sha, branch: 'main' });
  });

  it('git: the production branch deploys to production, others to preview; an unknown commit is 404', async () => {
    const { repoId, sha } = await realRepository();
    const { projectId } = await newProject(p, 'static', { repoId, productionBranch: 'release' });
    const prod = await p.post(`${orgPath()}/projects/${projectId}/deployments`, {
      source: 'git',
      branch: 'release',
      commitSha: sha,
    });
    expect(prod.body.deployment.target).toBe('production');
    const other = await p.post(`${orgPath()}/projects/${projectId}/deployments`, {
      source: 'git',
      branch: 'main',
      commitSha: sha,
    });
    expect(other.body.deployment.target).toBe('preview');
    const unknown = await p.post(`${orgPath()}/projects/${projectId}/deployments`, {
      source: 'git',
      branch: 'main',
      commitSha: 'c'.repeat(40),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Commit not found' });
    await waitFinal(p, prod.body.deployment.deploymentId);
    await waitFinal(p, other.body.deployment.deploymentId);
  });

  it('404 Not found: the linked repository is gone', async () => {
    const repoId = await fakeRepository();
    const { projectId } = await newProject(p, 'static', { repoId });
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `ORG#${p.org.orgId}`, sk: `RES#repository#${repoId}` },
        UpdateExpression: 'SET #s = :d',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':d': 'deleting' },
      }),
    );
    const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, {
      source: 'git',
      branch: 'main',
      commitSha: SHA,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it("409 The upload wasn't found. Upload the archive first.", async () => {
    const { projectId } = await newProject(p, 'static');
    const other = await newProject(p, 'static');
    // Never uploaded; and uploaded, but for another project.
    const elsewhere = await upload(p, other.projectId, staticArchive);
    for (const uploadId of [newId('up_'), elsewhere]) {
      const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, {
        source: 'upload',
        uploadId,
        target: 'preview',
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: "The upload wasn't found. Upload the archive first." });
    }
  });

  it('413 The archive is larger than 250 MB.', async () => {
    const { projectId } = await newProject(p, 'static');
    // The link is signed for its length: S3 refuses anything else. The local S3 server doesn't
    // check, so an archive one byte over the limit is written the way S3 never would let it.
    const uploadId = newId('up_');
    const size = 262_144_001;
    const url = await storage().presignPut({ name: artifactsBucket() }, sourceKey(projectId, uploadId), {
      contentType: 'application/gzip',
      size,
      expiresIn: 60,
    });
    const chunk = Buffer.alloc(4 * 1024 * 1024);
    const body = Readable.from(
      (function* () {
        let left = size;
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          yield n === chunk.length ? chunk : chunk.subarray(0, n);
        }
      })(),
    );
    const put = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/gzip', 'content-length': String(size) },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(put.status).toBe(200);
    const res = await p.post(`${orgPath()}/projects/${projectId}/deployments`, {
      source: 'upload',
      uploadId,
      target: 'preview',
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'The archive is larger than 250 MB.' });
    await storage().deleteKeys({ name: artifactsBucket() }, [sourceKey(projectId, uploadId)]);
  });

  it("502 Couldn't start the build. Try again.", async () => {
    const { projectId } = await newProject(p, 'static');
    const uploadId = await upload(p, projectId, staticArchive);
    const res = await withBrokenDataDir(() =>
      p.post(`${orgPath()}/projects/${projectId}/deployments`, { source: 'upload', uploadId, target: 'preview' }),
    );
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "Couldn't start the build. Try again." });
    const list = await p.get(`${orgPath()}/deployments?projectId=${projectId}`);
    expect(list.body.deployments[0]).toMatchObject({ status: 'error', error: "Couldn't start the build. Try again." });
  });
});

describe('GET .../deployments (list)', () => {
  let projectId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'static'));
    for (const [i, fields] of [
      { target: 'preview', status: 'ready', branch: 'main' },
      { target: 'production', status: 'error', branch: 'main' },
      { target: 'preview', status: 'ready', branch: 'feature' },
      { target: 'preview', status: 'canceled', branch: 'feature' },
      { target: 'production', status: 'ready', branch: 'main' },
    ].entries()) {
      ids.push(await fakeDeployment(projectId, { ...fields, createdAt: Date.now() + i }));
    }
  });

  it('lists newest first, pages with a signed cursor, limit coerced from the query string', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `projectId=${projectId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await p.get(`${orgPath()}/deployments?${q}`);
      expect(res.status).toBe(200);
      expect(res.body.deployments.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.deployments.map((d: { deploymentId: string }) => d.deploymentId));
      cursor = res.body.cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([...ids].reverse());
    const all = await p.get(`${orgPath()}/deployments`);
    expect(all.status).toBe(200);
    const orgIds = all.body.deployments.map((d: { deploymentId: string }) => d.deploymentId);
    expect(orgIds.indexOf(ids[4])).toBeLessThan(orgIds.indexOf(ids[0]));
  });

  it('filters by target, status and branch', async () => {
    const get = async (q: string) =>
      (await p.get(`${orgPath()}/deployments?projectId=${projectId}&${q}`)).body.deployments.map(
        (d: { deploymentId: string }) => d.deploymentId,
      );
    expect(await get('target=production')).toEqual([ids[4], ids[1]]);
    expect(await get('status=ready')).toEqual([ids[4], ids[2], ids[0]]);
    expect(await get('branch=feature')).toEqual([ids[3], ids[2]]);
    expect(await get('branch=feature&status=ready&limit=1')).toEqual([ids[2]]);
    // Organization-wide with filters too.
    const org = await p.get(`${orgPath()}/deployments?status=canceled&target=preview`);
    expect(org.body.deployments.map((d: { deploymentId: string }) => d.deploymentId)).toContain(ids[3]);
  });

  it('validates the query', async () => {
    for (const q of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      // Decimal digits only: Number() would read these as 16, 100, 0 and 5.
      'limit=0x10',
      'limit=1e2',
      'limit=%20',
      'limit=%2B5',
      'status=done',
      'target=dev',
      'branch=',
      'cursor=',
    ]) {
      const res = await p.get(`${orgPath()}/deployments?${q}`);
      expect(res.status).toBe(400);
    }
  });

  it('400 Invalid page cursor: made by hand, or from another list', async () => {
    const first = await p.get(`${orgPath()}/deployments?projectId=${projectId}&limit=1`);
    const other = await p.get(`${orgPath()}/deployments?cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    const forged = await p.get(`${orgPath()}/deployments?cursor=eyJwayI6IngifQ.abc`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
  });

  it('404 Project not found', async () => {
    for (const id of [unknownProject(), 'x']) {
      const res = await p.get(`${orgPath()}/deployments?projectId=${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Project not found' });
    }
  });
});

describe('GET .../deployments/:deploymentId and its logs', () => {
  it('404 Deployment not found on every deployment route', async () => {
    for (const id of [unknownDeployment(), 'dpl_nope!', 'prj_x']) {
      for (const path of ['', '/build-log', '/logs', '/runtime-logs', '/runtime-logs/tail']) {
        const res = await p.get(`${orgPath()}/deployments/${encodeURIComponent(id)}${path}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Deployment not found' });
      }
    }
  });

  it("404 Project not found: the deployment's project is gone", async () => {
    const id = await fakeDeployment(unknownProject(), {});
    const res = await p.get(`${orgPath()}/deployments/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });

  it('build-log: 400 for a cursor of another deployment or a forged one', async () => {
    const { projectId } = await newProject(p, 'static');
    const a = await deploy(p, projectId, staticArchive);
    const b = await fakeDeployment(projectId, { status: 'building' });
    const page = await p.get(`${orgPath()}/deployments/${b}/build-log`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ lines: [], cursor: expect.any(String), status: 'building', error: null, done: false });
    const wrong = await p.get(`${orgPath()}/deployments/${a.deploymentId}/build-log?cursor=${page.body.cursor}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    const long = await p.get(`${orgPath()}/deployments/${b}/build-log?cursor=${'x'.repeat(2049)}`);
    expect(long.status).toBe(400);
    await waitFinal(p, a.deploymentId);
  });

  it('runtime-logs/tail validates since', async () => {
    const { projectId } = await newProject(p, 'static');
    const id = await fakeDeployment(projectId, {});
    for (const since of ['-1', 'soon', '1.5', '0x10', '1e2', '%20', '']) {
      const res = await p.get(`${orgPath()}/deployments/${id}/runtime-logs/tail?since=${since}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request');
    }
    const ok = await p.get(`${orgPath()}/deployments/${id}/runtime-logs/tail?since=0100`);
    expect(ok.status).toBe(200);
    const q = await p.get(`${orgPath()}/deployments/${id}/runtime-logs?q=${'x'.repeat(201)}`);
    expect(q.status).toBe(400);
  });
});

describe('POST .../redeploy', () => {
  let projectId: string;
  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'static'));
  });
  const redeploy = (id: string) => p.post(`${orgPath()}/deployments/${id}/redeploy`);

  it('404 Deployment not found; 404 Project not found', async () => {
    const missing = await redeploy(unknownDeployment());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Deployment not found' });
    const orphan = await redeploy(await fakeDeployment(unknownProject(), {}));
    expect(orphan.status).toBe(404);
    expect(orphan.body).toEqual({ error: 'Project not found' });
  });

  it('409 This deployment is still in progress.', async () => {
    for (const status of ['queued', 'building', 'deploying']) {
      const res = await redeploy(await fakeDeployment(projectId, { status, source: 'upload' }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'This deployment is still in progress.' });
    }
  });

  it('409 This upload has expired. Deploy again from your terminal.', async () => {
    const gone = await fakeDeployment(projectId, {
      source: 'upload',
      sourceArchive: sourceKey(projectId, newId('up_')),
    });
    const old = await fakeDeployment(projectId, {
      source: 'upload',
      sourceArchive: sourceKey(projectId, await upload(p, projectId, staticArchive)),
      createdAt: Date.now() - 31 * 86_400_000,
    });
    for (const id of [gone, old]) {
      const res = await redeploy(id);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'This upload has expired. Deploy again from your terminal.' });
    }
  });

  it('409 This deployment has no commit to build.', async () => {
    const res = await redeploy(await fakeDeployment(projectId, { source: 'git', branch: 'main' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This deployment has no commit to build.' });
  });

  it('409 Link a repository to this project first.', async () => {
    const res = await redeploy(await fakeDeployment(projectId, { source: 'git', branch: 'main', commitSha: SHA }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Link a repository to this project first.' });
  });

  it("502 Couldn't start the build. Try again.", async () => {
    const d = await deploy(p, projectId, staticArchive);
    await waitFinal(p, d.deploymentId);
    const res = await withBrokenDataDir(() => redeploy(d.deploymentId));
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "Couldn't start the build. Try again." });
  });
});

describe('POST .../promote', () => {
  let projectId: string;
  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'node'));
  });
  const promote = (id: string) => p.post(`${orgPath()}/deployments/${id}/promote`);

  it('404 Deployment not found; 404 Project not found', async () => {
    const missing = await promote(unknownDeployment());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Deployment not found' });
    const orphan = await promote(await fakeDeployment(unknownProject(), {}));
    expect(orphan.status).toBe(404);
    expect(orphan.body).toEqual({ error: 'Project not found' });
  });

  it('409 This deployment has expired. Redeploy it instead.', async () => {
    const res = await promote(await fakeDeployment(projectId, { status: 'expired' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This deployment has expired. Redeploy it instead.' });
  });

  it('409 Only ready deployments can be promoted.', async () => {
    for (const status of ['queued', 'building', 'deploying', 'error', 'canceled', 'skipped']) {
      const res = await promote(await fakeDeployment(projectId, { status }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'Only ready deployments can be promoted.' });
    }
  });

  it("409 This deployment's server function was removed. Redeploy it instead.", async () => {
    const d = await deploy(p, projectId, nodeArchive);
    expect((await waitFinal(p, d.deploymentId)).function).not.toBeNull();
    expect((await edgeFetch(env.edge, d.host, '/')).status).toBe(200);
    await removeFunction({ ...functionKey(p.org.orgId, projectId, d.deploymentId), deploymentId: d.deploymentId });
    const res = await promote(d.deploymentId);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "This deployment's server function was removed. Redeploy it instead." });
    expect((await p.get(`${orgPath()}/deployments/${d.deploymentId}`)).body.function).toBeNull();
    // Redeploying brings it back.
    const again = await p.post(`${orgPath()}/deployments/${d.deploymentId}/redeploy`);
    expect(again.status).toBe(201);
    expect((await waitFinal(p, again.body.deployment.deploymentId)).deployment.status).toBe('ready');
    expect((await promote(again.body.deployment.deploymentId)).status).toBe(200);
    const twice = await promote(again.body.deployment.deploymentId);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ error: 'This is already the production deployment.' });
  });

  it("502 Couldn't update production routing. Try again.", async () => {
    const { projectId: moving } = await newProject(p, 'static');
    const id = await fakeDeployment(moving, {});
    // A transfer under way holds the project: production routing can't change until it ends.
    const setStatus = (status: string) =>
      db.send(
        new UpdateCommand({
          TableName: TABLE(),
          Key: projectKeys.project(p.org.orgId, moving),
          UpdateExpression: 'SET #s = :s',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':s': status },
        }),
      );
    await setStatus('transferring');
    const res = await promote(id);
    await setStatus('active');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "Couldn't update production routing. Try again." });
  });
});

describe('project delete and transfer stop and remove server functions', () => {
  it('delete: the function process and its files are gone, the host answers 404', async () => {
    const { projectId } = await newProject(p, 'node');
    const d = await deploy(p, projectId, nodeArchive);
    await waitFinal(p, d.deploymentId);
    expect((await edgeFetch(env.edge, d.host, '/')).status).toBe(200);
    expect(hasFunction(d.deploymentId)).toBe(true);
    const res = await p.delete(`${orgPath()}/projects/${projectId}`);
    expect(res.status).toBe(204);
    expect(hasFunction(d.deploymentId)).toBe(false);
    expect((await edgeFetch(env.edge, d.host, '/')).status).toBe(404);
  });

  it('transfer: functions stay behind, the moved deployments say to redeploy', async () => {
    const { projectId } = await newProject(p, 'node');
    const d = await deploy(p, projectId, nodeArchive);
    await waitFinal(p, d.deploymentId);
    expect((await edgeFetch(env.edge, d.host, '/')).status).toBe(200);
    const target = await p.newOrg();
    await addMember(target.org.orgId, p.owner.email, 'owner');
    const res = await p.post(`${orgPath()}/projects/${projectId}/transfer`, { orgId: target.org.orgId });
    expect(res.status).toBe(200);
    expect(hasFunction(d.deploymentId)).toBe(false);
    const moved = await p.get(`/v1/orgs/${target.org.orgId}/deployments/${d.deploymentId}`);
    expect(moved.status).toBe(200);
    expect(moved.body.function).toBeNull();
    const promote = await p.post(`/v1/orgs/${target.org.orgId}/deployments/${d.deploymentId}/promote`);
    expect(promote.status).toBe(409);
    expect(promote.body).toEqual({ error: "This deployment's server function was removed. Redeploy it instead." });
  });
});
