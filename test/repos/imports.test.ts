import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handler as sweepWorker } from '../../functions/workers/repo-imports-sweep';
import {
  getImport,
  IMPORT_M,
  IMPORT_QUEUE_HOURS,
  IMPORT_RUN_HOURS,
  importKey,
  MAX_ACTIVE_IMPORTS,
  putImport,
} from '../../shared/domains/repos/imports/records';
import { createRepository, M } from '../../shared/domains/repos/records';
import { git } from '../../shared/ports/git';
import { storage } from '../../shared/ports/object-storage';
import { Cli } from '../cli/helpers';
import { serveGit } from '../helpers/git-server';
import { TestPlatform } from '../helpers/platform';
import { until } from '../helpers/until';
import { gitCli } from './git-cli';

/**
 * Imports of existing repositories through the local gateway, run by the local builder with the
 * real git: a 100 MB repository with branches and tags served on loopback (a private one: the
 * password travels in the URL and is never answered) is imported and cloned back with every ref
 * equal; the source's Git LFS objects brought along (served by the test's LFS server) and a link
 * of its batch answer to the metadata address refused; a failed and a cancelled import leave no
 * repository; the URL's query, fragment and credentials are never kept, answered or logged; the
 * listed errors; another organization sees nothing.
 */
let p: TestPlatform;
let home: string;
let server: Awaited<ReturnType<typeof serveGit>>;
const PASSWORD = 'source-secret-7f3a';
const imports = (orgId = p.org.orgId) => `/v1/orgs/${orgId}/repos/-/imports`;
const { ok } = gitCli(() => home);
let n = 0;
const unique = (base = 'imp') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;

const MB = 1024 * 1024;
/** An import id of the shape the route makes, for records written straight to the store. */
const newImportId = () =>
  `imp_${Date.now().toString(36).padStart(26, '0').slice(-20)}${(n++).toString(36).padStart(6, '0')}`;

/** A bare repository `<name>.git` under the server's root: `files` of `mb` random MB each per branch. */
async function makeSource(root: string, name: string, branches: Record<string, number[]>) {
  const work = join(home, `${name}-work`);
  mkdirSync(work);
  await ok(work, ['init', '-q', '--initial-branch=main']);
  // Random data doesn't compress or delta: git is told not to try.
  await ok(work, ['config', 'core.bigFileThreshold', '1m']);
  await ok(work, ['config', 'core.compression', '0']);
  let i = 0;
  for (const [branch, sizes] of Object.entries(branches)) {
    if (branch !== 'main') await ok(work, ['checkout', '-q', '-b', branch, 'main']);
    for (const size of sizes) {
      writeFileSync(join(work, `data-${i++}.bin`), size > 0 ? randomBytes(size * MB) : `file ${i}\n`);
      await ok(work, ['add', '.']);
      await ok(work, ['commit', '-q', '-m', `Add ${i} to ${branch}`]);
    }
    await ok(work, ['tag', `${branch}-light`]);
    await ok(work, ['tag', '-a', `${branch}-v1`, '-m', `Release of ${branch}`]);
  }
  await ok(work, ['checkout', '-q', 'main']);
  const bare = join(root, `${name}.git`);
  await ok(home, ['clone', '-q', '--bare', work, bare]);
  await ok(bare, ['config', 'core.bigFileThreshold', '1m']);
  return bare;
}

