import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestPlatform } from '../helpers/platform';
import { BIN, Cli, type CliResult, GIT_ENV } from './helpers';

/**
 * `platform repo push` with the real git through the local platform (its 6 MB push limit held): a
 * 30 MB history plain `git push` can't carry goes in increments, stopped after the first and run
 * again it goes on from the remote's ref, a fresh clone has the same refs; a commit too large alone
 * is refused naming Git LFS and the file.
 */
let p: TestPlatform;
let cli: Cli;
let work: string;
const repo = `push-${Date.now().toString(36)}`;
const MB = 1000 * 1000;

/** Git, never synchronous: the platform it talks to answers from this process. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, ...cli.env } as NodeJS.ProcessEnv;
  const { stdout } = await promisify(execFile)('git', args, { cwd, encoding: 'utf8', env, maxBuffer: 1 << 26 });
  return stdout.trim();
}

/** Git that may fail: its exit code and both streams together. */
function gitRun(cwd: string, ...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...process.env, ...cli.env } as NodeJS.ProcessEnv }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** `count` commits on the current branch, each adding one file of `size` random bytes. */
async function commitRandom(prefix: string, count: number, size: number): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    writeFileSync(join(work, `${prefix}-${i}.bin`), randomBytes(size));
    await git(work, 'add', '.');
    await git(work, 'commit', '-q', '-m', `${prefix} ${i}`);
    made.push(await git(work, 'rev-parse', 'HEAD'));
  }
  return made;
}

