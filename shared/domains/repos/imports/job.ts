import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnv } from '../../../kernel/ground/env';
import { describeError, log } from '../../../kernel/ground/log';
import { addressesFor, systemResolver, UnsafeUrlError } from '../../../kernel/net/guarded-fetch';
import { git } from '../../../ports/git';
import { secrets } from '../../../ports/secrets';
import { loopbackAllowed } from '../../connectors/records';
import { updateResource } from '../../resources/records';
import { type LfsObjectRequest, parsePointer } from '../lfs/objects';
import { deleteRepository, type RepoRecord, repoById } from '../records';
import { indexTagMoves } from '../tags';
import { importLfsObjects, LfsImportFailed, type LfsSource } from './lfs';
import { importLimits, TransferMeter } from './limits';
import { credentialsContext, getImport, IMPORT_M, type ImportPhase, type ImportRecord, moveImport } from './records';
import { type Relay, type RelayTarget, startRelay } from './relay';

/**
 * The import job: what runs where builds run (the local builder's child process on one machine, the
 * import's CodeBuild project on AWS), never in an API function, so it meets the build's time limit
 * and disk, not Lambda's 15 minutes and 6 MB. It
 * 1. clones the source with `git clone --mirror` through the guarded network path: the host's
 *    addresses are checked as the guarded fetch checks them (public only; loopback where `npm start`
 *    allows it, as for connectors) and git reaches them through the job's relay only (./relay.ts:
 *    that host and port, those addresses), follows no redirect and speaks http(s) only;
 * 2. finds the Git LFS pointers of every branch and tag (small blobs that parse as pointers) and
 *    brings their objects from the source's Batch API through the guarded network path, checked
 *    by size and SHA-256 and stored as an LFS push stores them (./lfs.ts);
 * 3. creates the repository's storage with the source's default branch and pushes every branch and
 *    tag into it, at most PUSH_REFS refs a push (CodeCommit takes 4,000 ref changes a push);
 * 4. makes the repository `active` and the import `succeeded`.
 * Progress (phase, objects, bytes) is written to the import record at most once a second; a write
 * that finds the import finished (cancelled) stops the job. Every byte read from the source (the
 * relay's, the LFS objects') is metered against the import's limits (./limits.ts: a size cap, a
 * lowest speed while a transfer runs): past one, the transfer stops at once and the import fails
 * with the message naming it. Any failure removes the repository, its storage and its LFS objects,
 * and the job's folder, and records the reason: a failed or cancelled import leaves nothing.
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

/** The source's host and port with its checked addresses: where the relay lets git connect. */
async function guardedTarget(url: URL): Promise<RelayTarget> {
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
  return { host, port: Number(port), addresses: addresses.map((a) => a.address) };
}

/** The `-c` settings that hold git to the relay and to http(s), with no prompt or redirect. */
function guardedGitConfig(url: URL, target: RelayTarget, relay: Relay): string[] {
  const pinned = target.addresses.map((a) => (a.includes(':') ? `[${a}]` : a)).join(',');
  return [
    `http.proxy=${relay.url}`,
    `http.curloptResolve=${target.host}:${target.port}:${pinned}`,
    'http.followRedirects=false',
    'protocol.allow=never',
    `protocol.${url.protocol.slice(0, -1)}.allow=always`,
    'core.hooksPath=/dev/null',
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
  /** Stops the LFS transfers (fetches) with the import. */
  abort: AbortController;
  /** The bytes read from the source against the import's limits, once known. */
  meter?: TransferMeter;
  /** The relay of the running clone. */
  relay?: Relay;
}

let current: Run | undefined;

/** Stops the running import's git at once (the job's process was told to stop: a cancel). */
export function stopRunningImport(): void {
  if (!current) return;
  current.cancelled = true;
  current.child?.kill('SIGTERM');
  current.abort.abort();
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
    run.abort.abort();
    throw new Cancelled(IMPORT_M.cancelled);
  }
}

/**
 * Runs git with the job's environment (`input` on its stdin); its progress lines feed `onLine`.
 * Answers its output as bytes; rejects with its last lines.
 */
function gitBytes(
  run: Run,
  cwd: string,
  args: string[],
  env: Record<string, string>,
  onLine?: (line: string) => void,
  input?: string,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, stdio: 'pipe' });
    run.child = child;
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString('utf8');
      err = (err + text).slice(-4000);
      if (onLine) for (const line of text.split(/[\r\n]+/)) if (line) onLine(line);
    });
    // git may stop reading early (it failed): its exit code says so, not a broken pipe.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
    if (run.cancelled) child.kill('SIGTERM');
    child.on('error', reject);
    child.on('close', (code) => {
      run.child = undefined;
      if (run.cancelled) reject(new Cancelled(IMPORT_M.cancelled));
      else if (run.meter?.breach) reject(new ImportFailed(run.meter.breach));
      else if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new Error(
            `git ${args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? ''} failed (${code}): ${err.trim().slice(-600)}`,
          ),
        );
    });
  });
}

/** `gitBytes` answering text. */
const runGit = async (...args: Parameters<typeof gitBytes>): Promise<string> =>
  (await gitBytes(...args)).toString('utf8');

/** The largest LFS pointer file (the spec's limit); a blob larger is never a pointer. */
const MAX_POINTER_BYTES = 1024;

/**
 * The distinct LFS objects the branches and tags point at: every blob of at most
 * MAX_POINTER_BYTES reachable from them (git's own object filter) that parses as a pointer.
 */
