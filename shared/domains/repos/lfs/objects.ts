import { createHash, randomBytes } from 'node:crypto';
import { artifactsBucket } from '../../../kernel/config';
import type { Organization } from '../../../kernel/identity/schema';
import { findPlan } from '../../../kernel/plans/plans';
import { decodeCursor, encodeCursor } from '../../../kernel/store/cursor';
import { getItem, keys } from '../../../kernel/store/table';
import { parseLfsPointer } from '../../../ports/builds/lfs';
import { storage } from '../../../ports/object-storage';
import { headArtifact } from '../../../ports/object-storage/artifacts';
import { errorName } from '../../../ports/object-storage/errors';
import { presignedResponse, streamedBody } from '../../../ports/object-storage/presigned';

/**
 * Git LFS objects (the Batch API's rules): kept in the platform's artifacts bucket under
 * `repo-lfs/<orgId>/<repoId>/<oid>`, uploaded and downloaded with presigned links (their bytes
 * never pass through the API), counted against the plan's `storageGb` over the organization's
 * repositories, removed with the repository.
 *
 * An object counts only once its bytes are its oid: an upload link writes a staging key of its
 * own, `repo-lfs/incoming/<orgId>/<repoId>/<oid>.<nonce>` (never served, gone after a day by the
 * bucket's lifecycle), and `verify` hashes what arrived there (SHA-256, streamed from S3, never
 * held whole) and copies it into place; a mismatch is deleted. Nothing writes the object's own key
 * but that copy, so a link's holder can't change an object once it is verified, and an upload
 * never verified is "not found" to downloads and asked for again by the next upload batch.
 */
export const LFS_LINK_SECONDS = 60 * 60;
export const LFS_CONTENT_TYPE = 'application/octet-stream';
/** The largest object taken (GitHub's is 2 GB on its free plans; S3's single PUT and CopyObject are 5 GB). */
export const MAX_LFS_OBJECT_BYTES = 5 * 1024 ** 3;
export const MAX_BATCH_OBJECTS = 1000;

const OID = /^[0-9a-f]{64}$/;
const NONCE = /^[0-9a-f]{24}$/;
const orgPrefix = (orgId: string) => `repo-lfs/${orgId}/`;
const repoPrefix = (orgId: string, repoId: string) => `${orgPrefix(orgId)}${repoId}/`;
const keyOf = (orgId: string, repoId: string, oid: string) => `${repoPrefix(orgId, repoId)}${oid}`;
/** Uploads waiting for their verify (the bucket's lifecycle removes them after a day on AWS). */
export const LFS_STAGING_PREFIX = 'repo-lfs/incoming/';
const stagingOrgPrefix = (orgId: string) => `${LFS_STAGING_PREFIX}${orgId}/`;
const stagingRepoPrefix = (orgId: string, repoId: string) => `${stagingOrgPrefix(orgId)}${repoId}/`;
const stagedKey = (repo: LfsRepo, oid: string, nonce: string) =>
  `${stagingRepoPrefix(repo.orgId, repo.repoId)}${oid}.${nonce}`;
const bucket = () => ({ name: artifactsBucket() });

/** Where a repository's verified LFS objects are (`<prefix><oid>`), for builds that fetch them. */
export const lfsObjectPrefix = (repo: LfsRepo) => repoPrefix(repo.orgId, repo.repoId);

export interface LfsRepo {
  orgId: string;
  repoId: string;
}

export interface LfsObjectRequest {
  oid: string;
  size: number;
}

export interface LfsAction {
  href: string;
  header?: Record<string, string>;
  expires_in: number;
}

/** One object of a batch answer: its actions, or its error (the Batch API's per-object codes). */
export interface LfsObjectAnswer {
  oid: string;
  size: number;
  authenticated?: boolean;
  actions?: Record<string, LfsAction>;
  error?: { code: number; message: string };
}

export const LFS = {
  badObject: 'An object needs an oid (64 hex digits, its SHA-256) and a size (0 or more bytes).',
  tooLarge: `An LFS object is at most ${MAX_LFS_OBJECT_BYTES / 1024 ** 3} GB.`,
  missing: 'Object does not exist',
  notUploaded: 'The object was not uploaded. Push it again.',
  mismatch: "The uploaded object doesn't match its oid and size: it was removed. Push it again.",
  overPlan: (gb: number) =>
    `These LFS objects would pass your plan's storage of ${gb} GB. Remove large files from your repositories or move to a larger plan.`,
} as const;

/** The size of the object when it is stored (verified), else undefined. */
const storedSize = async (repo: LfsRepo, oid: string) =>
  (await headArtifact(keyOf(repo.orgId, repo.repoId, oid)))?.size;

const invalid = (o: LfsObjectRequest): string | undefined =>
  typeof o?.oid !== 'string' || !OID.test(o.oid) || !Number.isSafeInteger(o.size) || o.size < 0
    ? LFS.badObject
    : o.size > MAX_LFS_OBJECT_BYTES
      ? LFS.tooLarge
      : undefined;

