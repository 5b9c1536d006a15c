import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { localGit } from '../../shared/ports/git/local';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';

/**
 * Branches, tags, web commits, file reads, commits and labels of the repos group, with every
 * error the spec lists; races on one parent commit, one branch name and the label cap.
 */
let p: TestPlatform;
let n = 0;
const unique = (base = 'c') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'contents-'));
  // The platform's artifacts bucket of this file, where uploads for web commits go.
  process.env.ARTIFACTS_BUCKET = `repo-uploads-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  p = await TestPlatform.start();
});
afterAll(() => p.close());

async function newRepo(body: Record<string, unknown> = { readme: true }) {
  const name = unique();
  const res = await p.post(repos(), { name, ...body });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  const head = body.readme ? (await p.get(`${repos()}/${name}/branches`)).body.branches[0].commit : null;
  return { name, base: `${repos()}/${name}`, head: head as string };
}

describe('branches', () => {
  it('creates from a branch, a tag or a commit; refuses taken names and missing sources', async () => {
    const { base, head } = await newRepo();
    expect((await p.post(`${base}/branches`, { name: 'from-branch', from: 'main' })).body).toEqual({
      branch: { name: 'from-branch', commitId: head },
    });
    expect((await p.post(`${base}/branches`, { name: 'from-commit', from: head.slice(0, 10) })).status).toBe(201);
    const taken = await p.post(`${base}/branches`, { name: 'from-branch', from: 'main' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 'A branch with this name already exists.' });
    const missing = await p.post(`${base}/branches`, { name: 'x', from: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Branch or tag not found' });
    const noCommit = await p.post(`${base}/branches`, { name: 'y', from: 'f'.repeat(40) });
    expect(noCommit.status).toBe(400);
    expect(noCommit.body).toEqual({ error: "That commit doesn't exist." });
    for (const name of ['--force', 'a..b', 'has space', 'end.lock', '']) {
      expect((await p.post(`${base}/branches`, { name, from: 'main' })).status).toBe(400);
    }
    const listed = await p.get(`${base}/branches`);
    expect(listed.body.defaultBranch).toBe('main');
    expect(listed.body.branches.map((b: { name: string }) => b.name)).toEqual(['from-branch', 'from-commit', 'main']);
  });

  it('of 50 concurrent creates of one branch, one is 201', async () => {
    const { base } = await newRepo();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => p.post(`${base}/branches`, { name: 'race', from: 'main' }, { record: false })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(49);
  });

  it('deletes a branch (answering its commit), never the default one', async () => {
    const { base, head } = await newRepo();
    await p.post(`${base}/branches`, { name: 'gone', from: 'main' });
    expect((await p.delete(`${base}/branches?name=gone`)).body).toEqual({ deleted: 'gone', commitId: head });
    const again = await p.delete(`${base}/branches?name=gone`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Branch not found.' });
    const main = await p.delete(`${base}/branches?name=main`);
    expect(main.status).toBe(400);
    expect(main.body).toEqual({ error: "The default branch can't be deleted." });
  });

  it('lists tags (none until pushed)', async () => {
    const { base } = await newRepo();
    expect((await p.get(`${base}/tags`)).body).toEqual({ tags: [] });
  });
});

describe('web commits', () => {
  it('puts, moves and deletes files on the branch at its parent; nothing changed answers no commitId', async () => {
    const { base, head } = await newRepo();
    const first = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: head,
      message: '  Add files  ',
      description: 'Two files.',
      changes: [
        { action: 'put', path: 'src/app.js', content: b64('console.log(1)\n') },
        { action: 'put', path: 'notes.txt', content: b64('notes') },
      ],
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ commitId: expect.stringMatching(/^[0-9a-f]{40}$/), branch: 'main' });
    const second = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: first.body.commitId,
      message: 'Move and delete',
      changes: [
        { action: 'move', from: 'src/app.js', path: 'src/main.js' },
        { action: 'delete', path: 'notes.txt' },
      ],
    });
    expect(second.status).toBe(201);
    const files = await p.get(`${base}/contents/files?ref=main`);
    expect(files.body).toEqual({
      files: [
        { path: 'README.md', blobId: expect.any(String), mode: '100644', type: 'file' },
        { path: 'src/main.js', blobId: expect.any(String), mode: '100644', type: 'file' },
      ],
      truncated: false,
      commitId: second.body.commitId,
    });
    const same = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: second.body.commitId,
      message: 'Same',
      changes: [{ action: 'put', path: 'src/main.js', content: b64('console.log(1)\n') }],
    });
    expect(same.status).toBe(201);
    expect(same.body).toEqual({ branch: 'main' });
    const log = await p.get(`${base}/commits?limit=2`);
    expect(log.body.commits.map((c: { message: string }) => c.message)).toEqual([
      'Move and delete',
      'Add files\n\nTwo files.',
    ]);
    const page2 = await p.get(`${base}/commits?limit=2&cursor=${encodeURIComponent(log.body.cursor)}`);
    expect(page2.body.commits.map((c: { message: string }) => c.message)).toEqual(['Initial commit']);
    expect(page2.body.cursor).toBeNull();
    expect((await p.get(`${base}/commits?cursor=forged`)).status).toBe(400);
    const last = await p.get(`${base}/last-commit?path=src/main.js`);
    expect(last.body.commit).toMatchObject({ id: second.body.commitId, author: { name: 'Test owner' } });
    expect((await p.get(`${base}/last-commit?path=never.txt`)).body).toEqual({ commit: null });
  });

  it('commits to a new branch made from the branch; the base branch stays', async () => {
    const { base, head } = await newRepo();
    const res = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: head,
      newBranch: 'topic',
      message: 'On a topic',
      changes: [{ action: 'put', path: 'topic.txt', content: b64('t') }],
    });
    expect(res.status).toBe(201);
    expect(res.body.branch).toBe('topic');
    const branches = (await p.get(`${base}/branches`)).body.branches;
    expect(branches.find((b: { name: string }) => b.name === 'main').commit).toBe(head);
    expect(branches.find((b: { name: string }) => b.name === 'topic').commit).toBe(res.body.commitId);
    const again = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: head,
      newBranch: 'topic',
      message: 'Again',
      changes: [{ action: 'put', path: 'x', content: b64('x') }],
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'A branch named topic already exists.' });
  });

  it('fifty commits on one parentCommitId: one 201, forty-nine 409', async () => {
    const { base, head } = await newRepo();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        p.post(
          `${base}/contents`,
          {
            branch: 'main',
            parentCommitId: head,
            message: `c${i}`,
            changes: [{ action: 'put', path: 'n.txt', content: b64(String(i)) }],
          },
          { record: false },
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const lost = answers.filter((a) => a.status === 409);
    expect(lost).toHaveLength(49);
    expect(lost[0]?.body).toEqual({ error: 'The branch changed. Reload and try again.' });
  });

  it('the first commit of an empty repository needs no parent', async () => {
    const { base } = await newRepo({});
    const res = await p.post(`${base}/contents`, {
      branch: 'main',
      message: 'Start',
      changes: [{ action: 'put', path: 'a.txt', content: b64('a') }],
    });
    expect(res.status).toBe(201);
    expect((await p.get(base)).body.empty).toBe(false);
  });

  it('every spec error, and nothing written', async () => {
    const { base, head } = await newRepo();
    const commit = (body: Record<string, unknown>) =>
      p.post(`${base}/contents`, {
        branch: 'main',
        parentCommitId: head,
        message: 'm',
        changes: [{ action: 'put', path: 'ok.txt', content: b64('x') }],
        ...body,
      });
    const expectError = async (body: Record<string, unknown>, status: number, error: string | RegExp) => {
      const res = await commit(body);
      expect({ status: res.status, error: res.body.error }).toEqual({
        status,
        error: typeof error === 'string' ? error : expect.stringMatching(error),
      });
    };
    for (const path of [
      '/abs.txt',
      '../up.txt',
      'a/../b',
      '.git/config',
      'x/.git/y',
      'nul\0byte',
      `${'p'.repeat(5000)}`,
    ]) {
      await expectError({ changes: [{ action: 'put', path, content: b64('x') }] }, 400, /^.+: .+/);
    }
    await expectError(
      {
        changes: [
          { action: 'put', path: 'twice.txt', content: b64('1') },
          { action: 'delete', path: 'twice.txt' },
        ],
      },
      400,
      'twice.txt is changed more than once.',
    );
    await expectError({ parentCommitId: undefined }, 400, 'parentCommitId is required.');
    await expectError(
      { changes: [{ action: 'put', path: 'bad.txt', content: '***not base64***' }] },
      400,
      /^bad\.txt: /,
    );
    await expectError({ changes: [{ action: 'delete', path: 'missing.txt' }] }, 400, /^missing\.txt: /);
    await expectError({ branch: 'nope' }, 404, 'Branch nope not found.');
    await expectError({ changes: [] }, 400, /./);
    const many = Array.from({ length: 101 }, (_, i) => ({ action: 'put', path: `f${i}`, content: b64('x') }));
    await expectError({ changes: many }, 400, /./);
    // 4.2 MB decoded, 5.6 MB as base64: within Lambda's 6 MB request, beyond a web commit's 4 MB.
    const big = b64(Buffer.alloc(2.1 * 1024 * 1024, 1));
    await expectError(
      {
        changes: [
          { action: 'put', path: 'a.bin', content: big },
          { action: 'put', path: 'b.bin', content: big },
        ],
      },
      413,
      'Web commits can change up to 100 files and 4 MB of content. Push larger changes with git.',
    );
    await p.post(`${base}/branches`, { name: 'exists', from: 'main' });
    await expectError({ newBranch: 'exists' }, 409, 'A branch named exists already exists.');
    expect((await p.put(`${base}/protection`, { requiredApprovals: 1 })).status).toBe(200);
    await expectError({}, 403, 'main is protected. Commit to a new branch and open a pull request.');
    // Nothing of the refused commits landed.
    expect(
      (await p.get(`${base}/branches`)).body.branches.find((b: { name: string }) => b.name === 'main').commit,
    ).toBe(head);
    expect((await p.get(`${base}/contents/files?ref=main`)).body.files.map((f: { path: string }) => f.path)).toEqual([
      'README.md',
    ]);
  });
});

describe('uploads for web commits', () => {
  it('PUTs files to presigned links, then commits them by uploadId (removed once committed)', async () => {
    const { base, head } = await newRepo();
    const bytes = Buffer.from([0, 1, 2, 3, 254, 255]);
    const res = await p.post(`${base}/contents/uploads`, { files: [{ path: 'bin/data.bin', size: bytes.length }] });
    expect(res.status).toBe(201);
    const [upload] = res.body.uploads;
    expect(upload).toMatchObject({ path: 'bin/data.bin', uploadId: expect.stringMatching(/^rup_/) });
    const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
    expect(put.status).toBe(200);
    const commit = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: head,
      message: 'Binary by upload',
      changes: [{ action: 'put', path: 'bin/data.bin', uploadId: upload.uploadId }],
    });
    expect(commit.status).toBe(201);
    const blob = await p.get(`${base}/blob?path=bin/data.bin`);
    expect(Buffer.from(blob.body.content, 'base64')).toEqual(bytes);
    // Used once: the upload is gone.
    const again = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: commit.body.commitId,
      message: 'Again',
      changes: [{ action: 'put', path: 'copy.bin', uploadId: upload.uploadId }],
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/^copy\.bin: the upload rup_\w+ wasn't found/);
  });

  it('holds the web-commit limits and refuses hostile paths', async () => {
    const { base } = await newRepo();
    const big = await p.post(`${base}/contents/uploads`, {
      files: [
        { path: 'a.bin', size: 3 * 1024 * 1024 },
        { path: 'b.bin', size: 2 * 1024 * 1024 },
      ],
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      error: 'Web commits can change up to 100 files and 4 MB of content. Push larger changes with git.',
    });
    const hostile = await p.post(`${base}/contents/uploads`, { files: [{ path: '../x', size: 1 }] });
    expect(hostile.status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => ({ path: `f${i}`, size: 1 }));
    expect((await p.post(`${base}/contents/uploads`, { files: many })).status).toBe(400);
    const both = await p.post(`${base}/contents`, {
      branch: 'main',
      message: 'm',
      changes: [{ action: 'put', path: 'x', content: 'eA==', uploadId: 'rup_0000000000' }],
    });
    expect(both.status).toBe(400);
  });
});

describe('reading files', () => {
  it('raw: bytes never rendered as HTML, 404s and the 4 MB limit', async () => {
    const { base, head } = await newRepo();
    const html = '<script>alert(1)</script>';
    const commit = await p.post(`${base}/contents`, {
      branch: 'main',
      parentCommitId: head,
      message: 'files',
      changes: [
        { action: 'put', path: 'page.html', content: b64(html) },
        {
          action: 'put',
          path: 'big.bin',
          content: b64(Buffer.alloc(4 * 1024 * 1024 + 1, 2).subarray(0, 3 * 1024 * 1024)),
        },
      ],
    });
    expect(commit.status).toBe(201);
    const raw = await p.get(`${base}/contents/raw?path=page.html&ref=main`);
    expect(raw.status).toBe(200);
    expect(raw.text).toBe(html);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    const at = await p.get(`${base}/contents/raw?path=README.md&ref=${head}`);
    expect(at.text).toContain('# ');
    for (const q of ['path=nope.txt', 'path=page.html&ref=nope', 'path=../x', 'path=src']) {
      const res = await p.get(`${base}/contents/raw?${q}`);
      expect({ q, status: res.status, body: res.body }).toEqual({ q, status: 404, body: { error: 'Not found' } });
    }
    expect((await p.get(`${base}/contents/raw`)).status).toBe(400);
  });

  it('raw answers 413 past 4 MB (such a file comes by git)', async () => {
    const { name, base, head } = await newRepo();
    const repoId = (await p.get(base)).body.resourceId as string;
    // Arranged on the engine, as a push would leave it: a 5 MB file.
    const { commitId } = await localGit().commit(repoId, {
      branch: 'main',
      parent: head,
      changes: [{ action: 'put', path: 'huge.bin', content: Buffer.alloc(5 * 1024 * 1024, 4) }],
      message: 'huge',
      author: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(commitId).toBeTruthy();
    const res = await p.get(`${repos()}/${name}/contents/raw?path=huge.bin`);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'This file is too large to show here. Clone the repository to get it.' });
    const files = (await p.get(`${base}/contents/files?ref=main`)).body.files;
    const huge = files.find((f: { path: string }) => f.path === 'huge.bin');
    const blobs = await p.post(`${base}/contents/blobs`, { ids: [huge.blobId] });
    expect(blobs.body.blobs).toEqual([{ id: huge.blobId, tooLarge: true }]);
  });

  it('files: 404 for an unknown ref; blobs in request order within 4 MB', async () => {
    const { base, head } = await newRepo();
    const missing = await p.get(`${base}/contents/files?ref=nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Branch or tag not found' });
    const files = (await p.get(`${base}/contents/files?ref=${head}`)).body.files;
    const blobId = files[0].blobId;
    const blobs = await p.post(`${base}/contents/blobs`, { ids: [blobId, 'e'.repeat(40), blobId] });
    expect(blobs.status).toBe(200);
    expect(blobs.body.blobs).toEqual([
      { id: blobId, content: expect.any(String) },
      { id: blobId, content: expect.any(String) },
    ]);
    expect(Buffer.from(blobs.body.blobs[0].content, 'base64').toString()).toContain('# ');
    expect((await p.post(`${base}/contents/blobs`, { ids: [] })).status).toBe(400);
    expect((await p.post(`${base}/contents/blobs`, { ids: ['XYZ'] })).status).toBe(400);
    expect((await p.post(`${base}/contents/blobs`, { ids: Array(51).fill(blobId) })).status).toBe(400);
    expect((await p.post(`${repos()}/nope-${unique()}/contents/blobs`, { ids: [blobId] })).status).toBe(404);
  });
});