async function lfsPointers(run: Run, mirror: string, env: Record<string, string>): Promise<LfsObjectRequest[]> {
  const listed = await runGit(
    run,
    mirror,
    [
      'rev-list',
      '--objects',
      '--no-object-names',
      `--filter=blob:limit=${MAX_POINTER_BYTES + 1}`,
      '--branches',
      '--tags',
    ],
    env,
  );
  if (!listed.trim()) return [];
  const kinds = await runGit(
    run,
    mirror,
    ['cat-file', '--batch-check=%(objecttype) %(objectname) %(objectsize)'],
    env,
    undefined,
    listed,
  );
  const small = kinds
    .split('\n')
    .map((l) => l.split(' '))
    .filter(([kind, , size]) => kind === 'blob' && Number(size) <= MAX_POINTER_BYTES)
    .map(([, oid]) => oid);
  if (small.length === 0) return [];
  const contents = await gitBytes(run, mirror, ['cat-file', '--batch'], env, undefined, `${small.join('\n')}\n`);
  const found = new Map<string, LfsObjectRequest>();
  // `<oid> blob <size>\n<content>\n`, one after the other.
  for (let at = 0; at < contents.length; ) {
    const eol = contents.indexOf(0x0a, at);
    if (eol < 0) break;
    const size = Number(contents.subarray(at, eol).toString('latin1').split(' ')[2]);
    if (!Number.isSafeInteger(size)) break;
    const pointer = parsePointer(contents.subarray(eol + 1, eol + 1 + size));
    if (pointer) found.set(pointer.oid, pointer);
    at = eol + 1 + size + 1;
  }
  return [...found.values()];
}

/** Brings the LFS objects the branches and tags point at along, when the source serves them. */
async function importLfs(run: Run, mirror: string, repo: RepoRecord, env: Record<string, string>, source: LfsSource) {
  const pointers = await lfsPointers(run, mirror, env);
  if (pointers.length === 0) return;
  await report(run, { phase: 'lfs' }, true);
  try {
    const { stored, missing } = await importLfsObjects({
      repo: { orgId: repo.orgId, repoId: repo.resourceId },
      source,
      pointers,
      workDir: join(mirror, '..'),
      signal: run.abort.signal,
      meter: run.meter,
      onObject: (bytes) => report(run, { bytes: run.progress.bytes + bytes }),
    });
    log.info('repository import: LFS objects', { importId: run.record.importId, stored, missing });
  } catch (err) {
    if (run.cancelled) throw new Cancelled(IMPORT_M.cancelled);
    if (run.meter?.breach) throw new ImportFailed(run.meter.breach);
    if (err instanceof LfsImportFailed) throw new ImportFailed(err.message);
    throw err;
  }
}

/** Pushes every branch and tag of the mirror into the repository, PUSH_REFS refs at a time. */
async function pushAll(run: Run, mirror: string, repo: RepoRecord, env: Record<string, string>) {
  const port = git();
  const target = await port.pushTarget(repo.resourceId);
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
  if (!(await port.listsTags()) || tags.length > 0) {
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
    abort: new AbortController(),
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
      IMPORT_SOURCE_USER: user ?? '',
      IMPORT_SOURCE_PASSWORD: password ?? '',
    };
    const meter = new TransferMeter(await importLimits(orgId), () => {
      // Past a limit: the transfer stops now (the relay's connections, git, the LFS fetches).
      void run.relay?.close();
      run.child?.kill('SIGTERM');
      run.abort.abort();
    });
    run.meter = meter;
    const url = new URL(record.url);
    const target = await guardedTarget(url);
    run.relay = await startRelay(target, (n) => meter.add(n));
    const cfg = guardedGitConfig(url, target, run.relay).flatMap((c) => ['-c', c]);
    meter.arm();
    try {
      await runGit(run, work, [...cfg, 'clone', '--mirror', '--progress', '--', record.url, mirror], env, (line) => {
        const p = parseGitProgress(line);
        if (p) void report(run, p).catch(() => undefined);
      });
    } catch (err) {
      if (err instanceof Cancelled || err instanceof ImportFailed) throw err;
      log.warn('repository import: clone failed', { importId, error: describeError(err) });
      throw new ImportFailed(IMPORT_M.unreachable);
    } finally {
      meter.disarm();
      await run.relay.close();
      run.relay = undefined;
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

    await importLfs(run, mirror, repo, env, { url: new URL(record.url), user: user ?? '', password: password ?? '' });
    await report(run, { phase: 'pushing' }, true);
    const defaultBranch = branch ?? repo.defaultBranch;
    await git().create(repo.resourceId, defaultBranch);
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
    const limited = run.meter?.breach;
    const message = cancelled
      ? IMPORT_M.cancelled
      : (limited ??
        (err instanceof ImportFailed || (err as Error).name === 'PlanExceeded'
          ? (err as Error).message
          : IMPORT_M.lost));
    if (limited && !cancelled)
      log.warn('repository import stopped at its limit', { importId, bytes: run.meter?.bytes });
    else if (!(err instanceof ImportFailed || err instanceof Cancelled))
      log.error('repository import failed', { importId, error: describeError(err) });
    // Nothing is left behind: the repository (its record, storage and LFS objects) goes.
    const left = repo && (await repoById(repo.resourceId));
    if (left) await deleteRepository(left);
    await moveImport(record, { state: cancelled ? 'cancelled' : 'failed', message });
    return cancelled ? 'cancelled' : 'failed';
  } finally {
    run.meter?.close();
    await run.relay?.close();
    await rm(work, { recursive: true, force: true });
  }
}
