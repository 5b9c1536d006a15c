import { PassThrough, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type LfsObjectRequest, VERIFY_HEADER, verifyTokenFits } from '../../shared/domains/repos/lfs/objects';
import { describeError, log } from '../../shared/kernel/ground/log';
import type { GitHttpRequest, GitHttpResponse } from '../../shared/ports/git/http-backend';
import { LFS_PATH, json as lfsJson, lfsScope, readLfsBody, serveLfs, verifyLfs } from './lfs';
import { PktError } from './pkt-line';
import { refusals } from './protect';
import {
  mergeReport,
  type RefUpdate,
  readPushCommands,
  refusalReport,
  reportedRefs,
  wholeRefusalReport,
  writePushCommands,
  ZERO_ID,
} from './receive-pack';
import type { GitAnswer, GitCaller, GitEndpointDeps, GitRepo, GitRequest } from './types';

export type { GitAnswer, GitCaller, GitEndpointDeps, GitRepo, GitRequest } from './types';

/**
 * The largest push served: a Lambda request is at most 6 MB, and the function URL in front of the
 * git function holds that too; the local gateway holds the same limit so pushes behave as on AWS.
 */
export const MAX_PUSH_BYTES = 6 * 1024 * 1024;
/** What git prints (`remote: …`) of a push refused for its size, and the reason of each ref. */
export const PUSH_TOO_LARGE_HINT = [
  'This push is larger than 6 MB, more than the platform takes in one request.',
  'Push fewer commits at a time (git push origin <commit>:<branch>, then the rest),',
  "and track large files with Git LFS (git lfs track '*.bin'), whose objects skip this limit.",
  'Or run platform repo push: it pushes any history in steps that fit.',
];
export const PUSH_TOO_LARGE_REASON =
  'push over 6 MB: push fewer commits at a time (platform repo push), use Git LFS for large files';

const ORG_REF = '(org_[0-9a-z]{10,64}|[a-z0-9][a-z0-9-]{0,63})';
const REPO_URL = `^\\/git\\/${ORG_REF}\\/([a-z0-9][a-z0-9-]{1,38}[a-z0-9])\\.git\\/`;
const PATH = new RegExp(`${REPO_URL}(info\\/refs|git-upload-pack|git-receive-pack)$`);
const SIGN_IN = 'Sign in with a key or git credential of this organization.';
const LFS_URL = new RegExp(`${REPO_URL}(info\\/lfs\\/.+)$`);
const REALM = 'Basic realm="Platform git", charset="UTF-8"';

const text = (status: number, message: string, headers: Record<string, string> = {}): GitAnswer => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache', ...headers },
  body: Buffer.from(`${message}\n`),
});

/** The password of a Basic header: git sends `user:password`; a token as the user alone counts too. */
export function basicPassword(header: string | undefined): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon >= 0 ? decoded.slice(colon + 1) : '';
  return password || (colon >= 0 ? decoded.slice(0, colon) : decoded) || undefined;
}

/**
 * Git over HTTPS (smart HTTP) at `<base>/git/<orgId>/<name>.git`: Basic auth whose password is
 * any key or git credential of the organization with `git:read` (fetch, clone) or `git:write`
 * (push); without one, 401 with `WWW-Authenticate` so git asks. A push's commands are read before
 * its pack: the ones the repository's rules refuse never reach the storage and come back in git's
 * own report (`! [remote rejected] main (…)`), the others go through.
 */
export async function serveGit(deps: GitEndpointDeps, req: GitRequest): Promise<GitAnswer> {
  const lfs = LFS_URL.exec(req.path);
  if (lfs) return serveLfsRequest(deps, req, lfs);
  const m = PATH.exec(req.path);
  if (!m) return text(404, 'Repository not found');
  const [, orgRef, name, service] = m as unknown as [string, string, string, GitHttpRequest['service']];
  const orgId = await deps.orgIdOf(orgRef);
  const wanted = service === 'info/refs' ? req.query.get('service') : service;
  if (wanted !== 'git-upload-pack' && wanted !== 'git-receive-pack') {
    return text(403, 'Only smart HTTP is served: use git 1.6.6 or newer.');
  }
  const method = service === 'info/refs' ? 'GET' : 'POST';
  if (req.method !== method) return text(405, `${method} only.`, { allow: method });

  const signIn = () => text(401, SIGN_IN, { 'www-authenticate': REALM });
  const password = basicPassword(req.headers.authorization);
  if (!password) return signIn();
  // The repository is read together with the password; nothing of it is said until the caller is known.
  const [caller, repo] = await Promise.all([deps.authenticate(orgId, password), deps.findRepo(orgId, name)]);
  if (!caller) return signIn();
  const need = wanted === 'git-receive-pack' ? 'git:write' : 'git:read';
  if (!caller.scopes.includes(need)) {
    return text(403, `This credential can't ${need === 'git:write' ? 'push' : 'fetch'}: it needs ${need}.`);
  }
  if (!repo) return text(404, 'Repository not found');

  const base: GitHttpRequest = {
    method,
    service,
    query: service === 'info/refs' ? `service=${wanted}` : '',
    contentType: req.headers['content-type'],
    contentEncoding: req.headers['content-encoding'],
    gitProtocol: req.headers['git-protocol'],
    user: caller.user,
  };
  if (service !== 'git-receive-pack') return answer(await deps.transport(repo.repoId, { ...base, body: req.body }));
  return receivePack(deps, orgId, repo, caller, base, req.body);
}