describe('labels', () => {
  it('upserts by name, lists and deletes', async () => {
    const { base } = await newRepo({});
    const put = await p.put(`${base}/labels`, { name: ' bug ', color: 'destructive', description: 'Broken' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ label: { name: 'bug', color: 'destructive', description: 'Broken' } });
    await p.put(`${base}/labels`, { name: 'bug', color: 'chart-1' });
    expect((await p.get(`${base}/labels`)).body).toEqual({ labels: [{ name: 'bug', color: 'chart-1' }] });
    expect((await p.put(`${base}/labels`, { name: 'x', color: 'red' })).status).toBe(400);
    expect((await p.put(`${base}/labels`, { name: 'x'.repeat(51), color: 'primary' })).status).toBe(400);
    expect((await p.delete(`${base}/labels?name=bug`)).status).toBe(204);
    expect((await p.delete(`${base}/labels?name=bug`)).status).toBe(204);
    expect((await p.get(`${base}/labels`)).body).toEqual({ labels: [] });
  });

  it('of 101 concurrent new labels, 100 are kept and one is refused', async () => {
    const { base } = await newRepo({});
    const answers = await Promise.all(
      Array.from({ length: 101 }, (_, i) =>
        p.put(`${base}/labels`, { name: `l${i}`, color: 'primary' }, { record: false }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
    const refused = answers.filter((a) => a.status === 400);
    expect(refused.map((a) => a.body)).toEqual([{ error: 'A repository can have up to 100 labels.' }]);
    expect((await p.get(`${base}/labels`)).body.labels).toHaveLength(100);
    // Replacing one is not a new one.
    expect((await p.put(`${base}/labels`, { name: 'l0', color: 'chart-2' })).status).toBe(200);
  });
});

describe('git credentials', () => {
  it('shows the password once, lists without it, deletes only your own; keys get 403', async () => {
    const made = await p.post(`/v1/orgs/${p.org.orgId}/git-credentials`, {
      name: 'ci',
      scopes: ['git:read', 'git:write'],
      expiresInDays: 7,
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      credential: {
        keyId: expect.stringMatching(/^gcr_/),
        name: 'ci',
        scopes: ['git:read', 'git:write'],
        createdAt: expect.any(Number),
        expiresAt: expect.any(Number),
      },
      username: 'git',
      password: expect.stringMatching(/^app_git_/),
    });
    const list = await p.get(`/v1/orgs/${p.org.orgId}/git-credentials`);
    expect(list.text).not.toContain(made.body.password);
    expect(list.body.credentials.map((c: { keyId: string }) => c.keyId)).toContain(made.body.credential.keyId);
    const viewer = await p.person('viewer');
    const tooMuch = await p.post(
      `/v1/orgs/${p.org.orgId}/git-credentials`,
      { name: 'v', scopes: ['git:write'] },
      { token: viewer.token },
    );
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body).toEqual({ error: 'You need git:write to give it.' });
    const notYours = await p.delete(`/v1/orgs/${p.org.orgId}/git-credentials/${made.body.credential.keyId}`, {
      token: viewer.token,
    });
    expect(notYours.status).toBe(404);
    expect(notYours.body).toEqual({ error: 'Git credential not found' });
    const key = await p.apiKey();
    const byKey = await p.get(`/v1/orgs/${p.org.orgId}/git-credentials`, { token: key });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual({ error: 'Git credentials belong to people: sign in to make one.' });
    expect((await p.post(`/v1/orgs/${p.org.orgId}/git-credentials`, { name: 'x', scopes: ['org:read'] })).status).toBe(
      400,
    );
  });
});
