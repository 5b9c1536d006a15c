import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchPlatform } from './platform';
import { median } from './stats';

/**
 * Pull requests through the API against git itself on the same bare repository: a three-way merge
 * (`POST …/merge`: the pull request read, heads, merge options and approvals checked, the merge
 * written, the record moved) vs `git merge-tree --write-tree`, `commit-tree` and `update-ref` run
 * by hand; a `files` page vs `git diff base...head`. Each a fresh pair of branches, medians.
 */
export interface PullFigures {
  runs: number;
  files: number;
  merge: { api: number; git: number };
  diff: { api: number; git: number };
}

const run = (cwd: string, args: string[], input?: string) =>
  new Promise<string>((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_AUTHOR_NAME: 'Bench',
          GIT_AUTHOR_EMAIL: 'bench@example.com',
          GIT_COMMITTER_NAME: 'Bench',
          GIT_COMMITTER_EMAIL: 'bench@example.com',
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, out) => (err ? reject(err) : resolve(String(out))),
    );
    child.stdin?.end(input);
  });

const time = async (f: () => Promise<unknown>) => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

export async function benchPulls(platform: BenchPlatform, options: { runs?: number; files?: number } = {}) {
  const runs = options.runs ?? 15;
  const fileCount = options.files ?? 50;
  const dir = mkdtempSync(join(tmpdir(), 'platform-bench-pulls-'));
  process.env.DATA_DIR = join(dir, 'data');
  mkdirSync(process.env.DATA_DIR, { recursive: true });
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway = createGateway();
  const port = await listen(gateway, 0);
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/orgs/${platform.orgId}${path}`, {
      method,
      headers: { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  try {
    const name = `bench-${randomBytes(3).toString('hex')}`;
    const created = (await api('POST', '/repos', { name, readme: true })) as { repo: { resourceId: string } };
    const repoId = created.repo.resourceId;
    const { localGit, repoPath } = await import('../../shared/ports/git/local');
    const git = localGit();
    const bare = repoPath(repoId);
    const author = { name: 'Bench', email: 'bench@example.com' };
    const main = (await git.resolve(repoId, 'main'))?.commit as string;
    const lines = (tag: string) => `${Array.from({ length: 20 }, (_, i) => `line ${i} ${tag}`).join('\n')}\n`;
    /** A target branch moved on and a source branch with `fileCount` new files, from main. */
    const pair = async (label: string) => {
      for (const b of [`t-${label}`, `s-${label}`]) await git.setRef(repoId, `refs/heads/${b}`, main, null);
      await git.commit(repoId, {
        branch: `t-${label}`,
        parent: main,
        changes: [{ action: 'put', path: 'target.txt', content: Buffer.from('target\n') }],
        message: 'Target',
        author,
      });
      const changes = Array.from({ length: fileCount }, (_, i) => ({
        action: 'put' as const,
        path: `src/f${i}.txt`,
        content: Buffer.from(lines(label)),
      }));
      await git.commit(repoId, { branch: `s-${label}`, parent: main, changes, message: 'Source', author });
    };
    const figures = {
      merge: { api: [] as number[], git: [] as number[] },
      diff: { api: [] as number[], git: [] as number[] },
    };
    for (let i = 0; i < runs; i++) {
      await pair(`a${i}`);
      await pair(`g${i}`);
      const pull = (await api('POST', `/repos/${name}/pulls`, {
        title: `Bench ${i}`,
        source: `s-a${i}`,
        target: `t-a${i}`,
      })) as { pull: { number: number } };
      const path = `/repos/${name}/pulls/${pull.pull.number}`;
      figures.diff.api.push(await time(() => api('GET', `${path}/files`)));
      figures.diff.git.push(await time(() => run(bare, ['diff', `t-g${i}...s-g${i}`])));
      figures.merge.api.push(await time(() => api('POST', `${path}/merge`, { strategy: 'three-way' })));
      figures.merge.git.push(
        await time(async () => {
          const [target, source] = (await run(bare, ['rev-parse', `t-g${i}`, `s-g${i}`])).trim().split('\n');
          const tree = (await run(bare, ['merge-tree', '--write-tree', target as string, source as string])).split(
            '\n',
          )[0];
          const commit = (
            await run(
              bare,
              ['commit-tree', tree as string, '-p', target as string, '-p', source as string, '-F', '-'],
              'Merge',
            )
          ).trim();
          await run(bare, ['update-ref', `refs/heads/t-g${i}`, commit, target as string]);
        }),
      );
    }
    return {
      runs,
      files: fileCount,
      merge: { api: median(figures.merge.api), git: median(figures.merge.git) },
      diff: { api: median(figures.diff.api), git: median(figures.diff.git) },
    } satisfies PullFigures;
  } finally {
    gateway.closeAllConnections();
    gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderPulls(f: PullFigures): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const row = (what: string, git: string, s: { api: number; git: number }) =>
    `| ${what} | ${ms(s.api)} | ${git} | ${ms(s.git)} | ${(s.api / s.git).toFixed(2)}× |`;
  return [
    `A fresh pair of branches each run (the source adds ${f.files} files of 20 lines; the target moved on), ` +
      `median of ${f.runs} runs, through the local gateway:`,
    '',
    '| operation | through the API | the same with git | git | ratio |',
    '|---|--:|---|--:|--:|',
    row('three-way merge', '`merge-tree --write-tree`, `commit-tree`, `update-ref`', f.merge),
    row('`files` page', '`git diff base...head`', f.diff),
    '',
  ].join('\n');
}
