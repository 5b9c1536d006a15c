import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deleteMany } from '../../shared/kernel/store/ops';
import { keys } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';
import { gitCli } from './git-cli';

/**
 * Git over HTTPS with the real git CLI against the local platform: clone, push, tags, web commits
 * pulled, renames, passwords (keys and git credentials, read-only ones refused a push), the
 * protected branch refused in git's own report while other refs go through, and the 6 MB limit.
 */
let p: TestPlatform;
let home: string;
let n = 0;
const unique = (base = 'git') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'git-http-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'git-home-'));
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const { run, ok } = gitCli(() => home);

/** The clone URL with a password in it. */
const authed = (url: string, password: string) => url.replace('://', `://git:${password}@`);

async function newRepo(body: Record<string, unknown> = {}) {
  const name = unique();
  const res = await p.post(repos(), { name, ...body });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return { name, url: res.body.repo.cloneUrl as string };
}

const workdir = () => mkdtempSync(join(home, 'work-'));

describe('clone, push, pull', () => {
  let key: string;
  beforeAll(async () => {
    key = await p.apiKey(['git:read', 'git:write']);
  });

  it('clones an empty repository and pushes branches and an annotated tag', async () => {
    const { name, url } = await newRepo();
    const dir = workdir();
    const cloned = await ok(dir, ['clone', authed(url, key), 'repo']);
    expect(cloned).toContain('empty repository');
    const repo = join(dir, 'repo');
    writeFileSync(join(repo, 'index.html'), '<h1>hi</h1>\n');
    await ok(repo, ['add', '.']);
    await ok(repo, ['commit', '-q', '-m', 'First']);
    await ok(repo, ['branch', 'feature']);
    await ok(repo, ['tag', '-a', 'v1.0', '-m', 'Release 1.0']);
    const pushed = await ok(repo, ['push', 'origin', 'main', 'feature', 'v1.0']);
    expect(pushed).toContain('[new branch]      main -> main');
    expect(pushed).toContain('[new tag]         v1.0 -> v1.0');
    const head = (await ok(repo, ['rev-parse', 'HEAD'])).trim();
    const detail = await p.get(`${repos()}/${name}`);
    expect(detail.body).toMatchObject({ branches: ['feature', 'main'], tags: ['v1.0'], empty: false });
    const tags = await p.get(`${repos()}/${name}/tags`);
    expect(tags.body.tags).toEqual([
      { name: 'v1.0', annotated: true, object: expect.not.stringMatching(head), commit: head },
    ]);
  });

  it('a web commit through the API reaches git pull', async () => {
    const { name, url } = await newRepo({ readme: true });
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, key), 'repo']);
    const repo = join(dir, 'repo');
    const parent = (await ok(repo, ['rev-parse', 'HEAD'])).trim();
    const commit = await p.post(`${repos()}/${name}/contents`, {
      branch: 'main',
      parentCommitId: parent,
      message: 'Add a page',
      changes: [{ action: 'put', path: 'docs/page.md', content: Buffer.from('# Page\n').toString('base64') }],
    });
    expect(commit.status).toBe(201);
    await ok(repo, ['pull', '-q', '--ff-only']);
    expect((await ok(repo, ['log', '-1', '--format=%H %s'])).trim()).toBe(`${commit.body.commitId} Add a page`);
    expect((await ok(repo, ['show', 'HEAD:docs/page.md'])).trim()).toBe('# Page');
  });

  it('a shallow clone (--depth 1, as CI systems make) pushes a branch', async () => {
    // It was refused 400 "This push could not be read": its `shallow` lines were read as bad commands.
    const { name, url } = await newRepo({ readme: true });
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, key), 'full']);
    const full = join(dir, 'full');
    for (const n of [1, 2]) {
      writeFileSync(join(full, `f${n}.txt`), `${n}\n`);
      await ok(full, ['add', '.']);
      await ok(full, ['commit', '-q', '-m', `Commit ${n}`]);
    }
    await ok(full, ['push', '-q', 'origin', 'main']);
    await ok(dir, ['clone', '-q', '--depth', '1', authed(url, key), 'shallow']);
    const shallow = join(dir, 'shallow');
    expect((await ok(shallow, ['rev-parse', '--is-shallow-repository'])).trim()).toBe('true');
    writeFileSync(join(shallow, 'ci.txt'), 'from CI\n');
    await ok(shallow, ['add', '.']);
    await ok(shallow, ['commit', '-q', '-m', 'From a shallow clone']);
    await ok(shallow, ['push', '-q', 'origin', 'HEAD:refs/heads/ci']);
    const head = (await ok(shallow, ['rev-parse', 'HEAD'])).trim();
    const detail = await p.get(`${repos()}/${name}`);
    expect(detail.body.branches).toEqual(['ci', 'main']);
    const file = await p.get(`${repos()}/${name}/contents/raw?ref=ci&path=ci.txt`);
    expect(file.status).toBe(200);
    // The whole history is there on the platform: a full clone of the branch has all four commits.
    await ok(dir, ['clone', '-q', '--branch', 'ci', authed(url, key), 'again']);
    const again = join(dir, 'again');
    expect((await ok(again, ['rev-parse', 'HEAD'])).trim()).toBe(head);
    expect((await ok(again, ['rev-list', '--count', 'HEAD'])).trim()).toBe('4');
  });

  it('after a rename, the new URL clones and the old one is not found', async () => {
    const { name, url } = await newRepo({ readme: true });
    const next = unique('moved');
    expect((await p.post(`${repos()}/${name}/rename`, { name: next })).status).toBe(200);
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url.replace(`/${name}.git`, `/${next}.git`), key), 'new']);
    const old = await run(dir, ['clone', '-q', authed(url, key), 'old']);
    expect(old.code).not.toBe(0);
    expect(old.out).toMatch(/not found|404/);
  });
});

