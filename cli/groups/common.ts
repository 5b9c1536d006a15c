import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, UsageError } from '../context';
import type { Ctx, OptionSpec } from '../spec';

/**
 * A local file named on the command line: its path and size. Anything but a file (or, with
 * `empty: false`, an empty one) is a usage error.
 */
export function localFile(c: Pick<Ctx, 'io'>, name: string, options: { empty?: boolean } = {}) {
  const file = resolve(c.io.cwd, name);
  let size: number | undefined;
  try {
    const stat = statSync(file);
    if (stat.isFile()) size = stat.size;
  } catch {
    // Said below.
  }
  if (options.empty === false && size === 0) throw new UsageError(`${name} is not a file (or is empty).`);
  if (size === undefined)
    throw new UsageError(`${name} is not a file${options.empty === false ? ' (or is empty)' : ''}.`);
  return { file, size };
}

/** `--project P`: a project of the organization, by slug or id (defaults: PLATFORM_PROJECT, the linked folder). */
export const PROJECT: OptionSpec = {
  type: 'string',
  value: 'P',
  help: "the project's slug or id (default: PLATFORM_PROJECT, or the linked folder's)",
  complete: 'project',
};

/** `--repo R`: a repository of the organization (default: the one `origin` points to here). */
export const REPO: OptionSpec = {
  type: 'string',
  value: 'R',
  help: "the repository (default: the one git's origin points to in this folder)",
  complete: 'repo',
};

/**
 * Runs git in a folder: its stdout, trimmed; a failure is the command's refusal (exit 1). Never
 * synchronous: the platform git talks to may answer from this very process (tests, npm start).
 */
export function git(c: Pick<Ctx, 'io'>, cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: { ...process.env, ...c.io.env, GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => reject(new CliError(`git: ${e.message}`)));
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8').trim();
      if (code === 0) resolve(stdout);
      else reject(new CliError(`git ${args[0]} failed: ${Buffer.concat(err).toString('utf8').trim() || stdout}`));
    });
  });
}

const gitQuiet = (c: Pick<Ctx, 'io'>, cwd: string, args: string[]) => git(c, cwd, args).catch(() => undefined);

/** The repository's name from a clone URL (`…/<name>.git`). */
export const repoNameOf = (url: string) => /\/([^/]+?)(\.git)?\/?$/.exec(url)?.[1];

export async function repoOf(c: Ctx): Promise<string> {
  const given = c.str('repo');
  if (given) return given;
  const origin = await gitQuiet(c, c.io.cwd, ['remote', 'get-url', 'origin']);
  const name = origin ? repoNameOf(origin) : undefined;
  if (!name) throw new UsageError('Name the repository: --repo <name> (or run it in a clone of it).');
  return name;
}

export const currentBranch = (c: Ctx) => gitQuiet(c, c.io.cwd, ['symbolic-ref', '--short', '-q', 'HEAD']);

/** A pull request or issue number argument. */
export function numberArg(c: Ctx, index = 0): string {
  const value = c.args[index] ?? '';
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`${value || 'The number'} is not a number (1, 2, …).`);
  return value;
}

/** `a,b` → `['a', 'b']`. */
export const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);

/** A whole number option, checked before any request. */
export function intOption(c: Ctx, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = c.str(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max)
    throw new UsageError(`--${name} takes a whole number from ${min} to ${max}.`);
  return n;
}

/** Text of `--body`, else `--body-file` (- reads stdin). */
export async function bodyOf(c: Ctx, name = 'body'): Promise<string | undefined> {
  const text = c.str(name);
  if (text !== undefined) return text;
  const file = c.str(`${name}-file`);
  if (file === undefined) return undefined;
  if (file === '-') return c.io.stdin();
  return readFileSync(resolve(c.io.cwd, file), 'utf8');
}
