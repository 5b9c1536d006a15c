import * as z from 'zod/mini';
import { loopbackAllowed } from '../../shared/domains/connectors/records';
import {
  activeImports,
  credentialsContext,
  FINAL_STATES,
  IMPORT_M,
  type ImportRecord,
  importKey,
  importView,
  listImports,
  MAX_ACTIVE_IMPORTS,
  moveImport,
  newImportId,
  publicUrl,
  putImport,
  requireImport,
} from '../../shared/domains/repos/imports/records';
import { removeImportWork } from '../../shared/domains/repos/imports/sweep';
import { createRepository, deleteRepository, M } from '../../shared/domains/repos/records';
import { invalid } from '../../shared/kernel/ground/errors';
import { describeError, log } from '../../shared/kernel/ground/log';
import { HttpError } from '../../shared/kernel/http/http-error';
import { queryInt } from '../../shared/kernel/http/query';
import { accepted, ok, route } from '../../shared/kernel/http/route';
import { plainText } from '../../shared/kernel/http/text-checks';
import { checkPublicUrlFor, UnsafeUrlError } from '../../shared/kernel/net/guarded-fetch';
import { builds } from '../../shared/ports/builds';
import { secrets } from '../../shared/ports/secrets';
import { RepoName } from './repos';

const ImportParams = z.object({ orgId: z.string(), importId: z.string() });

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

export const importRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/-/imports',
    scope: 'git:write',
    rateBudget: 'builds',
    summary:
      'Imports an existing repository by its git URL (every branch and tag, and its Git LFS objects when the ' +
      'source serves them) as background work where builds run. Answers 202 with the import; `GET` it for ' +
      'progress. A user name and password in the URL, or `username` and `password`, reach the source only; ' +
      "the URL's query and fragment are dropped (never sent, kept or answered).",
    body: z.object({
      url: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
      name: z.optional(RepoName),
      description: z.optional(z.string().check(z.trim(), z.maxLength(1000), plainText)),
      username: z.optional(z.string().check(z.maxLength(256))),
      password: z.optional(z.string().check(z.maxLength(4096))),
    }),
    errors: {
      400: [
        IMPORT_M.badUrl,
        'url must use https.',
        "url can't be reached from the platform: ...",
        'Name the repository: no name can be made from this URL.',
      ],
      409: [M.nameTaken, IMPORT_M.tooMany],
      429: ['Too many builds. ...'],
    },
    run: async ({ org, caller, body }) => {
      const source = sourceOf(body.url);
      const name = body.name ?? nameFromUrl(source.url);
      if (!RepoName.safeParse(name).success) throw invalid('Name the repository: no name can be made from this URL.');
      await checkReachable(source.url);
      if ((await activeImports(org.orgId)).length >= MAX_ACTIVE_IMPORTS) throw new HttpError(409, IMPORT_M.tooMany);
      const importId = newImportId();
      const repo = await createRepository(org.orgId, caller, { name, description: body.description, importId });
      const user = body.username ?? source.user;
      const password = body.password ?? source.password;
      const now = Date.now();
      const record: ImportRecord = {
        ...importKey(org.orgId, importId),
        importId,
        orgId: org.orgId,
        url: source.url.href,
        name,
        repoId: repo.resourceId,
        state: 'queued',
        progress: { phase: 'queued', objects: 0, bytes: 0 },
        message: null,
        ...(user || password
          ? {
              sealedCredentials: (
                await secrets().encrypt(credentialsContext(org.orgId, importId), [`${user}:${password}`])
              )[0],
            }
          : {}),
        createdBy: caller.kind === 'user' ? caller.userId : caller.keyId,
        createdAt: now,
        updatedAt: now,
      };
      await putImport(record);
      try {
        const { buildId } = await builds().startImport({ importId, orgId: org.orgId });
        await moveImport(record, { buildId });
      } catch (err) {
        log.error('repository import did not start', { importId, error: describeError(err) });
        await deleteRepository(repo);
        await moveImport(record, { state: 'failed', message: 'The import could not be started. Try again.' });
        throw new HttpError(502, 'The import could not be started. Try again.');
      }
      return accepted({ import: importView(record) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/-/imports',
    scope: 'git:read',
    summary: "The organization's imports, newest first, `limit` a page (cursor: `nextCursor`).",
    query: z.object({
      limit: queryInt(1, 100, 25),
      cursor: z.optional(z.string()),
    }),
    read: async ({ orgId, query }) => {
      const page = await listImports(orgId, query.limit, query.cursor);
      return { imports: page.imports.map(importView), nextCursor: page.nextCursor };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/-/imports/:importId',
    scope: 'git:read',
    summary: 'An import: its state, progress (`phase`, `objects`, `bytes`), message and, once done, its repository.',
    params: ImportParams,
    errors: { 404: [IMPORT_M.notFound] },
    read: async ({ orgId, params }) => ({ import: importView(await requireImport(orgId, params.importId)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/-/imports/:importId/cancel',
    scope: 'git:write',
    summary: 'Cancels a queued or running import: its work stops and the repository it was filling is removed.',
    params: ImportParams,
    errors: { 404: [IMPORT_M.notFound], 409: [IMPORT_M.finished] },
    run: async ({ org, params }) => {
      const r = await requireImport(org.orgId, params.importId);
      if (
        FINAL_STATES.includes(r.state) ||
        !(await moveImport(r, { state: 'cancelled', message: IMPORT_M.cancelled }))
      ) {
        throw new HttpError(409, IMPORT_M.finished);
      }
      // The job removes what it made when it stops; a job that was never reached (or killed) is finished here.
      await removeImportWork(r);
      return ok({ import: importView(await requireImport(org.orgId, params.importId)) });
    },
  }),
];