const refsOf = (gitDir: string) =>
  ok(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags']);

const withPassword = (url: string) => url.replace('://', `://source:${PASSWORD}@`);

/** The import once finished, asked twice a second (each ask is a request: an import runs for seconds). */
async function finalState(importId: string, orgId = p.org.orgId, token?: string) {
  return until(
    async () => {
      const res = await p.get(`${imports(orgId)}/${importId}`, token ? { token } : undefined);
      return ['succeeded', 'failed', 'cancelled'].includes(res.body.import?.state) ? res.body.import : undefined;
    },
    80_000,
    500,
  );
}

let bigSource: string;
let smallSource: string;
let root: string;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** What the source named `evil` answers for its second LFS object: the cloud's metadata service. */
const METADATA = 'https://169.254.169.254/latest/meta-data/iam/security-credentials/';

/**
 * A bare repository `<name>.git` whose `*.bin` files are tracked by Git LFS (`main` and `assets`,
 * one object on both), its objects where the server serves them from. Answers each file's bytes.
 */
async function makeLfsSource(name: string): Promise<Record<string, Buffer>> {
  const work = join(home, `${name}-work`);
  mkdirSync(work);
  await ok(work, ['init', '-q', '--initial-branch=main']);
  await ok(work, ['lfs', 'track', '*.bin']);
  const files: Record<string, Buffer> = { 'a.bin': randomBytes(3 * MB), 'b.bin': randomBytes(1 * MB) };
  writeFileSync(join(work, 'a.bin'), files['a.bin'] as Buffer);
  writeFileSync(join(work, 'same.bin'), files['a.bin'] as Buffer);
  await ok(work, ['add', '.']);
  await ok(work, ['commit', '-q', '-m', 'Large files']);
  await ok(work, ['checkout', '-q', '-b', 'assets']);
  writeFileSync(join(work, 'b.bin'), files['b.bin'] as Buffer);
  await ok(work, ['add', '.']);
  await ok(work, ['commit', '-q', '-m', 'One more']);
  await ok(work, ['checkout', '-q', 'main']);
  const bare = join(root, `${name}.git`);
  await ok(home, ['clone', '-q', '--bare', work, bare]);
  cpSync(join(work, '.git', 'lfs', 'objects'), join(bare, 'lfs', 'objects'), { recursive: true });
  return files;
}

/** The keys of the organization's LFS objects in the platform's bucket. */
const lfsKeys = async (orgId: string) =>
  (await storage().listKeys({ name: process.env.ARTIFACTS_BUCKET as string }, `repo-lfs/${orgId}/`, 1000)).keys.map(
    (k) => k.key,
  );

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'imports-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'imports-home-'));
  // As `npm start` sets it: loopback sources are allowed on one machine.
  process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
  // The platform's artifacts bucket (LFS objects live there; a removed repository's are looked for).
  process.env.ARTIFACTS_BUCKET = `imports-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  p = await TestPlatform.start();
  await ok(home, ['lfs', 'install', '--skip-repo']);
  root = join(home, 'served');
  mkdirSync(root);
  server = await serveGit(root, {
    password: PASSWORD,
    lfsHref: (name, _oid, index, own) => (name === 'evil' && index === 1 ? METADATA : own),
  });
  bigSource = await makeSource(root, 'big', { main: [30, 10, 0], feature: [20, 10], release: [25, 5] });
  smallSource = await makeSource(root, 'small', { main: [0, 0], dev: [0] });
}, 60_000);
afterAll(async () => {
  delete process.env.LOCAL_CONNECTORS_LOOPBACK;
  await server.close();
  await p.close();
});

describe('an import', () => {
  it('brings a 100 MB repository with its branches and tags in, and it clones with every ref equal', async () => {
    const name = unique('big');
    const started = await p.post(imports(), { url: withPassword(server.url('big')), name, description: 'Moved in' });
    expect(started.status).toBe(202);
    expect(started.text).not.toContain(PASSWORD);
    expect(started.body.import).toMatchObject({
      url: server.url('big'),
      name,
      state: 'queued',
      progress: { phase: 'queued', objects: 0, bytes: 0 },
      repository: null,
    });
    const done = await finalState(started.body.import.importId);
    expect(done).toMatchObject({ state: 'succeeded', message: null, progress: { phase: 'done' } });
    expect(done.progress.bytes).toBeGreaterThan(95 * MB);
    expect(done.progress.objects).toBeGreaterThan(10);
    expect(done.repository.name).toBe(name);

    const repo = await p.get(`/v1/orgs/${p.org.orgId}/repos/${name}`);
    expect(repo.status).toBe(200);
    expect(repo.body).toMatchObject({ status: 'active', defaultBranch: 'main', empty: false });
    expect(repo.body.branches.sort()).toEqual(['feature', 'main', 'release']);
    expect(repo.body.tags).toHaveLength(6);

    const key = await p.apiKey(['git:read']);
    const clone = join(mkdtempSync(join(home, 'clone-')), 'copy.git');
    await ok(home, ['clone', '-q', '--mirror', repo.body.cloneUrl.replace('://', `://git:${key}@`), clone]);
    expect(await refsOf(clone)).toBe(await refsOf(bigSource));

    const list = await p.get(imports());
    expect(list.status).toBe(200);
    expect(list.body.imports.map((i: { importId: string }) => i.importId)).toContain(done.importId);
    expect(list.text).not.toContain(PASSWORD);
  }, 300_000);

  it('takes the name from the URL, and credentials given apart', async () => {
    const started = await p.post(imports(), { url: server.url('small'), username: 'source', password: PASSWORD });
    expect(started.status).toBe(202);
    expect(started.body.import.name).toBe('small');
    expect(started.text).not.toContain(PASSWORD);
    expect(await finalState(started.body.import.importId)).toMatchObject({ state: 'succeeded' });
    const clone = join(mkdtempSync(join(home, 'clone-')), 'small.git');
    const key = await p.apiKey(['git:read']);
    const repo = await p.get(`/v1/orgs/${p.org.orgId}/repos/small`);
    await ok(home, ['clone', '-q', '--mirror', repo.body.cloneUrl.replace('://', `://git:${key}@`), clone]);
    expect(await refsOf(clone)).toBe(await refsOf(smallSource));
  }, 60_000);

  it('fails on a source it cannot fetch, and leaves no repository', async () => {
    const name = unique('gone');
    const started = await p.post(imports(), { url: 'http://127.0.0.1:1/nothing.git', name });
    expect(started.status).toBe(202);
    const done = await finalState(started.body.import.importId);
    expect(done).toMatchObject({ state: 'failed', message: IMPORT_M.unreachable, repository: null });
    expect((await p.get(`/v1/orgs/${p.org.orgId}/repos/${name}`)).status).toBe(404);
    expect((await p.get(`/v1/orgs/${p.org.orgId}/repos/-/available?name=${name}`)).body.available).toBe(true);
  }, 60_000);

  it('fails with the wrong password, which is never answered', async () => {
    const started = await p.post(imports(), {
      url: server.url('small').replace('://', '://source:wrong-pass@'),
      name: unique('nopass'),
    });
    expect(started.status).toBe(202);
    const done = await finalState(started.body.import.importId);
    expect(done).toMatchObject({ state: 'failed', message: IMPORT_M.unreachable });
    expect(JSON.stringify(done)).not.toContain('wrong-pass');
  }, 60_000);

  it('is cancelled: its work stops and nothing is left', async () => {
    const name = unique('cancel');
    const started = await p.post(imports(), { url: withPassword(server.url('big')), name });
    expect(started.status).toBe(202);
    const id = started.body.import.importId;
    const cancelled = await p.post(`${imports()}/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.import).toMatchObject({ state: 'cancelled', message: IMPORT_M.cancelled, repository: null });
    expect((await p.get(`/v1/orgs/${p.org.orgId}/repos/${name}`)).status).toBe(404);
    const again = await p.post(`${imports()}/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(IMPORT_M.finished);
    expect((await p.get(`${imports()}/${id}`)).body.import.state).toBe('cancelled');
  }, 60_000);
});

