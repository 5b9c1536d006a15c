import { spawn } from 'node:child_process';
import { CliError, UsageError } from './context';
import { currentBranch, git } from './groups/common';
import { bytes } from './output';
import { bar, Progress } from './progress';
import type { Ctx } from './spec';

/**
 * `platform repo push [remote] [branch] [ref…]`: a history of any size in pushes that each fit
 * the git endpoint's request limit (6 MB, a Lambda request's). The branch's first-parent history,
 * from what the remote has to the tip, is cut into increments whose thin pack (measured with git
 * pack-objects, as git push makes it) stays under a budget with a margin; each increment is
 * pushed as `<commit>:refs/heads/<branch>` by git itself, so with the remote's own URL and
 * credential helper. The remote's ref says where a push stopped, so running it again goes on from
 * there. Other refs given are pushed as git pushes them, after the branch.
 */

/** The git endpoint's limit on one push request (functions/git/serve.ts, MAX_PUSH_BYTES). */
export const PUSH_LIMIT = 6 * 1024 * 1024;
/** An increment's pack aims at this; the rest of the limit is margin for the commands and estimates. */
const BUDGET = 5 * 1024 * 1024;
/** A single commit packed to more than this can never be pushed (the commands need their room). */
const SINGLE_MAX = PUSH_LIMIT - 64 * 1024;

interface Increment {
  commit: string;
  bytes: number;
}

export interface RepoPushResult {
  remote: string;
  branch: string;
  /** What the remote's branch was before (null: it had no such branch). */
  from: string | null;
  to: string;
  increments: Increment[];
  /** Bytes of the packs pushed, all increments. */
  bytes: number;
  refs: string[];
}

