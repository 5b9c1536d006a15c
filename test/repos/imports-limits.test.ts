import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { LIMIT_M } from '../../shared/domains/repos/imports/limits';
import { storage } from '../../shared/ports/object-storage';
import { serveGit } from '../helpers/git-server';
import { TestPlatform } from '../helpers/platform';
import { until } from '../helpers/until';
import { operators } from '../platform/helpers';
import { gitCli } from './git-cli';

/**
 * The limits of one import, through the local gateway and the local builder's job: a source that
 * answers without end stops at the size cap (here 1 MB, the environment's `IMPORT_MAX_BYTES`), a
 * history or Git LFS object past the cap too, a source that stops sending stops at the lowest
 * speed (here 1,000 bytes a second over 2 seconds), and the plan's `importGb` wins over the
 * environment. Each fails the import with the message naming the limit, closes the source's
 * connection and leaves nothing: no repository, no LFS object, no folder of the job.
 */
let p: TestPlatform;
let home: string;
let workDir: string;
let root: string;
let git: Awaited<ReturnType<typeof serveGit>>;
let sources: Server;
let base: string;
const { ok } = gitCli(() => home);
const MB = 1024 * 1024;
const imports = (orgId = p.org.orgId) => `/v1/orgs/${orgId}/repos/-/imports`;
let n = 0;
const unique = (b: string) => `${b}-${Date.now().toString(36)}-${(n++).toString(36)}`;

/** The answers of the misbehaving sources still open, and how many closed (by the platform). */
const open = new Set<ServerResponse>();
let closed = 0;

/** `/endless.git/…` answers random bytes for ever; `/stalled.git/…` answers its headers, then nothing. */
function misbehaving(req: { url?: string }, res: ServerResponse) {
  open.add(res);
  res.once('close', () => {
    open.delete(res);
    closed++;
  });
  res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
  if (req.url?.startsWith('/stalled.git/')) return;
  const chunk = randomBytes(64 * 1024);
  const more = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.on('drain', more);
  more();
}

async function finalState(importId: string, orgId = p.org.orgId, token?: string) {
  return until(
    async () => {
      const res = await p.get(`${imports(orgId)}/${importId}`, token ? { token } : undefined);
      return ['succeeded', 'failed', 'cancelled'].includes(res.body.import?.state) ? res.body.import : undefined;
    },
    60_000,
    250,
  );
}

/** The import ended `message`, and nothing of it is left: repository, LFS objects, the job's folder. */
async function expectNothingLeft(started: { body: { import: { importId: string; name: string } } }, message: string) {
  const done = await finalState(started.body.import.importId);
  expect(done).toMatchObject({ state: 'failed', message, repository: null });
  const name = started.body.import.name;
  expect((await p.get(`/v1/orgs/${p.org.orgId}/repos/${name}`)).status).toBe(404);
  expect((await p.get(`/v1/orgs/${p.org.orgId}/repos/-/available?name=${name}`)).body.available).toBe(true);
  // The job removes its folder as it ends (after the record's final state).
  expect(await until(() => readdirSync(workDir).length === 0, 20_000)).toBe(true);
  const lfs = await storage().listKeys(
    { name: process.env.ARTIFACTS_BUCKET as string },
    `repo-lfs/${p.org.orgId}/`,
    10,
  );
  expect(lfs.keys).toEqual([]);
}

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'imports-limits-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'imports-limits-home-'));
  // The job's folders go here (the job inherits this environment), so a test sees them go.
  workDir = mkdtempSync(join(home, 'work-'));
  process.env.IMPORT_WORK_DIR = workDir;
  process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
  process.env.ARTIFACTS_BUCKET = `imports-limits-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  p = await TestPlatform.start();
  await ok(home, ['lfs', 'install', '--skip-repo']);
  root = join(home, 'served');
  mkdirSync(root);
  git = await serveGit(root);
  sources = createServer(misbehaving);
  await new Promise<void>((resolve) => sources.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(sources.address() as { port: number }).port}`;
}, 60_000);
afterEach(() => {
  delete process.env.IMPORT_MAX_BYTES;
  delete process.env.IMPORT_LOW_SPEED_BYTES;
  delete process.env.IMPORT_LOW_SPEED_SECONDS;
});
afterAll(async () => {
  delete process.env.LOCAL_CONNECTORS_LOOPBACK;
  delete process.env.IMPORT_WORK_DIR;
  sources.closeAllConnections();
  await new Promise((resolve) => sources.close(resolve));
  await git.close();
  await p.close();
});

