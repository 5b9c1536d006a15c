import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestPlatform } from '../helpers/platform';
import { Cli, GIT_ENV } from './helpers';

/**
 * The command groups over the API (repo, pr, issue, key, member, domain, notify, agent,
 * connector) on the local platform, each command a child process: `--json` is the API's own answer, the
 * human output a table sized to a fixed width (60 columns here). Git runs for real: `repo clone`
 * sets the credential helper (this command line, answering the profile's key), `pr create`
 * pushes the current branch, `pr checkout` fetches the pull's branch.
 */
let p: TestPlatform;
let cli: Cli;
let reviewer: Cli;
let key: string;
const repo = `cli-${Date.now().toString(36)}`;

/** Git, never synchronous: the platform it talks to answers from this process. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, ...cli.env, ...GIT_ENV } as NodeJS.ProcessEnv;
  const { stdout } = await promisify(execFile)('git', args, { cwd, encoding: 'utf8', env });
  return stdout.trim();
}

/** Human output with what changes from run to run replaced: the repository's name, times. */
const norm = (text: string) =>
  text
    .replaceAll(repo, 'REPO-NAME---')
    .replace(/key_[0-9a-z]+/g, 'key_…')
    .replace(/\d/g, '9');

const json = async (c: Cli, argv: string[]) => {
  const res = await c.run([...argv, '--json']);
  expect({ argv, code: res.code, stderr: res.stderr }).toEqual({ argv, code: 0, stderr: '' });
  return JSON.parse(res.stdout);
};

beforeAll(async () => {
  p = await TestPlatform.start();
  key = await p.apiKey();
  cli = new Cli();
  Object.assign(cli.env, GIT_ENV);
  expect((await cli.run(['login', '--url', p.baseUrl, '--token', key])).code).toBe(0);
  reviewer = new Cli();
  const developer = await p.person('developer');
  expect((await reviewer.run(['login', '--url', p.baseUrl, '--token', developer.token])).code).toBe(0);
});
afterAll(async () => {
  await p?.close();
});

describe('repo', () => {
  it('create, list, view, protect: --json is the API answer, the table fits 60 columns', async () => {
    const created = await json(cli, ['repo', 'create', repo, '--description', 'Made from the command line']);
    expect(created.repo).toMatchObject({ name: repo, defaultBranch: 'main', empty: true });
    const listed = await json(cli, ['repo', 'list']);
    expect(listed).toEqual((await p.get(`/v1/orgs/${p.org.orgId}/repos`, { token: key })).body);

    cli.columns = 60;
    const table = await cli.run(['repo', 'list']);
    expect(norm(table.stdout)).toMatchInlineSnapshot(`
"NAME          DEFAULT BRANCH  UPDATED           DESCRIPTION
REPO-NAME---  main            9999-99-99 99:99  Made from t…
"
`);
    expect(table.stdout.split('\n').every((l) => l.length <= 60)).toBe(true);

    const view = await cli.run(['repo', 'view', repo]);
    expect(view.stdout).toContain(`${repo} — Made from the command line\nclone:        ${created.repo.cloneUrl}\n`);
    const empty = await cli.run(['repo', 'protect', repo, '--approvals', '1']);
    expect(empty).toEqual({ code: 1, stdout: '', stderr: 'Error: Push a branch before protecting it.\n' });
    const bad = await cli.run(['repo', 'protect', repo, '--approvals', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^Error: --approvals takes a whole number from 0 to 10\.\n\nUsage: platform repo protect/,
    );
  });

  it('refusals of the API exit 1 with its message', async () => {
    const res = await cli.run(['repo', 'view', 'no-such-repo']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Error: .*not found/i);
    const del = await cli.run(['repo', 'delete', repo]);
    expect(del).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^Error: Deleting .* cannot be undone: add --yes\./),
    });
  });
});

describe('repo rename and delete', () => {
  it('rename moves the name; delete needs --yes, then the repository is gone', async () => {
    const name = `tmp-${Date.now().toString(36)}`;
    expect((await cli.run(['repo', 'create', name])).code).toBe(0);
    expect(await json(cli, ['repo', 'rename', name, `${name}-b`])).toEqual({ name: `${name}-b` });
    expect((await cli.run(['repo', 'delete', `${name}-b`, '--yes'])).stdout).toBe(`Deleted repository ${name}-b.\n`);
    expect((await cli.run(['repo', 'view', `${name}-b`])).code).toBe(1);
  });
});

