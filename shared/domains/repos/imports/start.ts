import type { Caller } from '../../../kernel/auth/caller';
import { conflict, DomainError, invalid } from '../../../kernel/ground/errors';
import { describeError, log } from '../../../kernel/ground/log';
import { checkPublicUrlFor, UnsafeUrlError } from '../../../kernel/net/guarded-fetch';
import { builds } from '../../../ports/builds';
import { secrets } from '../../../ports/secrets';
import { loopbackAllowed } from '../../connectors/records';
import { createRepository, deleteRepository, REPO_NAME } from '../records';
import {
  activeImports,
  credentialsContext,
  FINAL_STATES,
  IMPORT_M,
  type ImportRecord,
  importKey,
  MAX_ACTIVE_IMPORTS,
  moveImport,
  newImportId,
  publicUrl,
  putImport,
  requireImport,
} from './records';
import { removeImportWork } from './sweep';

/** The repository's name from the URL's last segment (`…/My_Repo.git` → `my-repo`), when it makes one. */
export function nameFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  return last
    .replace(/\.git$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/**
 * The source URL (http or https) as kept and cloned (publicUrl: no user name, password, query or
 * fragment), its user and password apart (percent-decoded; a malformed escape is a bad URL).
 */
function sourceOf(raw: string): { url: URL; user: string; password: string } {
  let url: URL;
  let user: string;
  let password: string;
  try {
    url = new URL(raw);
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw invalid(IMPORT_M.badUrl);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(IMPORT_M.badUrl);
  return { url: new URL(publicUrl(url)), user, password };
}

/** The URL as the guarded network path checks it (public hosts; loopback where `npm start` allows it). */
async function checkReachable(url: URL): Promise<void> {
  try {
    await checkPublicUrlFor(url.href, { what: 'url', loopback: loopbackAllowed() });
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw invalid(err.message);
    throw err;
  }
}

export const NO_NAME = 'Name the repository: no name can be made from this URL.';
const NOT_STARTED = 'The import could not be started. Try again.';

/**
 * Starts an import: the URL checked (its credentials apart, sealed for the job only), the
 * repository made, the record kept, then the job started where builds run. A job that cannot
 * start takes the repository with it and leaves a failed import (502).
 */
export async function startImport(
  orgId: string,
  caller: Caller,
  input: { url: string; name?: string; description?: string; username?: string; password?: string },
): Promise<ImportRecord> {
  const source = sourceOf(input.url);
  const name = input.name ?? nameFromUrl(source.url);
  if (!REPO_NAME.test(name)) throw invalid(NO_NAME);
  await checkReachable(source.url);
  if ((await activeImports(orgId)).length >= MAX_ACTIVE_IMPORTS) throw conflict(IMPORT_M.tooMany);
  const importId = newImportId();
  const repo = await createRepository(orgId, caller, { name, description: input.description, importId });
  const user = input.username ?? source.user;
  const password = input.password ?? source.password;
  const now = Date.now();
  const record: ImportRecord = {
    ...importKey(orgId, importId),
    importId,
    orgId,
    url: source.url.href,
    name,
    repoId: repo.resourceId,
    state: 'queued',
    progress: { phase: 'queued', objects: 0, bytes: 0 },
    message: null,
    ...(user || password
      ? {
          sealedCredentials: (await secrets().encrypt(credentialsContext(orgId, importId), [`${user}:${password}`]))[0],
        }
      : {}),
    createdBy: caller.kind === 'user' ? caller.userId : caller.keyId,
    createdAt: now,
    updatedAt: now,
  };
  await putImport(record);
  try {
    const { buildId } = await builds().startImport({ importId, orgId });
    await moveImport(record, { buildId });
  } catch (err) {
    log.error('repository import did not start', { importId, error: describeError(err) });
    await deleteRepository(repo);
    await moveImport(record, { state: 'failed', message: NOT_STARTED });
    throw new DomainError('backend', NOT_STARTED);
  }
  return record;
}

/** Cancels a queued or running import (409 once finished); the job or this removes what it made. */
export async function cancelImport(orgId: string, importId: string): Promise<ImportRecord> {
  const r = await requireImport(orgId, importId);
  if (FINAL_STATES.includes(r.state) || !(await moveImport(r, { state: 'cancelled', message: IMPORT_M.cancelled }))) {
    throw conflict(IMPORT_M.finished);
  }
  // The job removes what it made when it stops; a job that was never reached (or killed) is finished here.
  await removeImportWork(r);
  return requireImport(orgId, importId);
}