/** Links to download the objects; a missing one is its 404, never a link. */
export function downloadBatch(repo: LfsRepo, objects: LfsObjectRequest[]): Promise<LfsObjectAnswer[]> {
  return Promise.all(
    objects.map(async (o): Promise<LfsObjectAnswer> => {
      const bad = invalid(o);
      if (bad) return { oid: String(o?.oid), size: Number(o?.size), error: { code: 422, message: bad } };
      const size = await storedSize(repo, o.oid);
      if (size === undefined || size !== o.size) return { ...o, error: { code: 404, message: LFS.missing } };
      const href = await storage().presignGet(bucket(), keyOf(repo.orgId, repo.repoId, o.oid), {
        expiresIn: LFS_LINK_SECONDS,
      });
      return { ...o, authenticated: true, actions: { download: { href, expires_in: LFS_LINK_SECONDS } } };
    }),
  );
}

/**
 * Links to upload the objects not stored yet (a stored one has no actions: git-lfs skips it), each
 * to a staging key of its own and with `verify` at `verifyHref`, which moves it into place. The new
 * bytes are counted against the plan first: past it, the whole batch is refused with the plan's
 * message (thrown as `PlanExceeded`).
 */
export async function uploadBatch(
  repo: LfsRepo,
  objects: LfsObjectRequest[],
  verify: { href: string },
): Promise<LfsObjectAnswer[]> {
  const stored = await Promise.all(objects.map((o) => (invalid(o) ? undefined : storedSize(repo, o.oid))));
  const adding = objects.reduce((sum, o, i) => sum + (invalid(o) || stored[i] === o.size ? 0 : o.size), 0);
  if (adding > 0) await checkPlan(repo.orgId, adding);
  return Promise.all(
    objects.map(async (o, i): Promise<LfsObjectAnswer> => {
      const bad = invalid(o);
      if (bad) return { oid: String(o?.oid), size: Number(o?.size), error: { code: 422, message: bad } };
      if (stored[i] === o.size) return { ...o, authenticated: true };
      const nonce = randomBytes(12).toString('hex');
      const href = await storage().presignPut(bucket(), stagedKey(repo, o.oid, nonce), {
        contentType: LFS_CONTENT_TYPE,
        size: o.size,
        expiresIn: LFS_LINK_SECONDS,
      });
      return {
        ...o,
        authenticated: true,
        actions: {
          upload: { href, header: { 'Content-Type': LFS_CONTENT_TYPE }, expires_in: LFS_LINK_SECONDS },
          verify: {
            href: verify.href,
            header: { [VERIFY_HEADER]: verifyToken(repo, o, nonce) },
            expires_in: LFS_LINK_SECONDS,
          },
        },
      };
    }),
  );
}

/**
 * git-lfs sends `verify` without the git password, with only the action's headers: each upload's
 * verify carries a token signed for that repository, object and staging key, valid as long as its
 * link.
 */
export const VERIFY_HEADER = 'X-Platform-Lfs-Verify';
const verifyScope = (repo: LfsRepo) => `lfs-verify:${repo.orgId}:${repo.repoId}`;
const verifyToken = (repo: LfsRepo, o: LfsObjectRequest, nonce: string) =>
  encodeCursor(verifyScope(repo), {
    oid: o.oid,
    size: o.size,
    n: nonce,
    exp: Date.now() + LFS_LINK_SECONDS * 1000,
  }) as string;

/**
 * The upload `token` was given for, when it was given for verifying this object of this repository
 * and is still valid (else undefined): what `verifyObject` checks.
 */
export function verifyTokenFits(repo: LfsRepo, token: string, o: LfsObjectRequest): string | undefined {
  try {
    const t = decodeCursor<{ oid: string; size: number; n: string; exp: number }>(verifyScope(repo), token);
    const fits = t !== undefined && t.oid === o.oid && t.size === o.size && t.exp > Date.now();
    return fits && typeof t.n === 'string' && NONCE.test(t.n) ? t.n : undefined;
  } catch {
    return undefined;
  }
}

export class PlanExceeded extends Error {
  override name = 'PlanExceeded';
}

/** Throws PlanExceeded when `adding` bytes more of LFS objects would pass the plan's `storageGb`. */
async function checkPlan(orgId: string, adding: number): Promise<void> {
  const org = await getItem<Organization>(keys.org(orgId));
  const gb = org?.planId ? (await findPlan(org.planId))?.limits.storageGb : undefined;
  if (gb === undefined) return;
  if ((await usedBytes(orgId)) + adding > gb * 1024 ** 3) throw new PlanExceeded(LFS.overPlan(gb));
}

/** The bytes of LFS objects the organization keeps, over all its repositories (uploads awaiting verify too). */
export async function usedBytes(orgId: string): Promise<number> {
  let total = 0;
  for (const prefix of [orgPrefix(orgId), stagingOrgPrefix(orgId)]) {
    let token: string | undefined;
    do {
      const page = await storage().listKeys(bucket(), prefix, 1000, token);
      for (const k of page.keys) total += k.size;
      token = page.nextToken;
    } while (token);
  }
  return total;
}