describe('clone, pr, issue', () => {
  let work: string;
  let head: string;

  it('repo clone sets the credential helper: push needs no password in the URL', async () => {
    const root = mkdtempSync(join(tmpdir(), 'platform-cli-git-'));
    cli.cwd = root;
    const cloned = await cli.run(['repo', 'clone', repo]);
    cli.cwd = join(root, repo);
    expect(cloned.stderr).toMatch(/^Cloning /);
    expect(cloned.code).toBe(0);
    work = join(root, repo);
    expect(await git(work, 'remote', 'get-url', 'origin')).not.toContain('@');
    expect(await git(work, 'config', '--local', '--get-regexp', 'credential\\..*\\.helper')).toMatch(
      // An empty helper first: those of other config files are not asked.
      /^credential\.http:\/\/127\.0\.0\.1:\d+\.helper \ncredential\.http:\/\/127\.0\.0\.1:\d+\.helper !".*node" ".*\.cjs" auth git-credential --profile 'default'$/,
    );
    writeFileSync(join(work, 'README.md'), '# Hello\n');
    await git(work, 'add', '.');
    await git(work, 'commit', '-q', '-m', 'First');
    await git(work, 'push', '-q', 'origin', 'HEAD:main');
    expect(await json(cli, ['repo', 'protect', repo, '--approvals', '1'])).toEqual({
      requiredApprovals: 1,
      requiredChecks: [],
      branch: 'main',
    });
    expect((await cli.run(['repo', 'protect'])).stdout).toBe(`${repo}: 1 approvals required to merge into main.\n`);
  });

  it('pr create from the current branch (pushed), list, view with the review state, diff', async () => {
    cli.cwd = work;
    await git(work, 'switch', '-q', '-c', 'greeting');
    writeFileSync(join(work, 'README.md'), '# Hello, world\n');
    await git(work, 'commit', '-q', '-am', 'Greet the world');
    head = await git(work, 'rev-parse', 'HEAD');
    const created = await json(cli, ['pr', 'create', '--body', 'Friendlier.']);
    expect(created.pull).toMatchObject({
      number: 1,
      title: 'Greet the world',
      sourceBranch: 'greeting',
      targetBranch: 'main',
    });

    cli.columns = 60;
    const list = await cli.run(['pr', 'list']);
    expect(norm(list.stdout)).toMatchInlineSnapshot(`
"#  STATE  TITLE      BRANCH     AUTHOR      UPDATED
9  open   Greet th…  greeting…  Key key_……  9999-99-99 99:99
"
`);
    const listed = await json(cli, ['pr', 'list']);
    expect(listed).toEqual((await p.get(`/v1/orgs/${p.org.orgId}/repos/${repo}/pulls`, { token: key })).body);

    const view = await cli.run(['pr', 'view', '1']);
    expect(view.stdout).toMatch(
      /^#1 Greet the world \[open\]\ngreeting → main, by .*\nreview: not approved \(0 of 1 required; by nobody\)\n/,
    );
    // No project is linked to the repository: no preview.
    expect(view.stdout).toContain('\npreview: -\n');
    const viewed = await json(cli, ['pr', 'view', '1']);
    expect(viewed.review).toEqual(
      (await p.get(`/v1/orgs/${p.org.orgId}/repos/${repo}/pulls/1/review`, { token: key })).body,
    );

    const diff = await cli.run(['pr', 'diff', '1']);
    expect(diff.stdout).toBe(
      'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,1 @@\n-# Hello\n+# Hello, world\n',
    );
  });

  it('pr checkout in another clone: git log shows the pull head', async () => {
    const root = mkdtempSync(join(tmpdir(), 'platform-cli-git-'));
    reviewer.cwd = root;
    Object.assign(reviewer.env, GIT_ENV);
    expect((await reviewer.run(['repo', 'clone', repo, 'other'])).code).toBe(0);
    reviewer.cwd = join(root, 'other');
    const out = await reviewer.run(['pr', 'checkout', '1']);
    expect(out).toEqual({ code: 0, stdout: `Switched to greeting (#1) at ${head.slice(0, 12)}.\n`, stderr: '' });
    expect(await git(reviewer.cwd, 'log', '-1', '--format=%H %s')).toBe(`${head} Greet the world`);
  });

  it('comment, approve (as another person), merge with a strategy; close and reopen', async () => {
    expect((await cli.run(['pr', 'comment', '1', '--body', 'Please look'])).stdout).toBe('Commented on #1.\n');
    // The text from a file (here stdin) instead of --body.
    const piped = await cli.run(['pr', 'comment', '1', '--body-file', '-'], { stdin: 'And the tests.\n' });
    expect(piped).toEqual({ code: 0, stdout: 'Commented on #1.\n', stderr: '' });
    const none = await cli.run(['pr', 'comment', '1']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Error: Give the comment: --body TEXT \(or --body-file FILE\)\.\n/);
    const early = await reviewer.run(['pr', 'merge', '1']);
    expect(early).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: This pull request needs more approvals before it can be merged.\n',
    });
    expect(await json(reviewer, ['pr', 'approve', '1'])).toEqual({ approved: true });
    expect((await reviewer.run(['pr', 'view', '1'])).stdout).toMatch(
      /\nreview: approved \(1 of 1 required; by Test developer\)\n/,
    );
    const bad = await reviewer.run(['pr', 'merge', '1', '--strategy', 'octopus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^Error: Unknown strategy octopus: use squash, fast-forward, three-way\.\n\nUsage: platform pr merge/,
    );
    const merged = await json(reviewer, ['pr', 'merge', '1', '--strategy', 'three-way']);
    expect(merged).toMatchObject({ merged: true, mergeCommitId: expect.stringMatching(/^[0-9a-f]{40}$/) });

    await git(work, 'switch', '-q', '-c', 'other', 'greeting');
    writeFileSync(join(work, 'NOTES.md'), 'notes\n');
    await git(work, 'add', '.');
    await git(work, 'commit', '-q', '-m', 'Notes');
    expect((await cli.run(['pr', 'create', '--title', 'Notes'])).stdout).toBe(
      `Opened pull request #2 of ${repo}: other into main.\n`,
    );
    expect((await cli.run(['pr', 'close', '2'])).stdout).toBe('#2 is closed.\n');
    expect(await json(cli, ['pr', 'reopen', '2'])).toEqual({ state: 'open' });

    // --state all: open, closed and merged ones together, newest update first, each with its state.
    cli.columns = undefined;
    const all = await cli.run(['pr', 'list', '--state', 'all']);
    expect(all.stdout.split('\n').map((l) => l.split('\t').slice(0, 3))).toEqual([
      ['2', 'open', 'Notes'],
      ['1', 'merged', 'Greet the world'],
      [''],
    ]);
    expect((await json(cli, ['pr', 'list', '--state', 'all'])).pulls).toHaveLength(2);
    expect((await cli.run(['pr', 'list', '--state', 'merged'])).stdout).toMatch(/^1\tmerged\tGreet the world\t/);
    const anyState = await cli.run(['pr', 'list', '--state', 'any']);
    expect(anyState.code).toBe(2);
    expect(anyState.stderr).toMatch(/^Error: Unknown state any: use open, closed, merged, all\./);
  });

  it('issue create, list, view, comment, close', async () => {
    const made = await json(cli, [
      'issue',
      'create',
      '--title',
      'Crash on start',
      '--body',
      'It crashes.',
      '--label',
      'bug',
    ]);
    expect(made.issue).toMatchObject({ title: 'Crash on start', labels: ['bug'], state: 'open' });
    const n = String(made.issue.number);
    cli.columns = 60;
    const list = await cli.run(['issue', 'list', '--repo', repo]);
    expect(norm(list.stdout)).toMatchInlineSnapshot(`
"#  TITLE           LABELS  AUTHOR           UPDATED
9  Crash on start  bug     Key key_……  9999-99-99 99:99
"
`);
    expect((await cli.run(['issue', 'comment', n, '--body', 'Seen too'])).code).toBe(0);
    const view = await cli.run(['issue', 'view', n]);
    expect(view.stdout).toMatch(
      new RegExp(`^#${n} Crash on start \\[open\\]\\nby .*; labels bug\\n\\nIt crashes\\.\\n\\n.*:\\nSeen too\\n$`),
    );
    expect((await cli.run(['issue', 'close', n])).stdout).toBe(`#${n} is closed.\n`);
    expect((await cli.run(['issue', 'close', n, '--reopen'])).stdout).toBe(`#${n} is open.\n`);
    expect((await cli.run(['issue', 'close', n])).code).toBe(0);
    expect(await json(cli, ['issue', 'list', '--state', 'closed'])).toEqual(
      (await p.get(`/v1/orgs/${p.org.orgId}/repos/${repo}/issues?state=closed`, { token: key })).body,
    );
  });
});