/**
 * Git LFS at `<repo>.git/info/lfs/…` (functions/git/lfs.ts): the same passwords and scopes as git,
 * `git:read` to download and list locks, `git:write` to upload, verify and lock.
 */
async function serveLfsRequest(deps: GitEndpointDeps, req: GitRequest, m: RegExpExecArray): Promise<GitAnswer> {
  const [, orgRef, name, rest] = m as unknown as [string, string, string, string];
  const orgId = await deps.orgIdOf(orgRef);
  const route = LFS_PATH.exec(rest);
  if (!route) return lfsJson(404, { message: 'Not found' });
  const body = await readLfsBody(req.body);
  if (!body) return lfsJson(422, { message: 'The request must be a JSON object of at most 1 MB.' });
  const routeName = (route[2] ? 'locks/unlock' : route[1]) as string;
  const token = req.headers[VERIFY_HEADER.toLowerCase()];
  if (routeName === 'objects/verify' && token) {
    // An upload's verify, with the token its batch answer gave instead of the password.
    const repo = await deps.findRepo(orgId, name);
    const object = { oid: body.oid, size: body.size } as LfsObjectRequest;
    const staged = repo && verifyTokenFits({ orgId, repoId: repo.repoId }, token, object);
    if (repo && staged) return verifyLfs(orgId, repo, object, staged);
    return lfsJson(403, { message: 'This verify link is not valid. Push again.' });
  }
  const password = basicPassword(req.headers.authorization);
  const signIn = { ...lfsJson(401, { message: SIGN_IN }), headers: { 'www-authenticate': REALM } };
  if (!password) return signIn;
  const [caller, repo] = await Promise.all([deps.authenticate(orgId, password), deps.findRepo(orgId, name)]);
  if (!caller) return signIn;
  const need = lfsScope(routeName, req.method, body.operation);
  if (!caller.scopes.includes(need)) {
    const what = need === 'git:write' ? 'upload or lock' : 'download';
    return lfsJson(403, { message: `This credential can't ${what}: it needs ${need}.` });
  }
  if (!repo) return lfsJson(404, { message: 'Repository not found' });
  const proto = req.headers['x-forwarded-proto'] ?? 'http';
  return serveLfs({
    orgId,
    repo,
    caller,
    method: req.method,
    route: routeName,
    lockId: route[2],
    query: req.query,
    body,
    repoUrl: `${proto}://${req.headers.host}/git/${orgId}/${name}.git`,
  });
}

const answer = (res: GitHttpResponse): GitAnswer => ({
  status: res.status,
  headers: { 'cache-control': 'no-cache', ...res.headers },
  body: res.body,
});

