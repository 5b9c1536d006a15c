import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { readEnv } from '../../../kernel/ground/env';
import { describeError, log } from '../../../kernel/ground/log';
import { addressesFor, systemResolver, UnsafeUrlError } from '../../../kernel/net/guarded-fetch';
import { git } from '../../../ports/git';
import { secrets } from '../../../ports/secrets';
import { loopbackAllowed } from '../../connectors/records';
import { updateResource } from '../../resources/records';
import { LFS_CONTENT_TYPE, uploadBatch } from '../lfs/objects';
import { deleteRepository, type RepoRecord, repoById } from '../records';
import { indexTagMoves } from '../tags';
import { credentialsContext, getImport, IMPORT_M, type ImportPhase, type ImportRecord, moveImport } from './records';

/**
 * The import job: what runs where builds run (the local builder's child process on one machine, the
 * import's CodeBuild project on AWS), never in an API function, so it meets the build's time limit
 * and disk, not Lambda's 15 minutes and 6 MB. It
 * 1. clones the source with `git clone --mirror` through the guarded network path: the host's
 *    addresses are checked as the guarded fetch checks them (public only; loopback where `npm start`
 *    allows it, as for connectors) and git connects to those addresses only (`http.curloptResolve`),
 *    follows no redirect and speaks http(s) only;
 * 2. fetches the Git LFS objects of every ref when the history points at some, and stores them as
 *    the LFS routes do (uploadBatch's presigned links, counted against the plan);
 * 3. creates the repository's storage with the source's default branch and pushes every branch and
 *    tag into it, at most PUSH_REFS refs a push (CodeCommit takes 4,000 ref changes a push);
 * 4. makes the repository `active` and the import `succeeded`.
 * Progress (phase, objects, bytes) is written to the import record at most once a second; a write
 * that finds the import finished (cancelled) stops the job. Any failure removes the repository, its
 * storage and its LFS objects, and records the reason: a failed or cancelled import leaves nothing.
 */
const PUSH_REFS = 1000;
const PROGRESS_EVERY_MS = 1000;

class ImportFailed extends Error {}
class Cancelled extends Error {}

type Progress = { phase: ImportPhase; objects: number; bytes: number };

const UNITS: Record<string, number> = { B: 1, bytes: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** `Receiving objects:  45% (450/1000), 12.50 MiB | …` → objects and bytes so far. */
export function parseGitProgress(line: string): { objects: number; bytes: number } | undefined {
  const m = /(?:Receiving|Writing) objects:\s+\d+% \((\d+)\/\d+\)(?:, ([\d.]+) (bytes|KiB|MiB|GiB))?/.exec(line);
  if (!m) return undefined;
  return { objects: Number(m[1]), bytes: m[2] ? Math.round(Number(m[2]) * (UNITS[m[3] as string] ?? 1)) : 0 };
}

/** The LFS endpoint git-lfs derives from a clone URL: `<url>/info/lfs`, with `.git` added when missing. */
const lfsEndpointOf = (url: URL) => {
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  return `${base.endsWith('.git') ? base : `${base}.git`}/info/lfs`;
};

/** The `-c` settings that hold git to the checked addresses and to http(s), with no prompt or redirect. */
async function guardedGitConfig(url: URL): Promise<string[]> {
  const loopback = loopbackAllowed();
  if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:')) throw new ImportFailed(IMPORT_M.badUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = await addressesFor(host, systemResolver, loopback, 'url');
  } catch (err) {
    throw new ImportFailed(err instanceof UnsafeUrlError ? err.message : IMPORT_M.unreachable);
  }
  const pinned = addresses.map((a) => (a.address.includes(':') ? `[${a.address}]` : a.address)).join(',');
  return [
    `http.curloptResolve=${host}:${port}:${pinned}`,
    'http.followRedirects=false',
    'protocol.allow=never',
    `protocol.${url.protocol.slice(0, -1)}.allow=always`,
    'core.hooksPath=/dev/null',
    // The LFS server is the source's own (as git-lfs derives it), never one the source's
    // `.lfsconfig` names: that file is the tenant's and could point git-lfs at an internal address.
    `lfs.url=${lfsEndpointOf(url)}`,
    'credential.helper=',
    'credential.helper=!f() { test "$1" = get && echo "username=$IMPORT_SOURCE_USER" && echo "password=$IMPORT_SOURCE_PASSWORD"; }; f',
  ];
}

interface Run {
  record: ImportRecord;
  child?: ChildProcess;
  progress: Progress;
  lastWrite: number;
  cancelled: boolean;
}

let current: Run | undefined;

/** Stops the running import's git at once (the job's process was told to stop: a cancel). */
export function stopRunningImport(): void {
  if (!current) return;
  current.cancelled = true;
  current.child?.kill('SIGTERM');
}