describe('key, member, notify, agent, connector, domain', () => {
  it('key create shows the password once; list; revoke', async () => {
    const made = await json(reviewer, ['key', 'create', 'laptop', '--scopes', 'git:read', '--days', '30']);
    expect(made).toMatchObject({ credential: { name: 'laptop', scopes: ['git:read'] }, password: expect.any(String) });
    const list = await json(reviewer, ['key', 'list']);
    expect(list.credentials.map((k: { keyId: string }) => k.keyId)).toContain(made.credential.keyId);
    expect(JSON.stringify(list)).not.toContain(made.password);
    expect((await reviewer.run(['key', 'revoke', made.credential.keyId])).stdout).toBe(
      `Revoked ${made.credential.keyId}.\n`,
    );
    // What is left: the credential repo clone made for this person's profile (git takes no access token).
    const left = (await json(reviewer, ['key', 'list'])).credentials;
    expect(left.map((k: { name: string }) => k.name)).toEqual([expect.stringMatching(/^platform cli on /)]);
    expect((await reviewer.run(['key', 'create', 'x', '--scopes', 'admin'])).code).toBe(2);
  });

  it('member list, notify list, agent devices and jobs, connector list: the API answers', async () => {
    expect(await json(cli, ['member', 'list'])).toEqual(
      (await p.get(`/v1/orgs/${p.org.orgId}/members`, { token: key })).body,
    );
    reviewer.columns = 60;
    const members = await reviewer.run(['member', 'list']);
    expect(members.stdout.split('\n')[0]).toMatch(/^EMAIL +NAME +ROLE +JOINED$/);
    expect(members.stdout.split('\n')[1]).toMatch(/^owner-\S*… +Test owner +owner +\d{4}-/);
    expect((await json(reviewer, ['notify', 'list'])).notices).toEqual(expect.any(Array));
    expect(await json(cli, ['agent', 'devices'])).toEqual({ devices: [], requests: [] });
    expect((await cli.run(['agent', 'jobs'])).stdout).toBe('No jobs.\n');
    expect((await cli.run(['connector', 'list'])).stdout).toBe('No connectors.\n');
    const ack = await reviewer.run(['notify', 'ack', 'ntc_nope']);
    expect(ack.code).toBe(1);
    // Refusals of the API for what is not there: exit 1 with its message, nothing on stdout.
    for (const argv of [
      ['agent', 'approve', 'dev_nope', 'example.com'],
      ['agent', 'jobs', 'job_nope'],
      ['connector', 'test', 'con_nope'],
      ['connector', 'remove', 'con_nope'],
    ]) {
      const res = await cli.run(argv);
      expect({ argv, code: res.code, stdout: res.stdout }).toEqual({ argv, code: 1, stdout: '' });
      expect(res.stderr).toMatch(/^Error: \S/);
    }
  });

  it('domain add prints the records; records; verify says where it stands', async () => {
    expect((await cli.run(['projects', 'create', 'cli-domains', '--framework', 'static'])).code).toBe(0);
    const added = await json(cli, ['domain', 'add', 'www.cli-example.com', '--project', 'cli-domains']);
    expect(added.domain).toMatchObject({ hostname: 'www.cli-example.com', status: expect.any(String) });
    const records = await cli.run(['domain', 'records', 'www.cli-example.com']);
    expect(records.stdout).toBe(`${added.domain.records}\n`);
    const verified = await cli.run(['domain', 'verify', 'www.cli-example.com']);
    expect(verified.stdout).toMatch(/^www\.cli-example\.com: (pending|verifying|active|error)/);
    expect(await json(cli, ['domain', 'list'])).toEqual(
      (await p.get(`/v1/orgs/${p.org.orgId}/domains`, { token: key })).body,
    );
  });
});