/** A bare repository `<name>.git` served by `git`: one commit of `mb` random MB (its `*.bin` in LFS when `lfs`). */
async function makeSource(name: string, mb: number, lfs = false) {
  const work = join(home, `${name}-work`);
  mkdirSync(work);
  await ok(work, ['init', '-q', '--initial-branch=main']);
  await ok(work, ['config', 'core.compression', '0']);
  if (lfs) await ok(work, ['lfs', 'track', '*.bin']);
  writeFileSync(join(work, 'data.bin'), randomBytes(mb * MB));
  await ok(work, ['add', '.']);
  await ok(work, ['commit', '-q', '-m', 'Data']);
  const bare = join(root, `${name}.git`);
  await ok(home, ['clone', '-q', '--bare', work, bare]);
  if (lfs) cpSync(join(work, '.git', 'lfs', 'objects'), join(bare, 'lfs', 'objects'), { recursive: true });
}

describe('the size cap', () => {
  it('stops a source that answers without end, closes its connection and leaves nothing', async () => {
    process.env.IMPORT_MAX_BYTES = String(MB);
    const closedBefore = closed;
    const started = await p.post(imports(), { url: `${base}/endless.git`, name: unique('endless') });
    expect(started.status).toBe(202);
    await expectNothingLeft(started, LIMIT_M.tooLarge(MB));
    expect(LIMIT_M.tooLarge(MB)).toBe(
      'The source sent more than 1 MB, the most one import may take, and the import was stopped.',
    );
    expect(await until(() => closed > closedBefore && open.size === 0, 20_000)).toBe(true);
  }, 90_000);

  it('stops a history larger than the cap', async () => {
    await makeSource('heavy', 3);
    process.env.IMPORT_MAX_BYTES = String(MB);
    const started = await p.post(imports(), { url: git.url('heavy'), name: unique('heavy') });
    expect(started.status).toBe(202);
    await expectNothingLeft(started, LIMIT_M.tooLarge(MB));
  }, 90_000);

  it('counts the Git LFS objects: a small history with a 3 MB object passes a 1 MB cap', async () => {
    await makeSource('heavy-lfs', 3, true);
    process.env.IMPORT_MAX_BYTES = String(MB);
    const started = await p.post(imports(), { url: git.url('heavy-lfs'), name: unique('heavy-lfs') });
    expect(started.status).toBe(202);
    await expectNothingLeft(started, LIMIT_M.tooLarge(MB));
  }, 90_000);

  it("is the plan's importGb where the organization's plan sets it, over the environment's", async () => {
    const ops = await operators(p);
    const plan = unique('no-imports');
    const as = { token: ops.owner.token };
    expect(
      (await p.put(`/v1/platform/plans/${plan}`, { name: 'No imports', limits: { importGb: 0 } }, as)).status,
    ).toBe(201);
    const other = await p.newOrg();
    expect((await p.patch(`/v1/platform/orgs/${other.org.orgId}`, { planId: plan }, as)).status).toBe(200);
    await makeSource('tiny', 0);
    process.env.IMPORT_MAX_BYTES = String(100 * MB);
    const started = await p.post(
      imports(other.org.orgId),
      { url: git.url('tiny'), name: unique('tiny') },
      { token: other.owner.token },
    );
    expect(started.status).toBe(202);
    const done = await finalState(started.body.import.importId, other.org.orgId, other.owner.token);
    expect(done).toMatchObject({ state: 'failed', message: LIMIT_M.tooLarge(0), repository: null });
  }, 90_000);
});

describe('the lowest speed', () => {
  it('stops a source that stops sending, closes its connection and leaves nothing', async () => {
    process.env.IMPORT_LOW_SPEED_BYTES = '1000';
    process.env.IMPORT_LOW_SPEED_SECONDS = '2';
    const closedBefore = closed;
    const started = await p.post(imports(), { url: `${base}/stalled.git`, name: unique('stalled') });
    expect(started.status).toBe(202);
    const message = LIMIT_M.stalled({ lowSpeedBytes: 1000, lowSpeedSeconds: 2 });
    expect(message).toBe('The source sent less than 1,000 bytes a second for 2 seconds and the import was stopped.');
    await expectNothingLeft(started, message);
    expect(await until(() => closed > closedBefore && open.size === 0, 20_000)).toBe(true);
  }, 90_000);
});