/** Writes progress (throttled unless `force`); a finished import (cancelled) stops the job. */
async function report(run: Run, next: Partial<Progress>, force = false): Promise<void> {
  run.progress = { ...run.progress, ...next };
  const now = Date.now();
  if (!force && now - run.lastWrite < PROGRESS_EVERY_MS) return;
  run.lastWrite = now;
  const still = await moveImport(run.record, { state: 'running', progress: run.progress });
  if (!still) {
    run.cancelled = true;
    run.child?.kill('SIGTERM');
    throw new Cancelled(IMPORT_M.cancelled);
  }
}

/** Runs git with the job's environment; its progress lines feed `onLine`. Rejects with its last lines. */
function runGit(
  run: Run,
  cwd: string,
  args: string[],
  env: Record<string, string>,
  onLine?: (line: string) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    run.child = child;
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString('utf8');
      err = (err + text).slice(-4000);
      if (onLine) for (const line of text.split(/[\r\n]+/)) if (line) onLine(line);
    });
    if (run.cancelled) child.kill('SIGTERM');
    child.on('error', reject);
    child.on('close', (code) => {
      run.child = undefined;
      if (run.cancelled) reject(new Cancelled(IMPORT_M.cancelled));
      else if (code === 0) resolve(out);
      else
        reject(
          new Error(
            `git ${args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? ''} failed (${code}): ${err.trim().slice(-600)}`,
          ),
        );
    });
  });
}

