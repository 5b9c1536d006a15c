import type { Readable } from 'node:stream';
import { createLock, LOCKS, listLocks, unlock, validPath } from '../../shared/domains/repos/lfs/locks';
import {
  downloadBatch,
  invalidObject,
  LFS,
  type LfsObjectRequest,
  MAX_BATCH_OBJECTS,
  PlanExceeded,
  uploadBatch,
  verifyObject,
} from '../../shared/domains/repos/lfs/objects';
import type { GitAnswer, GitCaller, GitRepo } from './types';

/**
 * Git LFS on every repository's git URL (`<repo>.git/info/lfs/…`): the Batch API with the basic
 * transfer adapter and `verify`, and the locks API. Answers are `application/vnd.git-lfs+json`;
 * errors `{ message }` with the API's status codes. The bytes go by presigned links to the
 * platform's bucket (shared/domains/repos/lfs): nothing larger than a lock list passes here.
 */
export const LFS_PATH =
  /^info\/lfs\/(objects\/batch|objects\/verify|locks|locks\/verify|locks\/([0-9a-z_]{1,80})\/unlock)$/;
const MAX_LFS_REQUEST_BYTES = 1024 * 1024;
const LFS_TYPE = 'application/vnd.git-lfs+json';

export const json = (status: number, body: unknown): GitAnswer => ({
  status,
  headers: { 'content-type': LFS_TYPE, 'cache-control': 'no-cache' },
  body: Buffer.from(JSON.stringify(body)),
});
const error = (status: number, message: string) => json(status, { message });

/** What each LFS request needs of the credential: reading objects and locks, or changing them. */
export function lfsScope(route: string, method: string, operation: unknown): 'git:read' | 'git:write' {
  if (route === 'objects/batch') return operation === 'download' ? 'git:read' : 'git:write';
  if (route === 'locks' && method === 'GET') return 'git:read';
  return 'git:write';
}

/** The JSON body of an LFS request (undefined when it is not JSON, or too large to be one). */
export async function readLfsBody(body: Readable): Promise<Record<string, unknown> | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_LFS_REQUEST_BYTES) return undefined;
    parts.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    const parsed = JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface LfsRequest {
  orgId: string;
  repo: GitRepo;
  caller: GitCaller;
  method: string;
  route: string;
  lockId?: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** This repository's git URL as the client reached it (for the `verify` action's link). */
  repoUrl: string;
}

/**
 * An upload's verify: the staged upload's size and SHA-256 checked and the object moved into place
 * (only then is it served), a mismatch removed. `staged` names the upload of the verify token.
 */
export async function verifyLfs(
  orgId: string,
  repo: GitRepo,
  o: LfsObjectRequest,
  staged?: string,
): Promise<GitAnswer> {
  const bad = invalidObject(o);
  if (bad) return error(422, bad);
  const result = await verifyObject({ orgId, repoId: repo.repoId }, o, staged);
  if (result === 'missing') return error(404, LFS.notUploaded);
  if (result === 'mismatch') return error(422, LFS.mismatch);
  return json(200, {});
}

/** One LFS request of a caller already allowed its scope. */
export async function serveLfs(req: LfsRequest): Promise<GitAnswer> {
  const repo = { orgId: req.orgId, repoId: req.repo.repoId };
  const expect = req.route === 'locks' ? (req.method === 'GET' ? 'GET' : 'POST') : 'POST';
  if (req.method !== expect) return { ...error(405, `${expect} only.`), headers: { allow: expect } };
  switch (req.route) {
    case 'objects/batch': {
      const { operation, objects, transfers } = req.body;
      if (operation !== 'download' && operation !== 'upload')
        return error(422, 'operation must be download or upload.');
      if (!Array.isArray(objects) || objects.length > MAX_BATCH_OBJECTS)
        return error(422, `objects must be a list of at most ${MAX_BATCH_OBJECTS} objects.`);
      if (Array.isArray(transfers) && transfers.length > 0 && !transfers.includes('basic'))
        return error(422, 'Only the basic transfer adapter is served.');
      const list = objects as LfsObjectRequest[];
      try {
        const answers =
          operation === 'download'
            ? await downloadBatch(repo, list)
            : await uploadBatch(repo, list, { href: `${req.repoUrl}/info/lfs/objects/verify` });
        return json(200, { transfer: 'basic', objects: answers, hash_algo: 'sha256' });
      } catch (err) {
        if (err instanceof PlanExceeded) return error(507, err.message);
        throw err;
      }
    }
    case 'objects/verify':
      return verifyLfs(req.orgId, req.repo, { oid: req.body.oid, size: req.body.size } as LfsObjectRequest);
    case 'locks': {
      if (req.method === 'GET') {
        const locks = await listLocks(repo.repoId, {
          path: req.query.get('path') ?? undefined,
          id: req.query.get('id') ?? undefined,
        });
        return json(200, { locks });
      }
      if (!validPath(req.body.path)) return error(422, LOCKS.badPath);
      const made = await createLock(repo.repoId, req.body.path, req.caller.user);
      return made.existing ? json(409, { lock: made.lock, message: LOCKS.exists }) : json(201, { lock: made.lock });
    }
    case 'locks/verify': {
      const locks = await listLocks(repo.repoId);
      return json(200, {
        ours: locks.filter((l) => l.owner.name === req.caller.user),
        theirs: locks.filter((l) => l.owner.name !== req.caller.user),
      });
    }
    default: {
      const out = await unlock(
        repo.repoId,
        req.lockId as string,
        { owner: req.caller.user, admin: req.caller.admin === true },
        req.body.force === true,
      );
      if (out === 'notFound') return error(404, LOCKS.notFound);
      if (typeof out === 'string') return error(403, LOCKS[out]);
      return json(200, { lock: out });
    }
  }
}
