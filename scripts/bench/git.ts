import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchPlatform } from './platform';
import { median } from './stats';

/**
 * Git over HTTP through the platform (local gateway → git endpoint → git http-backend) against
 * git's own transport on the same bare repository (`git clone --no-local`, which packs as a server
 * does): a clone of a fixture of about 2,000 commits and 20 MB, and a push of 1 MB. Goal ≤ 1.5×.
 * Then histories of 10 and 100 MB: pushed with `platform repo push`, imported into a new
 * repository (`POST …/repos/-/imports`, the import job from the platform's own git endpoint) and
 * cloned from there.
 */
export const GIT_RATIO_GOAL = 1.5;

export interface GitFigures {
  commits: number;
  bytes: number;
  runs: number;
  clone: { platform: number; direct: number };
  push: { platform: number; direct: number };
  /** `platform repo push` of a history past the 6 MB a push takes, per size. */
  repoPush: RepoPushFigure[];
  /** That history imported into a new repository (`POST …/repos/-/imports`), then cloned, per size. */
  imports: ImportFigure[];
  /** One file of `mb` tracked by Git LFS, pushed and cloned with the real git-lfs (absent without it). */
  lfs: LfsFigure[];
}

/** An LFS file pushed and cloned; `apiBytes`: what the API (the gateway) received and sent meanwhile. */
interface LfsFigure {
  mb: number;
  pushSeconds: number;
  pushApiBytes: number;
  cloneSeconds: number;
  cloneApiBytes: number;
}

/** An import of a repository of `mb` (the pushed history, served by the platform's own git endpoint). */
interface ImportFigure {
  mb: number;
  /** From the import's start to its `succeeded`. */
  seconds: number;
  /** The import's own count of bytes fetched. */
  bytes: number;
  /** A plain `git clone` of the imported repository. */
  cloneSeconds: number;
}

/** A history of `mb` commits of 1 MB of random data each, pushed into an empty repository. */
interface RepoPushFigure {
  mb: number;
  seconds: number;
  pushes: number;
  bytes: number;
}

/** The sizes of history `platform repo push` is timed on (MB). */
const REPO_PUSH_SIZES = [10, 100];
const BIN = join(__dirname, '..', '..', 'cli', 'bin.cjs');

const gitEnv = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
});

export function git(cwd: string, home: string, args: string[], input?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnv(home), stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err = (err + String(d)).slice(-2000);
    });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]}: ${err}`))));
    child.stdin.end(input);
  });
}

/**
 * `commits` commits, each changing one of 200 files of `size` bytes of random data (incompressible:
 * ~20 MB for 2,000 of 10 KB).
 */
function fixtureStream(commits: number, size = 10 * 1024): Buffer {
  const parts: Buffer[] = [];
  const t = Math.floor(Date.now() / 1000) - commits * 60;
  for (let i = 0; i < commits; i++) {
    const data = randomBytes(size);
    const message = `Commit ${i}`;
    parts.push(
      Buffer.from(
        `commit refs/heads/main\ncommitter Bench <bench@example.com> ${t + i * 60} +0000\ndata ${message.length}\n${message}\n` +
          `${i > 0 ? '' : ''}M 100644 inline f${i % 200}.bin\ndata ${data.length}\n`,
      ),
      data,
      Buffer.from('\n'),
    );
  }
  return Buffer.concat(parts);
}

/** The command line (its bundle) in `cwd`: its stdout. */
function platformCli(cwd: string, home: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: gitEnv(home) }, (err, stdout, stderr) =>
      err ? reject(new Error(`platform ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

const time = async (f: () => Promise<void>) => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