describe("the URL's secrets", () => {
  it('keeps, answers and logs no query, fragment, user name or password of the URL', async () => {
    const secret = `tok-${randomBytes(8).toString('hex')}`;
    const lines: string[] = [];
    const writes = { out: process.stdout.write, err: process.stderr.write };
    const level = process.env.LOG_LEVEL;
    const capture = (original: typeof process.stdout.write) =>
      function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
        lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      } as typeof process.stdout.write;
    // Log lines: this process's (the routes') and the import job's, which the local builder writes through it.
    process.env.LOG_LEVEL = 'info';
    process.stdout.write = capture(writes.out);
    process.stderr.write = capture(writes.err);
    try {
      const clean = 'http://127.0.0.1:1/nothing.git';
      const url = `http://user-${secret}:pw-${secret}@127.0.0.1:1/nothing.git?token=${secret}#frag-${secret}`;
      const started = await p.post(imports(), { url, name: unique('query') });
      expect(started.status).toBe(202);
      expect(started.body.import.url).toBe(clean);
      const id = started.body.import.importId;
      const done = await finalState(id);
      expect(done).toMatchObject({ state: 'failed', message: IMPORT_M.unreachable, url: clean });
      // The job's lines to its end: git's own error (naming the URL it was given) among them.
      await until(() => lines.some((l) => l.includes('repository import ended') && l.includes(id)), 20_000);
      expect(lines.some((l) => l.includes('clone failed') && l.includes(id) && l.includes(clean))).toBe(true);
      const list = await p.get(imports());
      const record = await getImport(p.org.orgId, id);
      expect(record?.url).toBe(clean);
      for (const text of [started.text, JSON.stringify(done), list.text, JSON.stringify(record), lines.join('')]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      process.stdout.write = writes.out;
      process.stderr.write = writes.err;
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    }
  }, 60_000);
});

