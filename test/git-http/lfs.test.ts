import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';
import { gitCli } from '../repos/git-cli';

/**
 * Git LFS with the real git and git-lfs clients against the local platform: a 50 MB file pushed
 * and cloned while the 6 MB request limit holds (its bytes go by presigned links to the S3 server,
 * never through the gateway), the Batch API's answers and errors, verify, locks and who may do
 * what, and objects removed with their repository.
 */
let p: TestPlatform;
let home: string;
let n = 0;
const unique = (base = 'lfs') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;
const { run, ok } = gitCli(() => home);
const authed = (url: string, password: string) => url.replace('://', `://git:${password}@`);
const workdir = () => mkdtempSync(join(home, 'work-'));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'lfs-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'lfs-home-'));
  // The platform's artifacts bucket of this file, where LFS objects go.
  process.env.ARTIFACTS_BUCKET = `repo-lfs-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  p = await TestPlatform.start();
  await ok(home, ['lfs', 'install', '--skip-repo']);
});
afterAll(() => p.close());

async function newRepo() {
  const name = unique();
  const res = await p.post(repos(), { name, readme: true });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return { name, url: res.body.repo.cloneUrl as string };
}

/** A request to the repository's LFS API with `password` as git sends it. */
function lfs(url: string, password: string, path: string, body?: unknown, method = body ? 'POST' : 'GET') {
  return fetch(`${url}/info/lfs/${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`git:${password}`).toString('base64')}`,
      accept: 'application/vnd.git-lfs+json',
      'content-type': 'application/vnd.git-lfs+json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('git lfs push and clone', () => {
  it('pushes and clones a 50 MB file; the bytes go to the bucket, not through the API', async () => {
    const key = await p.apiKey(['git:read', 'git:write']);
    const { name, url } = await newRepo();
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, key), 'repo']);
    const repo = join(dir, 'repo');
    await ok(repo, ['lfs', 'track', '*.bin']);
    const content = randomBytes(50 * 1024 * 1024);
    writeFileSync(join(repo, 'video.bin'), content);
    await ok(repo, ['add', '.']);
    await ok(repo, ['commit', '-q', '-m', 'A large file']);
    const pushed = await ok(repo, ['push', 'origin', 'main']);
    expect(pushed).toContain('main -> main');

    // The pointer is in git; the object's link is the S3 server's, not the gateway's.
    const batch = await lfs(url, key, 'objects/batch', {
      operation: 'download',
      objects: [{ oid: sha256(content), size: content.length }],
    });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('content-type')).toBe('application/vnd.git-lfs+json');
    const answer = (await batch.json()) as { objects: { actions: { download: { href: string } } }[] };
    const href = new URL(answer.objects[0]?.actions.download.href as string);
    expect(href.origin).not.toBe(new URL(p.baseUrl).origin);
    expect(href.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    const clone = workdir();
    await ok(clone, ['clone', '-q', authed(url, key), 'copy']);
    expect(sha256(readFileSync(join(clone, 'copy', 'video.bin')))).toBe(sha256(content));
    expect((await ok(join(clone, 'copy'), ['lfs', 'ls-files'])).trim()).toMatch(/ \* video\.bin$/);

    // contents/raw answers with a link to the object, and the blob view names it: no bytes through the API.
    const raw = await fetch(`${p.baseUrl}${repos()}/${name}/contents/raw?path=video.bin`, {
      headers: { authorization: `Bearer ${key}` },
      redirect: 'manual',
    });
    expect(raw.status).toBe(303);
    expect(Number(raw.headers.get('content-length') ?? 0)).toBe(0);
    const link = raw.headers.get('location') as string;
    expect(new URL(link).origin).not.toBe(new URL(p.baseUrl).origin);
    expect(sha256(Buffer.from(await (await fetch(link)).arrayBuffer()))).toBe(sha256(content));
    const blob = await p.get(`${repos()}/${name}/blob?path=video.bin`);
    expect(blob.body.lfs).toEqual({ oid: sha256(content), size: content.length, url: expect.any(String) });
    expect(blob.body.content).toContain(`oid sha256:${sha256(content)}`);

    // Deleted with its repository: nothing of it stays in the bucket.
    const stored = () =>
      storage().listKeys({ name: process.env.ARTIFACTS_BUCKET as string }, `repo-lfs/${p.org.orgId}/`, 1000);
    expect((await stored()).keys.map((k) => k.key)).toContainEqual(expect.stringMatching(sha256(content)));
    expect((await p.delete(`${repos()}/${name}?confirm=${name}`)).status).toBe(204);
    expect((await stored()).keys.map((k) => k.key)).not.toContainEqual(expect.stringMatching(sha256(content)));
  });
});

describe('the batch API', () => {
  it('uploads by a presigned link, verifies size and SHA-256, and skips stored objects', async () => {
    const key = await p.apiKey(['git:read', 'git:write']);
    const { url } = await newRepo();
    const content = randomBytes(1000);
    const object = { oid: sha256(content), size: content.length };
    const up = await lfs(url, key, 'objects/batch', { operation: 'upload', transfers: ['basic'], objects: [object] });
    expect(up.status).toBe(200);
    const { objects } = (await up.json()) as {
      objects: { actions: Record<string, { href: string; header?: Record<string, string> }> }[];
    };
    const actions = objects[0]?.actions as Record<string, { href: string; header?: Record<string, string> }>;
    expect(actions.verify?.href).toBe(`${url}/info/lfs/objects/verify`);
    // Other bytes under the oid: verify refuses them and removes them.
    const wrong = randomBytes(1000);
    const put = await fetch(actions.upload?.href as string, {
      method: 'PUT',
      headers: actions.upload?.header,
      body: wrong,
    });
    expect(put.status).toBe(200);
    // Uploaded but not verified: not the object, for downloads nor for the next upload batch.
    const before = await lfs(url, key, 'objects/batch', { operation: 'download', objects: [object] });
    expect(((await before.json()) as { objects: unknown[] }).objects[0]).toEqual({
      ...object,
      error: { code: 404, message: 'Object does not exist' },
    });
    const bad = await lfs(url, key, 'objects/verify', object);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      message: "The uploaded object doesn't match its oid and size: it was removed. Push it again.",
    });
    // Deleted: nothing of those bytes is left in the bucket, staged or in place.
    const keys = await storage().listKeys({ name: process.env.ARTIFACTS_BUCKET as string }, 'repo-lfs/', 1000);
    expect(keys.keys.map((k) => k.key).filter((k) => k.includes(object.oid))).toEqual([]);
    const missing = await lfs(url, key, 'objects/verify', object);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'The object was not uploaded. Push it again.' });

    await fetch(actions.upload?.href as string, { method: 'PUT', headers: actions.upload?.header, body: content });
    expect((await lfs(url, key, 'objects/verify', object)).status).toBe(200);
    const again = await lfs(url, key, 'objects/batch', { operation: 'upload', objects: [object] });
    expect(((await again.json()) as { objects: unknown[] }).objects[0]).toEqual({ ...object, authenticated: true });
  });

  it('an upload of other bytes of the same size, never verified, is never served: the owner pushes the real ones', async () => {
    const owner = await p.apiKey(['git:read', 'git:write']);
    const attacker = await p.apiKey(['git:read', 'git:write']);
    const { url } = await newRepo();
    const content = randomBytes(4096);
    const object = { oid: sha256(content), size: content.length };

    // The attacker asks to upload the owner's object and PUTs other bytes of its size; no verify.
    const up = await lfs(url, attacker, 'objects/batch', { operation: 'upload', objects: [object] });
    const upload = ((await up.json()) as { objects: { actions: Record<string, { href: string; header: object }> }[] })
      .objects[0]?.actions.upload as { href: string; header: Record<string, string> };
    const put = await fetch(upload.href, { method: 'PUT', headers: upload.header, body: randomBytes(4096) });
    expect(put.status).toBe(200);
    const down = await lfs(url, attacker, 'objects/batch', { operation: 'download', objects: [object] });
    expect(((await down.json()) as { objects: unknown[] }).objects[0]).toEqual({
      ...object,
      error: { code: 404, message: 'Object does not exist' },
    });
    // The next upload batch asks for the object again.
    const again = await lfs(url, owner, 'objects/batch', { operation: 'upload', objects: [object] });
    const answer = ((await again.json()) as { objects: { actions?: Record<string, unknown> }[] }).objects[0];
    expect(Object.keys(answer?.actions ?? {}).sort()).toEqual(['upload', 'verify']);

    // The owner's push uploads and verifies the real bytes; a clone gets them.
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, owner), 'repo']);
    const repo = join(dir, 'repo');
    await ok(repo, ['lfs', 'track', '*.bin']);
    writeFileSync(join(repo, 'asset.bin'), content);
    await ok(repo, ['add', '.']);
    await ok(repo, ['commit', '-q', '-m', 'An asset']);
    await ok(repo, ['push', '-q', 'origin', 'main']);
    const clone = workdir();
    await ok(clone, ['clone', '-q', authed(url, owner), 'copy']);
    expect(sha256(readFileSync(join(clone, 'copy', 'asset.bin')))).toBe(object.oid);
  });

  it('reports a missing object and bad requests, never a link or a 500', async () => {
    const key = await p.apiKey(['git:read', 'git:write']);
    const { url } = await newRepo();
    const res = await lfs(url, key, 'objects/batch', {
      operation: 'download',
      objects: [
        { oid: 'a'.repeat(64), size: 5 },
        { oid: 'nope', size: 1 },
      ],
    });
    expect(await res.json()).toEqual({
      transfer: 'basic',
      hash_algo: 'sha256',
      objects: [
        { oid: 'a'.repeat(64), size: 5, error: { code: 404, message: 'Object does not exist' } },
        {
          oid: 'nope',
          size: 1,
          error: {
            code: 422,
            message: 'An object needs an oid (64 hex digits, its SHA-256) and a size (0 or more bytes).',
          },
        },
      ],
    });
    const op = await lfs(url, key, 'objects/batch', { operation: 'delete', objects: [] });
    expect(op.status).toBe(422);
    expect(await op.json()).toEqual({ message: 'operation must be download or upload.' });
    const notJson = await fetch(`${url}/info/lfs/objects/batch`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`git:${key}`).toString('base64')}` },
      body: '{',
    });
    expect(notJson.status).toBe(422);
    expect((await lfs(url, key, 'objects/nothing', {})).status).toBe(404);
  });

  it('a clone of a pointer whose object is missing fails saying so', async () => {
    const key = await p.apiKey(['git:read', 'git:write']);
    const { url } = await newRepo();
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, key), 'repo']);
    const repo = join(dir, 'repo');
    writeFileSync(join(repo, '.gitattributes'), '*.bin filter=lfs diff=lfs merge=lfs -text\n');
    writeFileSync(
      join(repo, 'lost.bin'),
      `version https://git-lfs.github.com/spec/v1\noid sha256:${'b'.repeat(64)}\nsize 12\n`,
    );
    // Committed as a pointer only: git lfs has no object to upload.
    await ok(repo, ['-c', 'filter.lfs.clean=cat', '-c', 'filter.lfs.smudge=cat', 'add', '.']);
    await ok(repo, ['commit', '-q', '-m', 'A pointer']);
    await ok(repo, ['-c', 'lfs.allowincompletepush=true', 'push', '-q', 'origin', 'main']);
    const clone = await run(workdir(), ['clone', authed(url, key), 'copy']);
    expect(clone.out).toContain('Object does not exist');
    // The API reports the missing object too, never serves the pointer as the file.
    const name = url
      .split('/')
      .pop()
      ?.replace(/\.git$/, '');
    const raw = await p.get(`${repos()}/${name}/contents/raw?path=lost.bin`);
    expect(raw.status).toBe(404);
    expect(raw.body).toEqual({
      error:
        'This file is stored with Git LFS and its object was never uploaded. Push it with git lfs push --all origin.',
    });
    const blob = await p.get(`${repos()}/${name}/blob?path=lost.bin`);
    expect(blob.body.lfs).toEqual({ oid: 'b'.repeat(64), size: 12, url: null });
  });
});