export async function benchGit(platform: BenchPlatform, options: { commits?: number; runs?: number } = {}) {
  const commits = options.commits ?? 2000;
  const runs = options.runs ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'platform-bench-git-'));
  process.env.DATA_DIR = join(dir, 'data');
  mkdirSync(process.env.DATA_DIR, { recursive: true });
  const home = join(dir, 'home');
  mkdirSync(home);
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway = createGateway();
  const port = await listen(gateway, 0);
  try {
    const createRepo = async () => {
      const name = `bench-${randomBytes(3).toString('hex')}`;
      const res = await fetch(`http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/repos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      if (res.status !== 201) throw new Error(`creating the bench repository: ${res.status} ${await res.text()}`);
      const created = (await res.json()) as { repo: { resourceId: string; cloneUrl: string } };
      return { ...created, url: created.repo.cloneUrl.replace('://', `://git:${platform.apiKey}@`) };
    };
    const repo = await createRepo();
    const url = repo.url;
    const { repoPath } = await import('../../shared/ports/git/local');
    const bare = repoPath(repo.repo.resourceId);

    // The fixture, written straight into the platform's repository (fast-import), then a copy to push from.
    await git(bare, home, ['fast-import', '--quiet'], fixtureStream(commits));
    const size = await new Promise<number>((resolve) =>
      execFile('du', ['-sb', bare], (_e, out) => resolve(Number(String(out).split('\t')[0]) || 0)),
    );
    const figures = {
      clone: { platform: [] as number[], direct: [] as number[] },
      push: { platform: [] as number[], direct: [] as number[] },
    };
    for (let i = 0; i < runs; i++) {
      const a = join(dir, `clone-a-${i}`);
      const b = join(dir, `clone-b-${i}`);
      figures.clone.platform.push(await time(() => git(dir, home, ['clone', '-q', url, a])));
      figures.clone.direct.push(await time(() => git(dir, home, ['clone', '-q', '--no-local', bare, b])));
      // A 1 MB commit pushed both ways: to the platform, and to a bare copy through git's own transport.
      const target = join(dir, `target-${i}.git`);
      await git(dir, home, ['clone', '-q', '--bare', '--no-local', bare, target]);
      for (const [clone, remote, series] of [
        [a, url, figures.push.platform],
        [b, target, figures.push.direct],
      ] as const) {
        writeFileSync(join(clone, `push-${i}.bin`), randomBytes(1024 * 1024));
        await git(clone, home, ['add', '.']);
        await git(clone, home, ['commit', '-q', '-m', `push ${i}`]);
        series.push(await time(() => git(clone, home, ['push', '-q', remote, `HEAD:refs/heads/push-${i}`])));
      }
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
    // `platform repo push` of a history too large for one push, into an empty repository each.
    const repoPush: RepoPushFigure[] = [];
    const imports: ImportFigure[] = [];
    // Imports fetch from loopback here, as on `npm start` (the guarded path's allowance), and seal
    // the source's credentials with the local secrets key.
    process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
    process.env.LOCAL_SECRETS_KEY ??= randomBytes(32).toString('base64');
    for (const mb of REPO_PUSH_SIZES) {
      const source = join(dir, `history-${mb}`);
      await git(dir, home, ['init', '-q', '-b', 'main', source]);
      await git(source, home, ['fast-import', '--quiet'], fixtureStream(mb, 1024 * 1024));
      const target = await createRepo();
      let out = '';
      const seconds =
        (await time(async () => {
          out = await platformCli(source, home, ['repo', 'push', target.url, 'main', '--json']);
        })) / 1000;
      const summary = JSON.parse(out) as { increments: unknown[]; bytes: number };
      repoPush.push({ mb, seconds, pushes: summary.increments.length, bytes: summary.bytes });
      rmSync(source, { recursive: true, force: true });
      imports.push(await benchImport(port, platform, mb, target.repo.cloneUrl, dir, home));
    }
    // One large file by Git LFS: its bytes go by presigned links to the S3 server, not through the API.
    const lfs: LfsFigure[] = [];
    const hasLfs = await git(dir, home, ['lfs', 'version']).then(
      () => true,
      () => false,
    );
    // Bytes on the gateway's connections, both ways (the body streams are left to the gateway).
    const sockets = new Set<Socket>();
    gateway.on('connection', (socket: Socket) => sockets.add(socket));
    const apiTotal = () => [...sockets].reduce((n, so) => n + so.bytesRead + so.bytesWritten, 0);
    let apiBytes = 0;
    for (const mb of hasLfs ? REPO_PUSH_SIZES : []) {
      const target = await createRepo();
      const work = join(dir, `lfs-${mb}`);
      await git(dir, home, ['init', '-q', '-b', 'main', work]);
      await git(work, home, ['lfs', 'install', '--local']);
      await git(work, home, ['lfs', 'track', '*.bin']);
      writeFileSync(join(work, 'large.bin'), randomBytes(mb * 1024 * 1024));
      await git(work, home, ['add', '.']);
      await git(work, home, ['commit', '-q', '-m', 'large file']);
      apiBytes = apiTotal();
      const pushSeconds = (await time(() => git(work, home, ['push', '-q', target.url, 'main']))) / 1000;
      const pushApiBytes = apiTotal() - apiBytes;
      const copy = join(dir, `lfs-clone-${mb}`);
      apiBytes = apiTotal();
      const cloneSeconds = (await time(() => git(dir, home, ['clone', '-q', target.url, copy]))) / 1000;
      lfs.push({ mb, pushSeconds, pushApiBytes, cloneSeconds, cloneApiBytes: apiTotal() - apiBytes });
      rmSync(work, { recursive: true, force: true });
      rmSync(copy, { recursive: true, force: true });
    }
    return {
      lfs,
      commits,
      bytes: size,
      runs,
      clone: { platform: median(figures.clone.platform), direct: median(figures.clone.direct) },
      push: { platform: median(figures.push.platform), direct: median(figures.push.direct) },
      repoPush,
      imports,
    } satisfies GitFigures;
  } finally {
    gateway.closeAllConnections();
    gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Imports the repository at `cloneUrl` (the platform's own, on loopback) into a new one, then clones that. */
async function benchImport(
  port: number,
  platform: BenchPlatform,
  mb: number,
  cloneUrl: string,
  dir: string,
  home: string,
): Promise<ImportFigure> {
  const api = `http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/repos/-/imports`;
  const headers = { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' };
  const name = `bench-import-${randomBytes(3).toString('hex')}`;
  const t0 = performance.now();
  const started = await fetch(api, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: cloneUrl, name, username: 'git', password: platform.apiKey }),
  });
  if (started.status !== 202) throw new Error(`starting the bench import: ${started.status} ${await started.text()}`);
  const { importId } = ((await started.json()) as { import: { importId: string } }).import;
  let done: { state: string; message: string | null; progress: { bytes: number } } | undefined;
  while (!done || done.state === 'queued' || done.state === 'running') {
    await new Promise((r) => setTimeout(r, 200));
    done = ((await (await fetch(`${api}/${importId}`, { headers })).json()) as { import: typeof done }).import;
  }
  const seconds = (performance.now() - t0) / 1000;
  if (done.state !== 'succeeded') throw new Error(`the bench import ${done.state}: ${done.message}`);
  const repo = (await (
    await fetch(`http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/repos/${name}`, { headers })
  ).json()) as { cloneUrl: string };
  const copy = join(dir, `imported-${mb}`);
  const url = repo.cloneUrl.replace('://', `://git:${platform.apiKey}@`);
  const cloneSeconds = (await time(() => git(dir, home, ['clone', '-q', url, copy]))) / 1000;
  rmSync(copy, { recursive: true, force: true });
  return { mb, seconds, bytes: done.progress.bytes, cloneSeconds };
}

export function renderGit(g: GitFigures): string {
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const row = (what: string, s: { platform: number; direct: number }) => {
    const r = s.platform / s.direct;
    return `| ${what} | ${ms(s.platform)} | ${ms(s.direct)} | ${r.toFixed(2)}× | ${r <= GIT_RATIO_GOAL ? 'met' : '**missed**'} |`;
  };
  return [
    `A fixture of ${g.commits} commits (${(g.bytes / 1024 / 1024).toFixed(1)} MB on disk), median of ${g.runs} runs ` +
      `(goal ≤ ${GIT_RATIO_GOAL}×):`,
    '',
    '| operation | through the platform | git --no-local | ratio | goal |',
    '|---|--:|--:|--:|---|',
    row('clone', g.clone),
    row('push of 1 MB', g.push),
    '',
    'Histories past the 6 MB one push takes (commits of 1 MB of random data), pushed into an empty',
    'repository with `platform repo push` (increments of at most 5 MB, one `git push` each):',
    '',
    '| history | seconds | pushes | bytes sent | MB/s |',
    '|---|--:|--:|--:|--:|',
    ...g.repoPush.map(
      (r) =>
        `| ${r.mb} MB | ${r.seconds.toFixed(1)} s | ${r.pushes} | ${(r.bytes / 1024 / 1024).toFixed(1)} MB | ${(r.mb / r.seconds).toFixed(1)} |`,
    ),
    '',
    'Each of those repositories imported into a new one (`platform repo import`: the import job, a',
    "child process of the local builder, fetching from the platform's own git endpoint on loopback),",
    'start to `succeeded`, then a plain `git clone` of the imported repository (0 bytes of LFS: none):',
    '',
    '| repository | import | bytes fetched | MB/s | clone |',
    '|---|--:|--:|--:|--:|',
    ...g.imports.map(
      (r) =>
        `| ${r.mb} MB | ${r.seconds.toFixed(1)} s | ${(r.bytes / 1024 / 1024).toFixed(1)} MB | ${(r.mb / r.seconds).toFixed(1)} | ${r.cloneSeconds.toFixed(1)} s |`,
    ),
    '',
    ...(g.lfs.length === 0
      ? ['Git LFS: not measured (git-lfs is not installed).', '']
      : [
          'One file of that size tracked by Git LFS, `git push` and `git clone` with the real git-lfs, and the',
          "bytes the API (the local gateway) carried meanwhile: the object's own bytes go by presigned links",
          'to the S3 server, so the API carries the pointer, the batch calls and the pack:',
          '',
          '| LFS file | push | bytes through the API | clone | bytes through the API |',
          '|---|--:|--:|--:|--:|',
          ...g.lfs.map(
            (r) =>
              `| ${r.mb} MB | ${r.pushSeconds.toFixed(1)} s | ${(r.pushApiBytes / 1024).toFixed(1)} KB | ${r.cloneSeconds.toFixed(1)} s | ${(r.cloneApiBytes / 1024).toFixed(1)} KB |`,
          ),
          '',
        ]),
  ].join('\n');
}