async function receivePack(
  deps: GitEndpointDeps,
  orgId: string,
  repo: GitRepo,
  caller: GitCaller,
  base: GitHttpRequest,
  raw: Readable,
): Promise<GitAnswer> {
  // Read whole, as Lambda would have it, within its limit.
  const parts: Buffer[] = [];
  let size = 0;
  const incoming = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (let next = await incoming.next(); !next.done; next = await incoming.next()) {
    size += next.value.length;
    parts.push(next.value);
    if (size > MAX_PUSH_BYTES) return tooLarge(Buffer.concat(parts), base, incoming);
  }
  const whole = Readable.from([Buffer.concat(parts)]);
  const body = base.contentEncoding === 'gzip' ? whole.pipe(createGunzip()) : whole;
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let commands: Awaited<ReturnType<typeof readPushCommands>>;
  try {
    commands = await readPushCommands(chunks);
  } catch (err) {
    if (err instanceof PktError) return text(400, `This push could not be read: ${err.message}.`);
    throw err;
  }
  const refused = refusals(commands.updates, repo.rules);
  const kept = commands.updates.filter((u) => !refused.some((r) => r.ref === u.ref));
  const result = { 'content-type': 'application/x-git-receive-pack-result', 'cache-control': 'no-cache' };
  if (kept.length === 0) {
    // Nothing to pass on: the rest of the request (the pack) is read and dropped.
    for (let next = await chunks.next(); !next.done; next = await chunks.next());
    return { status: 200, headers: result, body: refusalReport(refused, commands.capabilities) };
  }
  const head = refused.length > 0 ? writePushCommands(kept, commands.capabilities, commands.shallow) : undefined;
  const forward = Readable.from(
    (async function* () {
      yield head ?? writePushCommands(commands.updates, commands.capabilities, commands.shallow);
      if (commands.rest.length > 0) yield commands.rest;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    })(),
  );
  const res = await deps.transport(repo.repoId, { ...base, contentEncoding: undefined, body: forward });
  const settle = (answer: Buffer | undefined) =>
    moved(deps, repo.repoId, kept, answer && reportedRefs(answer, commands.capabilities))
      .then((updates) => (updates.length > 0 ? deps.pushed(orgId, repo, updates, caller) : undefined))
      .catch((err: unknown) => log.error('after a push', { repoId: repo.repoId, error: describeError(err) }));
  if (refused.length === 0 && res.status === 200) {
    // Streamed as git http-backend writes it (progress lines included), by its report (kept while
    // the answer is small, as answers to pushes are). The answer ends once what the push moved is
    // settled: git reports done after the platform knows, and on Lambda nothing runs after the
    // response.
    const out = new PassThrough();
    const copy: Buffer[] = [];
    let copied = 0;
    res.body.on('data', (chunk: Buffer) => {
      copied += chunk.length;
      if (copied <= MAX_REPORT_BYTES) copy.push(chunk);
    });
    res.body.on('end', () => {
      void settle(copied <= MAX_REPORT_BYTES ? Buffer.concat(copy) : undefined).finally(() => out.end());
    });
    res.body.on('error', (err) => out.destroy(err));
    res.body.pipe(out, { end: false });
    return { status: res.status, headers: { ...result, ...res.headers }, body: out };
  }
  const answered: Buffer[] = [];
  for await (const chunk of res.body) answered.push(chunk as Buffer);
  if (res.status !== 200) return { status: res.status, headers: res.headers, body: Buffer.concat(answered) };
  await settle(Buffer.concat(answered));
  return {
    status: 200,
    headers: { ...result, ...res.headers },
    body: mergeReport(Buffer.concat(answered), refused, commands.capabilities),
  };
}

/**
 * A push larger than a request can be: its commands (at its front) are read from what arrived,
 * the rest is read and dropped, and git gets its own report refusing every ref with what to do,
 * which it prints, rather than a bare 413 it would not show. A request whose commands can't be
 * read (compressed, or cut inside them) gets the 413 with the same words.
 */
async function tooLarge(head: Buffer, base: GitHttpRequest, rest: AsyncIterator<Buffer>): Promise<GitAnswer> {
  for (let next = await rest.next(); !next.done; next = await rest.next());
  let commands: Awaited<ReturnType<typeof readPushCommands>> | undefined;
  if (base.contentEncoding !== 'gzip') {
    try {
      commands = await readPushCommands(
        (async function* () {
          yield head;
        })(),
      );
    } catch (err) {
      if (!(err instanceof PktError)) throw err;
    }
  }
  if (!commands || commands.updates.length === 0) return text(413, PUSH_TOO_LARGE_HINT.join(' '));
  return {
    status: 200,
    headers: { 'content-type': 'application/x-git-receive-pack-result', 'cache-control': 'no-cache' },
    body: wholeRefusalReport(commands.updates, commands.capabilities, PUSH_TOO_LARGE_HINT, PUSH_TOO_LARGE_REASON),
  };
}

/** The most of a push's answer kept to read its report (progress lines come before it). */
const MAX_REPORT_BYTES = 1024 * 1024;

/**
 * The commands that took effect: those git's own report says `ok`; without a report, each ref
 * now where the push wanted it (tags too where the storage lists none: CodeCommit).
 */
async function moved(
  deps: GitEndpointDeps,
  repoId: string,
  updates: RefUpdate[],
  report: Map<string, boolean> | undefined,
): Promise<RefUpdate[]> {
  if (report) return updates.filter((u) => report.get(u.ref) === true);
  const now = await deps.refs(repoId);
  return updates.filter((u) => (u.next === ZERO_ID ? !now.has(u.ref) : now.get(u.ref) === u.next));
}