describe('who may do what', () => {
  it("a viewer's credential downloads but can't upload or lock", async () => {
    const { url } = await newRepo();
    const viewer = await p.person('viewer');
    const made = await p.post(
      `/v1/orgs/${p.org.orgId}/git-credentials`,
      { name: 'viewer', scopes: ['git:read'] },
      { token: viewer.token },
    );
    expect(made.status).toBe(201);
    const password = made.body.password as string;
    const object = { oid: 'c'.repeat(64), size: 3 };
    expect((await lfs(url, password, 'objects/batch', { operation: 'download', objects: [object] })).status).toBe(200);
    const up = await lfs(url, password, 'objects/batch', { operation: 'upload', objects: [object] });
    expect(up.status).toBe(403);
    expect(await up.json()).toEqual({ message: "This credential can't upload or lock: it needs git:write." });
    const lock = await lfs(url, password, 'locks', { path: 'a.psd' });
    expect(lock.status).toBe(403);
    expect((await lfs(url, password, 'locks')).status).toBe(200);
  });

  it("another organization's credential can't download", async () => {
    const { url } = await newRepo();
    const other = await p.newOrg();
    const key = await p.apiKey(['git:read', 'git:write'], other.org.orgId);
    const res = await lfs(url, key, 'objects/batch', {
      operation: 'download',
      objects: [{ oid: 'd'.repeat(64), size: 1 }],
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect((await lfs(url, '', 'locks')).status).toBe(401);
  });
});

describe('locks', () => {
  it('locks a path once; only its owner unlocks, or an admin with force', async () => {
    const { url } = await newRepo();
    const mine = await p.apiKey(['git:read', 'git:write']);
    const dev = await p.person('developer');
    const theirs = (
      await p.post(
        `/v1/orgs/${p.org.orgId}/git-credentials`,
        { name: 'dev', scopes: ['git:read', 'git:write'] },
        { token: dev.token },
      )
    ).body.password as string;
    const made = await lfs(url, mine, 'locks', { path: 'art/hero.psd' });
    expect(made.status).toBe(201);
    const { lock } = (await made.json()) as { lock: { id: string; path: string; owner: { name: string } } };
    expect(lock).toMatchObject({ id: expect.stringMatching(/^lfl_/), path: 'art/hero.psd' });

    const twice = await lfs(url, theirs, 'locks', { path: 'art/hero.psd' });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ lock: { id: lock.id }, message: 'This path is already locked.' });
    expect((await lfs(url, mine, 'locks', { path: '' })).status).toBe(422);

    const listed = (await (await lfs(url, theirs, 'locks?path=art/hero.psd')).json()) as { locks: unknown[] };
    expect(listed.locks).toEqual([lock]);
    const verify = (await (await lfs(url, theirs, 'locks/verify', {})).json()) as Record<string, unknown[]>;
    expect(verify).toEqual({ ours: [], theirs: [lock] });

    const refused = await lfs(url, theirs, `locks/${lock.id}/unlock`, {});
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: 'This lock belongs to someone else. An admin can unlock it with --force.',
    });
    const forced = await lfs(url, theirs, `locks/${lock.id}/unlock`, { force: true });
    expect(forced.status).toBe(403);
    expect(await forced.json()).toEqual({ message: 'Only admins can force an unlock.' });
    const owner = (
      await p.post(`/v1/orgs/${p.org.orgId}/git-credentials`, { name: 'owner', scopes: ['git:read', 'git:write'] })
    ).body.password as string;
    const byAdmin = await lfs(url, owner, `locks/${lock.id}/unlock`, { force: true });
    expect(byAdmin.status).toBe(200);
    expect(await byAdmin.json()).toEqual({ lock });
    expect((await lfs(url, mine, `locks/${lock.id}/unlock`, {})).status).toBe(404);
  });

  it('git lfs lock and unlock work with the real client', async () => {
    const key = await p.apiKey(['git:read', 'git:write']);
    const { url } = await newRepo();
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, key), 'repo']);
    const repo = join(dir, 'repo');
    expect(await ok(repo, ['lfs', 'lock', 'README.md'])).toContain('Locked README.md');
    expect(await ok(repo, ['lfs', 'locks'])).toContain('README.md');
    expect(await ok(repo, ['lfs', 'unlock', 'README.md'])).toContain('Unlocked README.md');
  });
});