/** The command line as a child process, sent SIGINT once a line of stderr matches `when`. */
function runInterrupted(argv: string[], when: RegExp): Promise<CliResult> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [name, value] of Object.entries(cli.env)) if (value !== undefined) env[name] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += String(d);
      if (!sent && when.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const remoteRefs = async (cwd: string) =>
  (await git(cwd, 'ls-remote', 'origin'))
    .split('\n')
    .filter((l) => l && !l.includes('HEAD'))
    .sort();

beforeAll(async () => {
  p = await TestPlatform.start();
  cli = new Cli(mkdtempSync(join(tmpdir(), 'platform-cli-push-')));
  Object.assign(cli.env, GIT_ENV);
  expect((await cli.run(['login', '--url', p.baseUrl, '--token', await p.apiKey()])).code).toBe(0);
  expect((await cli.run(['repo', 'create', repo])).code).toBe(0);
  expect((await cli.run(['repo', 'clone', repo])).code).toBe(0);
  work = join(cli.cwd, repo);
  cli.cwd = work;
  await git(work, 'switch', '-q', '-c', 'main');
  // Random data doesn't compress or delta: this clone's git is told not to try (its packs, measured
  // and pushed, are the same size; git spends no CPU on deflating and delta-searching 30 MB).
  await git(work, 'config', 'core.bigFileThreshold', '1m');
  await git(work, 'config', 'core.compression', '0');
});
afterAll(async () => {
  await p?.close();
});

describe('platform repo push', () => {
  let history: string[];

  // About 30 s on a quiet 2-core machine: 30 MB goes through git twice (refused, then in increments).
  it('a 30 MB history git push refuses goes in increments; stopped, it goes on from the remote', async () => {
    history = await commitRandom('part', 6, 5 * MB);
    await git(work, 'tag', 'v1', history[2] as string);
    const plain = await gitRun(work, 'push', 'origin', 'main');
    expect(plain.code).not.toBe(0);
    expect(plain.out).toContain('remote: This push is larger than 6 MB');
    expect(plain.out).toContain('remote: Or run platform repo push');
    expect(await remoteRefs(work)).toEqual([]);

    // Stopped (Ctrl-C) once the first increment is in: the remote's main is where it stopped.
    const stopped = await runInterrupted(['repo', 'push'], /^Pushed 1 of/m);
    expect(stopped.stderr).toMatch(/^Pushing main to origin: 6 commits, about 28\.\d MB, in about 6 pushes\.$/m);
    expect(stopped.stderr).toMatch(/^Pushed 1 of ~6: [0-9a-f]{7} \(4\.\d MB, 1\/6 commits\)$/m);
    expect(stopped.code).toBe(130);
    const at = /^Stopped after (\d) pushes: origin's main is at ([0-9a-f]{7})\. Run platform repo push again/m.exec(
      stopped.stderr,
    );
    expect(at).not.toBeNull();
    const sent = Number(at?.[1]);
    expect(sent).toBeLessThan(6);
    const remoteMain = (await remoteRefs(work))[0]?.split('\t')[0] as string;
    expect(remoteMain).toBe(history[sent - 1]);
    expect(remoteMain.slice(0, 7)).toBe(at?.[2]);

    // Again, with a tag pushed as git pushes it: only what the remote lacks is sent.
    const again = await cli.run(['repo', 'push', 'origin', 'main', 'v1', '--json']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ remote: 'origin', branch: 'main', from: remoteMain, to: history[5], refs: ['v1'] });
    expect(summary.increments.map((i: { commit: string }) => i.commit)).toEqual(history.slice(sent));
    for (const i of summary.increments) expect(i.bytes).toBeLessThan(5 * 1024 * 1024);
    expect(summary.bytes).toBeLessThan((6 - sent) * 5.1 * MB);

    // A fresh clone has the same refs and tip.
    const fresh = join(mkdtempSync(join(tmpdir(), 'platform-cli-fresh-')), 'fresh');
    expect((await cli.run(['repo', 'clone', repo, fresh])).code).toBe(0);
    expect(await git(fresh, 'rev-parse', 'HEAD')).toBe(history[5]);
    expect(await git(fresh, 'rev-parse', 'v1^{commit}')).toBe(history[2]);
    expect(await remoteRefs(work)).toEqual(
      [`${history[5]}\trefs/heads/main`, `${await git(work, 'rev-parse', 'v1')}\trefs/tags/v1`].sort(),
    );

    const idle = await cli.run(['repo', 'push']);
    expect(idle).toEqual({
      code: 0,
      stdout: `origin's main is up to date (${history[5]?.slice(0, 7)}).\n`,
      stderr: '',
    });
  }, 180_000);

  it('on a terminal, a progress bar redrawn in place', async () => {
    await git(work, 'switch', '-q', '-c', 'feature');
    const made = await commitRandom('feature', 3, 2 * MB);
    const res = await cli.run(['repo', 'push', 'origin', 'feature'], { tty: true });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('\r\x1b[K');
    expect(res.stderr).toMatch(/\[█+░+\] push 2 of ~2: [0-9a-f]{7}/);
    expect(res.stdout).toMatch(
      /^Pushed feature to origin: \(new\)\.\.[0-9a-f]{7}, 3 commits in 2 pushes \(5\.\d MB\)\.\n$/,
    );
    expect(await git(work, 'ls-remote', 'origin', 'refs/heads/feature')).toBe(`${made[2]}\trefs/heads/feature`);
  });

  it('a commit too large alone is refused before anything is pushed, naming Git LFS and the file', async () => {
    await git(work, 'switch', '-q', '-c', 'big', 'main');
    await commitRandom('small', 1, 1000);
    writeFileSync(join(work, 'video.mp4'), randomBytes(7 * 1024 * 1024));
    await git(work, 'add', '.');
    await git(work, 'commit', '-q', '-m', 'big');
    const res = await cli.run(['repo', 'push', 'origin', 'big']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^Error: Commit [0-9a-f]{7} alone packs to 7\.0 MB, more than the 6 MB one push can carry\./,
    );
    expect(res.stderr).toContain('Its largest files: video.mp4 (7.0 MB).');
    expect(res.stderr).toContain("git lfs track 'video.mp4'");
    expect(res.stderr).toContain("git lfs migrate import --include='video.mp4'");
    expect(await git(work, 'ls-remote', 'origin', 'refs/heads/big')).toBe('');
  });

  it('refusals: no such branch, a remote that moved on', async () => {
    expect(await cli.run(['repo', 'push', 'origin', 'nope'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^Error: No local branch nope to push\./),
    });
    await git(work, 'switch', '-q', '-c', 'other', history[4] as string);
    await commitRandom('other', 1, 10);
    await git(work, 'branch', '-q', '-f', 'main', 'other');
    const res = await cli.run(['repo', 'push', 'origin', 'main']);
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: "Error: origin's main has moved on from this one: git pull origin main first.\n",
    });
  });
});