describe('passwords', () => {
  it('a wrong or missing password is 401: git asks, and fails without a prompt', async () => {
    const { url } = await newRepo({ readme: true });
    const dir = workdir();
    const wrong = await run(dir, ['clone', '-q', authed(url, 'app_api_wrongwrongwrongwrongwrong0000'), 'a']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.out).toContain('Authentication failed');
    const none = await run(dir, ['clone', '-q', url, 'b']);
    expect(none.code).not.toBe(0);
    expect(none.out).toMatch(/could not read Username|Authentication failed/);
    const info = await fetch(`${url}/info/refs?service=git-upload-pack`);
    expect(info.status).toBe(401);
    expect(info.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });

  it('a git credential with git:read clones but cannot push; deleted, it stops at once', async () => {
    const { url } = await newRepo({ readme: true });
    const made = await p.post(`/v1/orgs/${p.org.orgId}/git-credentials`, { name: 'laptop', scopes: ['git:read'] });
    expect(made.status).toBe(201);
    const password = made.body.password as string;
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, password), 'repo']);
    const repo = join(dir, 'repo');
    writeFileSync(join(repo, 'x.txt'), 'x');
    await ok(repo, ['add', '.']);
    await ok(repo, ['commit', '-q', '-m', 'x']);
    const push = await run(repo, ['push', 'origin', 'HEAD:refs/heads/try']);
    expect(push.code).not.toBe(0);
    expect(push.out).toContain('403');
    expect((await p.delete(`/v1/orgs/${p.org.orgId}/git-credentials/${made.body.credential.keyId}`)).status).toBe(204);
    const after = await run(dir, ['clone', '-q', authed(url, password), 'again']);
    expect(after.code).not.toBe(0);
    expect(after.out).toContain('Authentication failed');
  });

  it("a credential grants only what the person's current role allows", async () => {
    const { url } = await newRepo({ readme: true });
    const dev = await p.person('developer');
    const made = await p.post(
      `/v1/orgs/${p.org.orgId}/git-credentials`,
      { name: 'dev', scopes: ['git:read', 'git:write'] },
      { token: dev.token },
    );
    expect(made.status).toBe(201);
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, made.body.password), 'repo']);
    // Removed from the organization: the credential no longer opens anything.
    await deleteMany([keys.member(p.org.orgId, dev.userId)]);
    const after = await run(dir, ['clone', '-q', authed(url, made.body.password), 'again']);
    expect(after.code).not.toBe(0);
  });
});

describe('the protected branch', () => {
  it("refuses a push to it in git's own report while a feature branch goes through", async () => {
    const key = await p.apiKey(['git:read', 'git:write']);
    const { name, url } = await newRepo({ readme: true });
    expect((await p.put(`${repos()}/${name}/protection`, { requiredApprovals: 1 })).status).toBe(200);
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, key), 'repo']);
    const repo = join(dir, 'repo');
    const before = (await ok(repo, ['rev-parse', 'HEAD'])).trim();
    writeFileSync(join(repo, 'change.txt'), 'change');
    await ok(repo, ['add', '.']);
    await ok(repo, ['commit', '-q', '-m', 'change']);
    const push = await run(repo, ['push', 'origin', 'main', 'main:feature']);
    expect(push.code).not.toBe(0);
    expect(push.out).toContain(
      '! [remote rejected] main -> main (main is protected. Commit to a new branch and open a pull request.)',
    );
    expect(push.out).toContain('[new branch]      main -> feature');
    const branches = (await p.get(`${repos()}/${name}/branches`)).body.branches;
    expect(branches.find((b: { name: string }) => b.name === 'main').commit).toBe(before);
    expect(branches.find((b: { name: string }) => b.name === 'feature').commit).not.toBe(before);
    const del = await run(repo, ['push', 'origin', ':main']);
    expect(del.out).toContain('[remote rejected] main');
  });

  it("a push over 6 MB is refused whole, in git's own report saying what to do", async () => {
    const key = await p.apiKey(['git:read', 'git:write']);
    const { name, url } = await newRepo({ readme: true });
    const dir = workdir();
    await ok(dir, ['clone', '-q', authed(url, key), 'repo']);
    const repo = join(dir, 'repo');
    writeFileSync(join(repo, 'big.bin'), randomBytes(7 * 1024 * 1024));
    await ok(repo, ['add', '.']);
    await ok(repo, ['commit', '-q', '-m', 'big']);
    const push = await run(repo, ['push', 'origin', 'HEAD:refs/heads/big']);
    expect(push.code).not.toBe(0);
    expect(push.out).toContain('remote: This push is larger than 6 MB');
    expect(push.out).toContain('remote: Push fewer commits at a time');
    expect(push.out).toContain('remote: and track large files with Git LFS');
    expect(push.out).toContain('remote: Or run platform repo push: it pushes any history in steps that fit.');
    expect(push.out).toContain('! [remote rejected] HEAD -> big (push over 6 MB');
    expect(push.out).not.toContain('RPC failed');
    expect((await p.get(`${repos()}/${name}`)).body.branches).toEqual(['main']);
  });
});
