import { notFound, tooLarge, unprocessable } from '../../../kernel/ground/errors';
import { pathProblem } from '../../../ports/git/names';
import { requestArchive } from '../archives';
import { lfsFileOf } from '../lfs/objects';
import { requireRepo } from '../records';
import { repoGit } from '../tags';
import { commitOf } from './refs';

/** Files of a repository as the web reads them: one file's bytes, every file of a ref, blobs, archives. */

/** What `raw` and `blobs` answer at most, and a web commit carries (Lambda's 6 MB, base64 included). */
export const MAX_CONTENT_BYTES = 4 * 1024 * 1024;
const MAX_FILES = 10_000;

export const FILES_MESSAGES = {
  tooLargeFile: 'This file is too large to show here. Clone the repository to get it.',
  /** A file that is a Git LFS pointer to an object never uploaded (e.g. pushed without git-lfs installed). */
  lfsObjectMissing:
    'This file is stored with Git LFS and its object was never uploaded. Push it with git lfs push --all origin.',
} as const;

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * A file's bytes at a ref (the default branch unless given), up to 4 MB; a file stored with Git
 * LFS is a link to its object instead (`url`), its bytes never passing through the API.
 */
export async function rawFile(
  orgId: string,
  name: string,
  query: { ref?: string; path: string },
): Promise<{ url: string } | { content: Buffer }> {
  const r = await requireRepo(orgId, name);
  if (pathProblem(query.path)) throw notFound();
  const port = await repoGit();
  const found = await port.resolve(r.resourceId, query.ref ?? r.defaultBranch);
  if (!found) throw notFound();
  const file = await port.readFile(r.resourceId, found.commit, query.path, MAX_CONTENT_BYTES);
  if (!file) throw notFound();
  if ('tooLarge' in file) throw tooLarge(FILES_MESSAGES.tooLargeFile);
  const lfs = await lfsFileOf({ orgId, repoId: r.resourceId }, file.content, baseName(query.path));
  if (lfs && !lfs.url) throw notFound(FILES_MESSAGES.lfsObjectMissing);
  return lfs?.url ? { url: lfs.url } : { content: file.content };
}

/** Every file of a ref (path, blob id, mode, file or link), up to 10,000 (`truncated` past that). */
export async function listFiles(orgId: string, name: string, ref: string) {
  const r = await requireRepo(orgId, name);
  const commitId = await commitOf(r, ref);
  const { files, truncated } = await (await repoGit()).files(r.resourceId, commitId, MAX_FILES);
  return { files, truncated, commitId };
}

/** Blobs by id, base64, in order, as many as fit in 4 MB; one larger than that alone is `tooLarge`. */
export async function readBlobs(orgId: string, name: string, ids: string[]) {
  const r = await requireRepo(orgId, name);
  const port = await repoGit();
  const blobs: ({ id: string; content: string } | { id: string; tooLarge: true })[] = [];
  let room = MAX_CONTENT_BYTES;
  for (const id of ids) {
    const blob = await port.readBlob(r.resourceId, id, MAX_CONTENT_BYTES);
    if (!blob) continue;
    if ('tooLarge' in blob) {
      blobs.push({ id, tooLarge: true });
      continue;
    }
    if (blob.size > room) break;
    room -= blob.size;
    blobs.push({ id, content: blob.content.toString('base64') });
  }
  return { blobs };
}

/**
 * An archive of a ref (the default branch unless given) in `format`: `building` while it is made,
 * then ready with its link; one that failed is 422 with its reason.
 */
export async function archiveOf(orgId: string, name: string, ref: string | undefined, format: 'zip' | 'tar.gz') {
  const r = await requireRepo(orgId, name);
  const commitId = await commitOf(r, ref ?? r.defaultBranch);
  const state = await requestArchive(r, commitId, format);
  if (state.status === 'failed') throw unprocessable(state.error);
  return { ...state, commitId, format };
}