/** Every file under `dir` (LFS keeps objects as `lfs/objects/ab/cd/<oid>`). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as { path: string }).path, e.name));
}

/** Brings the LFS objects of every ref along, when the history points at some. */
async function importLfs(run: Run, mirror: string, repo: RepoRecord, env: Record<string, string>, cfg: string[]) {
  const pointers = await runGit(run, mirror, [...cfg, 'lfs', 'ls-files', '--all', '--long'], env).catch(() => '');
  if (!pointers.trim()) return;
  await report(run, { phase: 'lfs' }, true);
  try {
    await runGit(run, mirror, [...cfg, 'lfs', 'fetch', '--all', 'origin'], env);
  } catch (err) {
    if (err instanceof Cancelled) throw err;
    log.warn('repository import: LFS fetch failed', { importId: run.record.importId, error: describeError(err) });
    throw new ImportFailed(IMPORT_M.lfsFailed);
  }
  const files = await filesUnder(join(mirror, 'lfs', 'objects'));
  const objects = await Promise.all(files.map(async (f) => ({ oid: f.slice(-64), size: (await stat(f)).size, f })));
  const lfsRepo = { orgId: repo.orgId, repoId: repo.resourceId };
  for (let i = 0; i < objects.length; i += 100) {
    const batch = objects.slice(i, i + 100);
    // Past the plan's storage this throws its message (PlanExceeded), which the import reports.
    const answers = await uploadBatch(lfsRepo, batch, { href: '' });
    for (const [j, a] of answers.entries()) {
      const upload = a.actions?.upload;
      if (!upload) continue;
      const o = batch[j] as (typeof batch)[number];
      const res = await fetch(upload.href, {
        method: 'PUT',
        headers: { 'Content-Type': LFS_CONTENT_TYPE, 'Content-Length': String(o.size) },
        body: Readable.toWeb(createReadStream(o.f)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      if (!res.ok) throw new ImportFailed(IMPORT_M.lfsFailed);
      await report(run, { bytes: run.progress.bytes + o.size });
    }
  }
}

/** Pushes every branch and tag of the mirror into the repository, PUSH_REFS refs at a time. */
async function pushAll(run: Run, mirror: string, repo: RepoRecord, env: Record<string, string>) {
  const port = await git();
  const target = port.pushTarget(repo.resourceId);
  const refs = (await runGit(run, mirror, ['for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags'], env))
    .split('\n')
    .filter(Boolean);
  const cfg = target.config.flatMap((c) => ['-c', c]);
  for (let i = 0; i < refs.length; i += PUSH_REFS) {
    const specs = refs.slice(i, i + PUSH_REFS).map((r) => `+${r}:${r}`);
    try {
      await runGit(run, mirror, [...cfg, 'push', '--progress', '--no-verify', target.url, ...specs], env, (line) => {
        const p = parseGitProgress(line);
        if (p) void report(run, { objects: p.objects }).catch(() => undefined);
      });
    } catch (err) {
      if (err instanceof Cancelled) throw err;
      log.warn('repository import: push failed', { importId: run.record.importId, error: describeError(err) });
      throw new ImportFailed(IMPORT_M.pushFailed);
    }
  }
  // The tags index (what CodeCommit's API can't list), as pushes keep it.
  const tags = (await port.refs(repo.resourceId)).tags;
  if (!port.listsTags || tags.length > 0) {
    const lines = await runGit(
      run,
      mirror,
      ['for-each-ref', '--format=%(refname:short) %(objectname) %(*objectname)', 'refs/tags'],
      env,
    );
    const moves = lines
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [name, next, commit] = l.split(' ') as [string, string, string | undefined];
        return { name, next, commit: commit || next };
      });
    for (let i = 0; i < moves.length; i += 25) await indexTagMoves(repo.resourceId, moves.slice(i, i + 25));
  }
}

/** The source's default branch (the mirror's HEAD), when it names a branch the mirror has. */
async function defaultBranchOf(run: Run, mirror: string, env: Record<string, string>): Promise<string | undefined> {
  const head = (await runGit(run, mirror, ['symbolic-ref', '--quiet', 'HEAD'], env).catch(() => '')).trim();
  if (!head.startsWith('refs/heads/')) return undefined;
  const has = await runGit(run, mirror, ['rev-parse', '--verify', '--quiet', head], env).catch(() => '');
  return has.trim() ? head.slice('refs/heads/'.length) : undefined;
}

/** Runs the import `importId` of `orgId` to its final state. Never throws for the import's own failures. */
export async function runImport(orgId: string, importId: string): Promise<ImportRecord['state']> {
  const record = await getImport(orgId, importId);
  if (record?.state !== 'queued') return record?.state ?? 'failed';
  const run: Run = {
    record,
    progress: { phase: 'cloning', objects: 0, bytes: 0 },
    lastWrite: 0,
    cancelled: false,
  };
  current = run;
  const work = await mkdtemp(join(readEnv('IMPORT_WORK_DIR') ?? tmpdir(), 'import-'));
  const mirror = join(work, 'mirror.git');
  let repo: RepoRecord | undefined;
  try {
    await report(run, {}, true);
    repo = await repoById(record.repoId);
    if (!repo) throw new ImportFailed(IMPORT_M.lost);
    const [user, password] = record.sealedCredentials
      ? ((await secrets().decrypt(credentialsContext(orgId, importId), [record.sealedCredentials]))[0] ?? ':').split(
          /:(.*)/s,
        )
      : ['', ''];
    const env: Record<string, string> = {
      PATH: readEnv('PATH') ?? '/usr/bin:/bin',
      HOME: work,
      LANG: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_LFS_SKIP_SMUDGE: '1',
      IMPORT_SOURCE_USER: user ?? '',
      IMPORT_SOURCE_PASSWORD: password ?? '',
    };
    const cfg = (await guardedGitConfig(new URL(record.url))).flatMap((c) => ['-c', c]);
    try {
      await runGit(run, work, [...cfg, 'clone', '--mirror', '--progress', '--', record.url, mirror], env, (line) => {
        const p = parseGitProgress(line);
        if (p) void report(run, p).catch(() => undefined);
      });
    } catch (err) {
      if (err instanceof Cancelled) throw err;
      log.warn('repository import: clone failed', { importId, error: describeError(err) });
      throw new ImportFailed(IMPORT_M.unreachable);
    }
    const sizes = await runGit(run, mirror, ['count-objects', '-v'], env);
    const count = (k: string) => Number(new RegExp(`^${k}: (\\d+)`, 'm').exec(sizes)?.[1] ?? 0);
    await report(
      run,
      { objects: count('in-pack') + count('count'), bytes: (count('size-pack') + count('size')) * 1024 },
      true,
    );
    const branch = await defaultBranchOf(run, mirror, env);
    const anyRef = (await runGit(run, mirror, ['for-each-ref', '--count=1', 'refs/heads', 'refs/tags'], env)).trim();
    if (!anyRef) throw new ImportFailed(IMPORT_M.empty);

    await importLfs(run, mirror, repo, env, cfg);
    await report(run, { phase: 'pushing' }, true);
    const defaultBranch = branch ?? repo.defaultBranch;
    await (await git()).create(repo.resourceId, defaultBranch);
    await pushAll(run, mirror, repo, env);

    const fresh = (await repoById(repo.resourceId)) ?? repo;
    await updateResource(fresh, { status: 'active', defaultBranch, importId: undefined } as never);
    const done = await moveImport(record, {
      state: 'succeeded',
      progress: { ...run.progress, phase: 'done' },
      message: null,
    });
    if (!done) throw new Cancelled(IMPORT_M.cancelled);
    return 'succeeded';
  } catch (err) {
    const cancelled = err instanceof Cancelled || run.cancelled;
    const message = cancelled
      ? IMPORT_M.cancelled
      : err instanceof ImportFailed || (err as Error).name === 'PlanExceeded'
        ? (err as Error).message
        : IMPORT_M.lost;
    if (!(err instanceof ImportFailed || err instanceof Cancelled))
      log.error('repository import failed', { importId, error: describeError(err) });
    // Nothing is left behind: the repository (its record, storage and LFS objects) goes.
    const left = repo && (await repoById(repo.resourceId));
    if (left) await deleteRepository(left);
    await moveImport(record, { state: cancelled ? 'cancelled' : 'failed', message });
    return cancelled ? 'cancelled' : 'failed';
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