/** Runs git with `input` on stdin; answers its stdout (whole, or only its length with `count`). */
function gitPipe(cwd: string, args: string[], input: string): Promise<string>;
function gitPipe(cwd: string, args: string[], input: string, count: true): Promise<number>;
function gitPipe(cwd: string, args: string[], input: string, count?: true): Promise<string | number> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (!count) out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      err = (err + String(d)).slice(-2000);
    });
    child.on('error', (e) => reject(new CliError(`git: ${e.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve(count ? size : Buffer.concat(out).toString('utf8'))
        : reject(new CliError(`git ${args[0]} failed: ${err.trim()}`)),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** The pack git push would send for `tip` to a remote that has `have`: its size in bytes. */
const packSize = (cwd: string, tip: string, have: string[]) =>
  gitPipe(
    cwd,
    ['pack-objects', '--revs', '--stdout', '--thin', '--delta-base-offset', '-q'],
    `${[tip, ...have.map((h) => `^${h}`)].join('\n')}\n`,
    true,
  );

/** `git rev-list <options> tip ^have…`, the commits given on stdin (a remote may have many refs). */
const revList = (cwd: string, options: string[], tip: string, have: string[]) =>
  gitPipe(cwd, ['rev-list', ...options, '--stdin'], `${[tip, ...have.map((h) => `^${h}`)].join('\n')}\n`).then((out) =>
    out.trim(),
  );

/** What the objects new in `tip` (not reachable from `have`) take on disk: the plan's estimate. */
const diskUsage = async (cwd: string, tip: string, have: string[]) =>
  Number(await revList(cwd, ['--objects', '--disk-usage'], tip, have)) || 0;

/** The refs of the remote (`git ls-remote`, with the remote's own credentials): ref → commit. */
async function remoteRefs(c: Ctx, cwd: string, remote: string): Promise<Map<string, string>> {
  const out = await git(c, cwd, ['ls-remote', remote]);
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [sha, ref] = line.split('\t');
    if (sha && ref && !ref.endsWith('^{}')) refs.set(ref, sha);
  }
  return refs;
}

/** Of these commits, the ones this clone has. */
async function present(cwd: string, shas: string[]): Promise<string[]> {
  const unique = [...new Set(shas)];
  if (unique.length === 0) return [];
  const out = await gitPipe(cwd, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], `${unique.join('\n')}\n`);
  return out
    .split('\n')
    .filter((l) => / (commit|tag)$/.test(l))
    .map((l) => l.split(' ')[0] as string);
}

/** The largest files new in `commit`, for the refusal: `path (size)`. */
async function largestFiles(cwd: string, commit: string, have: string[]): Promise<string[]> {
  const named = await revList(cwd, ['--objects'], commit, have);
  const paths = new Map<string, string>();
  for (const line of named.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && space < line.length - 1) paths.set(line.slice(0, space), line.slice(space + 1));
  }
  const checked = await gitPipe(
    cwd,
    ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'],
    `${[...paths.keys()].join('\n')}\n`,
  );
  return checked
    .split('\n')
    .map((l) => l.split(' '))
    .filter((f) => f[1] === 'blob' && paths.has(f[0] as string))
    .map((f) => ({ path: paths.get(f[0] as string) as string, size: Number(f[2]) }))
    .sort((a, b) => b.size - a.size)
    .filter((f, i) => i === 0 || f.size >= 1024 * 1024)
    .slice(0, 5)
    .map((f) => `${f.path} (${bytes(f.size)})`);
}

async function tooLarge(c: Ctx, cwd: string, commit: string, size: number, have: string[]): Promise<CliError> {
  const files = await largestFiles(cwd, commit, have);
  const first = /^(.*) \(/.exec(files[0] ?? '')?.[1] ?? '<file>';
  const parents = (await git(c, cwd, ['rev-list', '--parents', '-n', '1', commit])).split(' ').length - 1;
  const merge =
    parents > 1 ? `\nIt is a merge: push the branch it merges first (platform repo push <remote> <that branch>).` : '';
  return new CliError(
    `Commit ${commit.slice(0, 7)} alone packs to ${bytes(size)}, more than the 6 MB one push can carry. ` +
      `Its largest files: ${files.join(', ')}.${merge}\n` +
      `Keep large files in Git LFS, whose objects skip this limit: git lfs track '${first}' for new commits, ` +
      `or git lfs migrate import --include='${first}' to rewrite this history; then run platform repo push again.`,
  );
}

export async function repoPush(c: Ctx): Promise<number> {
  const cwd = c.io.cwd;
  const [remote = 'origin', given, ...others] = c.args;
  const branch = given ?? (await currentBranch(c));
  if (!branch) throw new UsageError('Name the branch to push: platform repo push <remote> <branch>.');
  const tip = await git(c, cwd, ['rev-parse', '--verify', '-q', `refs/heads/${branch}^{commit}`]).catch(() => {
    throw new UsageError(`No local branch ${branch} to push.`);
  });
  const say = (line: string) => {
    if (!c.json) c.io.stderr(`${line}\n`);
  };

  const refs = await remoteRefs(c, cwd, remote);
  const target = `refs/heads/${branch}`;
  const from = refs.get(target) ?? null;
  const have = await present(cwd, [...refs.values()]);
  if (from && !have.includes(from))
    throw new CliError(`${remote}'s ${branch} has commits this clone lacks: git pull ${remote} ${branch} first.`);
  if (from && from !== tip) {
    const ancestor = await git(c, cwd, ['merge-base', '--is-ancestor', from, tip]).then(
      () => true,
      () => false,
    );
    if (!ancestor)
      throw new CliError(`${remote}'s ${branch} has moved on from this one: git pull ${remote} ${branch} first.`);
  }

  // The first-parent walk, oldest first, each commit's estimate (one estimate when all fit at once).
  const commits = (await revList(cwd, ['--first-parent', '--reverse'], tip, have)).split('\n').filter(Boolean);
  const whole = commits.length ? await diskUsage(cwd, tip, have) : 0;
  const estimates: number[] = [];
  if (whole <= BUDGET) estimates.push(...commits.map((_, i) => (i === commits.length - 1 ? whole : 0)));
  else
    for (let i = 0; i < commits.length; i++) {
      const before = i === 0 ? have : [commits[i - 1] as string, ...have];
      estimates.push(await diskUsage(cwd, commits[i] as string, before));
    }
  // Refused before anything is pushed: a commit that alone can't fit.
  for (let i = 0; i < commits.length; i++) {
    if ((estimates[i] as number) <= SINGLE_MAX) continue;
    const before = i === 0 ? have : [commits[i - 1] as string, ...have];
    const size = await packSize(cwd, commits[i] as string, before);
    if (size > SINGLE_MAX) throw await tooLarge(c, cwd, commits[i] as string, size, before);
  }
  // The plan: consecutive commits whose estimates add up to the budget at most.
  const plan: number[] = [];
  let sum = 0;
  for (let i = 0; i < commits.length; i++) {
    const e = estimates[i] as number;
    if (sum > 0 && sum + e > BUDGET) {
      plan.push(i - 1);
      sum = 0;
    }
    sum += e;
  }
  if (commits.length) plan.push(commits.length - 1);

  const total = estimates.reduce((a, b) => a + b, 0);
  const result: RepoPushResult = { remote, branch, from, to: tip, increments: [], bytes: 0, refs: others };
  const progress = c.io.tty && !c.json ? new Progress(c.io.stderr, true) : undefined;
  if (commits.length)
    say(
      `Pushing ${branch} to ${remote}${from ? ` from ${from.slice(0, 7)}` : ''}: ${commits.length} commits, ` +
        `about ${bytes(total)}, in about ${plan.length} pushes.`,
    );
  let done = -1;
  let estimated = 0;
  try {
    while (done < commits.length - 1) {
      if (c.io.signal?.aborted) {
        progress?.stop();
        c.io.stderr(
          `Stopped after ${result.increments.length} pushes: ${remote}'s ${branch} is at ` +
            `${(commits[done] ?? from ?? '').slice(0, 7) || 'nothing'}. Run platform repo push again to go on.\n`,
        );
        return 130;
      }
      const before = done < 0 ? have : [commits[done] as string, ...have];
      // The planned end; halved towards `done` while its real pack is over the budget.
      let end = plan.find((p) => p > done) as number;
      let size = await packSize(cwd, commits[end] as string, before);
      while (size > BUDGET && end > done + 1) {
        end = done + Math.max(1, Math.floor((end - done) / 2));
        size = await packSize(cwd, commits[end] as string, before);
      }
      const commit = commits[end] as string;
      const n = result.increments.length + 1;
      progress?.setStatus(
        `${bar(estimated / Math.max(total, 1))} push ${n} of ~${plan.length}: ${commit.slice(0, 7)} (${bytes(size)})`,
      );
      try {
        await git(c, cwd, ['push', '-q', remote, `${commit}:${target}`]);
      } catch (err) {
        // Ctrl-C on a terminal stops git too: said as a stop, the remote where the last push left it.
        if (c.io.signal?.aborted) continue;
        throw err;
      }
      for (let i = done + 1; i <= end; i++) estimated += estimates[i] as number;
      done = end;
      result.increments.push({ commit, bytes: size });
      result.bytes += size;
      if (progress)
        progress.setStatus(`${bar(estimated / Math.max(total, 1))} pushed ${n}: ${bytes(result.bytes)} so far`);
      else
        say(
          `Pushed ${n} of ~${plan.length}: ${commit.slice(0, 7)} (${bytes(size)}, ${end + 1}/${commits.length} commits)`,
        );
    }
  } finally {
    progress?.stop();
  }
  if (others.length) await git(c, cwd, ['push', '-q', remote, ...others]);
  return c.print(result, () =>
    commits.length === 0
      ? `${remote}'s ${branch} is up to date (${tip.slice(0, 7)}).${others.length ? ` Pushed ${others.join(', ')}.` : ''}`
      : `Pushed ${branch} to ${remote}: ${from ? from.slice(0, 7) : '(new)'}..${tip.slice(0, 7)}, ` +
        `${commits.length} commits in ${result.increments.length} pushes (${bytes(result.bytes)}).` +
        (others.length ? ` Pushed ${others.join(', ')}.` : ''),
  );
}