export type VerifyOutcome = 'ok' | 'missing' | 'mismatch';

/**
 * Checks an upload and moves it into place: the staging key of `nonce` (the verify token's), or
 * without one (a verify sent with the password) every upload of the object waiting. An object
 * already in place is `ok` (what waits for it is removed: it is not needed).
 */
export async function verifyObject(repo: LfsRepo, o: LfsObjectRequest, nonce?: string): Promise<VerifyOutcome> {
  const staged = nonce
    ? [stagedKey(repo, o.oid, nonce)]
    : (await storage().listKeys(bucket(), `${stagingRepoPrefix(repo.orgId, repo.repoId)}${o.oid}.`, 100)).keys.map(
        (k) => k.key,
      );
  if ((await storedSize(repo, o.oid)) === o.size) {
    if (staged.length > 0) await storage().deleteKeys(bucket(), staged);
    return 'ok';
  }
  let outcome: VerifyOutcome = 'missing';
  for (const key of staged) {
    const one = await promote(repo, o, key);
    if (one === 'ok') return 'ok';
    if (one === 'mismatch') outcome = 'mismatch';
  }
  return outcome;
}

/**
 * One staged upload: its size, then its SHA-256 read through a short link as it streams (S3 keeps
 * no SHA-256 of a presigned PUT; the object is never held whole, whatever its size), then S3's
 * server-side copy into the object's key, on condition that the staged object is still the one
 * hashed (its ETag). A mismatch is deleted; so is the staged copy once moved.
 */
async function promote(repo: LfsRepo, o: LfsObjectRequest, key: string): Promise<VerifyOutcome> {
  const head = await headArtifact(key);
  if (head === undefined) return 'missing';
  let same = head.size === o.size;
  let etag: string | undefined;
  if (same) {
    const res = await presignedResponse(() => storage().presignGet(bucket(), key, { expiresIn: 300 }));
    if (res.status === 404) return 'missing';
    if (!res.ok || !res.body) throw new Error(`Reading an LFS upload failed (HTTP ${res.status}).`);
    etag = res.headers.get('etag') ?? undefined;
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of streamedBody(res)) {
      size += chunk.length;
      hash.update(chunk);
    }
    same = size === o.size && hash.digest('hex') === o.oid;
  }
  if (same) {
    try {
      await storage().copyObject(bucket(), key, keyOf(repo.orgId, repo.repoId, o.oid), { ifMatch: etag });
    } catch (err) {
      // Moved by a verify of the same upload at the same time: in place, or gone.
      if (errorName(err) === 'NoSuchKey') return (await storedSize(repo, o.oid)) === o.size ? 'ok' : 'missing';
      // Written again since it was hashed: not the bytes that were checked.
      if (errorName(err) !== 'PreconditionFailed') throw err;
      same = false;
    }
  }
  await storage().deleteKeys(bucket(), [key]);
  return same ? 'ok' : 'mismatch';
}

export { invalid as invalidObject };

/** The repository's LFS objects and uploads awaiting verify, removed with it (in pages of 1,000 keys). */
export async function removeLfsObjects(repo: LfsRepo): Promise<void> {
  for (const prefix of [repoPrefix(repo.orgId, repo.repoId), stagingRepoPrefix(repo.orgId, repo.repoId)]) {
    for (;;) {
      const page = await storage()
        .listKeys(bucket(), prefix, 1000)
        // No artifacts bucket (yet): no object of the repository to remove.
        .catch((err) => (errorName(err) === 'NoSuchBucket' ? { keys: [], truncated: false } : Promise.reject(err)));
      if (page.keys.length === 0) break;
      await storage().deleteKeys(
        bucket(),
        page.keys.map((k) => k.key),
      );
      if (!page.truncated) break;
    }
  }
}

/** How long a link to an LFS object given by `contents/raw` or the blob view lasts. */
export const LFS_VIEW_LINK_SECONDS = 300;

/** An LFS pointer of a file with a link to its object, or `url: null` when the object isn't stored. */
export interface LfsFile {
  oid: string;
  size: number;
  url: string | null;
}

/**
 * The LFS object a file's content names, when the content is a pointer (else undefined): a link
 * valid 5 minutes when the object is stored with the pointer's size, `url: null` when it was never
 * uploaded (a pointer to a missing object is reported, never served).
 */
export async function lfsFileOf(repo: LfsRepo, content: Buffer, filename?: string): Promise<LfsFile | undefined> {
  const pointer = parsePointer(content);
  if (!pointer) return undefined;
  const stored = (await storedSize(repo, pointer.oid)) === pointer.size;
  const url = stored
    ? await storage().presignGet(bucket(), keyOf(repo.orgId, repo.repoId, pointer.oid), {
        expiresIn: LFS_VIEW_LINK_SECONDS,
        filename,
      })
    : null;
  return { ...pointer, url };
}

/** The object an LFS pointer file names (the spec's pointer: version, oid, size), if it is one. */
export const parsePointer: (content: Buffer) => LfsObjectRequest | undefined = parseLfsPointer;