describe('Git LFS objects of the source', () => {
  it('are brought along, checked, through the guarded path: a clone and git lfs pull give the same bytes', async () => {
    const files = await makeLfsSource('media');
    const name = unique('media');
    const started = await p.post(imports(), { url: withPassword(server.url('media')), name });
    expect(started.status).toBe(202);
    const done = await finalState(started.body.import.importId);
    expect(done).toMatchObject({ state: 'succeeded', message: null });
    // The git history's bytes and the LFS objects' (3 MB and 1 MB: the same object twice is read once).
    expect(done.progress.bytes).toBeGreaterThan(4 * MB);
    expect(server.lfsServed.filter((oid) => oid === sha256(files['a.bin'] as Buffer))).toHaveLength(1);
    const stored = await lfsKeys(p.org.orgId);
    for (const bytes of Object.values(files)) {
      expect(stored).toContain(`repo-lfs/${p.org.orgId}/${done.repository.resourceId}/${sha256(bytes)}`);
    }

    const key = await p.apiKey(['git:read']);
    const repo = await p.get(`/v1/orgs/${p.org.orgId}/repos/${name}`);
    const dir = mkdtempSync(join(home, 'clone-'));
    await ok(dir, ['clone', '-q', repo.body.cloneUrl.replace('://', `://git:${key}@`), 'copy'], {
      GIT_LFS_SKIP_SMUDGE: '1',
    });
    const copy = join(dir, 'copy');
    // Pointers until pulled: the objects come from the platform, not the source.
    expect(readFileSync(join(copy, 'a.bin'), 'utf8')).toContain(`oid sha256:${sha256(files['a.bin'] as Buffer)}`);
    await ok(copy, ['lfs', 'pull']);
    expect(sha256(readFileSync(join(copy, 'a.bin')))).toBe(sha256(files['a.bin'] as Buffer));
    expect(sha256(readFileSync(join(copy, 'same.bin')))).toBe(sha256(files['a.bin'] as Buffer));
    await ok(copy, ['checkout', '-q', 'assets']);
    expect(sha256(readFileSync(join(copy, 'b.bin')))).toBe(sha256(files['b.bin'] as Buffer));
  }, 90_000);

  it('a link to a private or link-local address is refused: the import fails and leaves nothing', async () => {
    await makeLfsSource('evil');
    const other = await p.newOrg();
    const name = unique('evil');
    const servedBefore = server.lfsServed.length;
    const started = await p.post(
      imports(other.org.orgId),
      { url: withPassword(server.url('evil')), name },
      { token: other.owner.token },
    );
    expect(started.status).toBe(202);
    const done = await finalState(started.body.import.importId, other.org.orgId, other.owner.token);
    expect(done).toMatchObject({ state: 'failed', message: IMPORT_M.lfsUnsafe, repository: null });
    // The first object was read from the source (and stored) before the second's link was refused.
    expect(server.lfsServed.length).toBe(servedBefore + 1);
    const seen = await p.get(`/v1/orgs/${other.org.orgId}/repos/${name}`, { token: other.owner.token });
    expect(seen.status).toBe(404);
    expect(await lfsKeys(other.org.orgId)).toEqual([]);
  }, 60_000);
});