describe('webhook', () => {
  // Webhooks are changed by owners and admins, not keys.
  const owner = new Cli();
  beforeAll(async () => {
    expect((await owner.run(['login', '--url', p.baseUrl, '--token', p.owner.token])).code).toBe(0);
  });

  it('creates an endpoint (its secret printed once), lists it, shows its deliveries, rotates, removes', async () => {
    const url = 'https://93.184.215.14/platform-hook';
    const made = await json(owner, ['webhook', 'create', url, '--event', 'deployment.ready,deployment.failed']);
    expect(made.endpoint).toMatchObject({ url, events: ['deployment.ready', 'deployment.failed'], enabled: true });
    expect(made.secret).toMatch(/^whsec_/);
    const id = made.endpoint.endpointId as string;
    expect(await json(owner, ['webhook', 'list'])).toEqual((await p.get(`/v1/orgs/${p.org.orgId}/webhooks`)).body);
    const human = await owner.run(['webhook', 'list']);
    expect(human.stdout).toContain(id);
    expect(human.stdout).toContain('deployment.ready');
    expect(await json(owner, ['webhook', 'deliveries', id])).toEqual({ deliveries: [], cursor: null });
    const rotated = await json(owner, ['webhook', 'rotate-secret', id]);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    expect(await json(owner, ['webhook', 'rm', id])).toEqual({ removed: id });
    expect(
      (await json(owner, ['webhook', 'list'])).endpoints.map((e: { endpointId: string }) => e.endpointId),
    ).not.toContain(id);
  });

  it("needs an event kind (usage, exit 2); a private address is the API's 400 (exit 1)", async () => {
    const none = await owner.run(['webhook', 'create', 'https://93.184.215.14/x']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Name at least one event kind with --event.');
    const local = await owner.run(['webhook', 'create', 'https://10.0.0.1/x', '--event', 'ops.alarm']);
    expect(local.code).toBe(1);
    expect(local.stderr).not.toBe('');
  });
});