describe('the sweep of crashed imports', () => {
  /** An import record of `orgId` in `state`, made `hoursAgo`, filling a new repository (with an LFS object). */
  async function crashedImport(orgId: string, userId: string, state: 'queued' | 'running', hoursAgo: number) {
    const importId = newImportId();
    const name = unique('crashed');
    const repo = await createRepository(orgId, { kind: 'user', userId }, { name, importId });
    await git().create(repo.resourceId, 'main');
    const lfsKey = `repo-lfs/${orgId}/${repo.resourceId}/${'a'.repeat(64)}`;
    const bucket = { name: process.env.ARTIFACTS_BUCKET as string };
    const put = await storage().presignPut(bucket, lfsKey, { contentType: 'application/octet-stream', expiresIn: 60 });
    const headers = { 'content-type': 'application/octet-stream' };
    expect((await fetch(put, { method: 'PUT', headers, body: 'partial' })).status).toBe(200);
    const at = Date.now() - hoursAgo * 3_600_000;
    await putImport({
      ...importKey(orgId, importId),
      importId,
      orgId,
      url: 'https://example.com/x.git',
      name,
      repoId: repo.resourceId,
      state,
      progress: { phase: state === 'queued' ? 'queued' : 'pushing', objects: 10, bytes: 1000 },
      message: null,
      createdBy: userId,
      createdAt: at,
      updatedAt: at,
    });
    return { importId, name };
  }

  it('fails an import still queued or running past its time limit and removes its repository; a younger one is left', async () => {
    const other = await p.newOrg();
    const as = { token: other.owner.token };
    const limit = IMPORT_QUEUE_HOURS + IMPORT_RUN_HOURS;
    const running = await crashedImport(other.org.orgId, other.owner.userId, 'running', limit + 1);
    const queued = await crashedImport(other.org.orgId, other.owner.userId, 'queued', limit + 0.5);
    const young = await crashedImport(other.org.orgId, other.owner.userId, 'running', limit - 0.5);

    const result = await sweepWorker();
    expect(result.swept).toBeGreaterThanOrEqual(2);
    expect(result.failed).toBe(0);
    for (const gone of [running, queued]) {
      const seen = (await p.get(`${imports(other.org.orgId)}/${gone.importId}`, as)).body.import;
      expect(seen).toMatchObject({ state: 'failed', message: IMPORT_M.overdue, repository: null });
      expect(seen.finishedAt).toEqual(expect.any(Number));
      expect((await p.get(`/v1/orgs/${other.org.orgId}/repos/${gone.name}`, as)).status).toBe(404);
    }
    const left = (await p.get(`${imports(other.org.orgId)}/${young.importId}`, as)).body.import;
    expect(left).toMatchObject({ state: 'running', message: null });
    expect((await p.get(`/v1/orgs/${other.org.orgId}/repos/${young.name}`, as)).status).toBe(200);
    // Only the younger import's LFS object is left; a second sweep finds nothing more to do.
    expect((await lfsKeys(other.org.orgId)).length).toBe(1);
    expect(await sweepWorker()).toEqual({ swept: 0, failed: 0 });
  });
});

describe('refusals', () => {
  it.each([
    ['ftp://example.com/repo.git', IMPORT_M.badUrl],
    ['not a url', IMPORT_M.badUrl],
    ['http://example.com/repo.git', 'url must use https.'],
    ['https://10.0.0.8/repo.git', "url can't be reached from the platform: it is not a public address."],
    ['https://git.internal/repo.git', "url can't be reached from the platform: it names a private network."],
    ['https://169.254.169.254/repo.git', "url can't be reached from the platform: it is not a public address."],
    ['https://us%zzer:pass@example.com/repo.git', IMPORT_M.badUrl],
    ['https://user:p%ss@example.com/repo.git', IMPORT_M.badUrl],
  ])('refuses %s', async (url, message) => {
    const res = await p.post(imports(), { url, name: unique() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('refuses loopback where npm start does not allow it', async () => {
    delete process.env.LOCAL_CONNECTORS_LOOPBACK;
    try {
      const res = await p.post(imports(), { url: server.url('small'), name: unique() });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('url must use https.');
    } finally {
      process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
    }
  });

  it('refuses a name in use, a name that is not one, and a URL no name comes from', async () => {
    const name = unique('taken');
    expect((await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name })).status).toBe(201);
    const taken = await p.post(imports(), { url: server.url('small'), name });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(M.nameTaken);
    const bad = await p.post(imports(), { url: server.url('small'), name: 'Not_A_Name' });
    expect(bad.status).toBe(400);
    const none = await p.post(imports(), { url: 'https://example.com/', name: undefined });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('Name the repository: no name can be made from this URL.');
  });

  it(`refuses a ${MAX_ACTIVE_IMPORTS + 1}th import while ${MAX_ACTIVE_IMPORTS} run`, async () => {
    const other = await p.newOrg();
    for (let i = 0; i < MAX_ACTIVE_IMPORTS; i++) {
      const importId = `imp_${'0'.repeat(25)}${i}`;
      await putImport({
        ...importKey(other.org.orgId, importId),
        importId,
        orgId: other.org.orgId,
        url: 'https://example.com/x.git',
        name: `running-${i}`,
        repoId: 'res_none',
        state: 'running',
        progress: { phase: 'cloning', objects: 0, bytes: 0 },
        message: null,
        createdBy: other.owner.userId,
        createdAt: Date.now(),
        updatedAt: Date.now(),
      });
    }
    const res = await p.post(
      imports(other.org.orgId),
      { url: server.url('small'), name: unique() },
      { token: other.owner.token },
    );
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(IMPORT_M.tooMany);
  });

  it('needs git:write to import or cancel, git:read to read', async () => {
    const reader = await p.apiKey(['git:read']);
    const res = await p.post(imports(), { url: server.url('small'), name: unique() }, { token: reader });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Missing scope git:write');
    expect((await p.get(imports(), { token: reader })).status).toBe(200);
  });

  it('answers 404 for an import that is not there, and to another organization', async () => {
    const missing = await p.get(`${imports()}/imp_0000000000000000000000000x`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(IMPORT_M.notFound);
    expect((await p.post(`${imports()}/nope/cancel`)).status).toBe(404);

    // An import of this organization, finished: what is read here needs no job run (imports are
    // started and followed to their end above).
    const id = newImportId();
    await putImport({
      ...importKey(p.org.orgId, id),
      importId: id,
      orgId: p.org.orgId,
      url: server.url('small'),
      name: unique('mine'),
      repoId: 'res_none',
      state: 'failed',
      progress: { phase: 'cloning', objects: 0, bytes: 0 },
      message: IMPORT_M.unreachable,
      createdBy: p.owner.userId,
      createdAt: Date.now(),
      updatedAt: Date.now(),
      finishedAt: Date.now(),
    });
    expect((await p.get(`${imports()}/${id}`)).body.import).toMatchObject({ importId: id, state: 'failed' });
    const other = await p.newOrg();
    const theirs = await p.get(`${imports(other.org.orgId)}/${id}`, { token: other.owner.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe(IMPORT_M.notFound);
    const mine = await p.get(`${imports()}/${id}`, { token: other.owner.token });
    expect(mine.status).toBe(404);
    expect((await p.get(imports(other.org.orgId), { token: other.owner.token })).body.imports).toEqual([]);
  });
});

describe('platform repo import', () => {
  let cli: Cli;
  beforeAll(async () => {
    cli = new Cli();
    expect((await cli.run(['login', '--url', p.baseUrl, '--token', p.owner.token])).code).toBe(0);
  });

  it('follows the import to its end, and never prints the password', async () => {
    const name = unique('cli');
    const res = await cli.run(['repo', 'import', server.url('small'), name, '--username', 'u', '--password', PASSWORD]);
    expect(res.stderr).toContain(`Importing ${server.url('small')} into ${name}`);
    expect(res.stdout).toMatch(new RegExp(`^Imported ${name} in [\\d.]+ s: \\d+ objects, [\\d.]+ MB\\.\\n$`));
    expect(res.code).toBe(0);
    expect(`${res.stdout}${res.stderr}`).not.toContain(PASSWORD);
    expect((await p.get(`/v1/orgs/${p.org.orgId}/repos/${name}`)).body.status).toBe('active');
  }, 60_000);

  it('--no-wait --json prints the queued import; a failed one exits 1 with its reason', async () => {
    const started = await cli.run([
      'repo',
      'import',
      'http://127.0.0.1:1/gone.git',
      unique('cli'),
      '--no-wait',
      '--json',
    ]);
    expect(started.code).toBe(0);
    expect(JSON.parse(started.stdout).import).toMatchObject({ state: 'queued', url: 'http://127.0.0.1:1/gone.git' });
    const failed = await cli.run(['repo', 'import', 'http://127.0.0.1:1/gone.git', unique('cli')]);
    expect(failed).toMatchObject({ code: 1, stdout: `Import failed: ${IMPORT_M.unreachable}\n` });
    await finalState(JSON.parse(started.stdout).import.importId);
  }, 60_000);

  it('answers the API refusal, and --help has a summary and an example', async () => {
    const bad = await cli.run(['repo', 'import', 'ftp://example.com/x.git', 'x-repo']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(IMPORT_M.badUrl);
    const help = await cli.run(['repo', 'import', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Bring an existing repository in by its git URL');
    expect(help.stdout).toContain('platform repo import https://github.com/expressjs/express.git');
  });
});
