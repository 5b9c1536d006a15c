import * as z from 'zod/mini';
import { PAGE_MESSAGES, shown } from '../../shared/domains/pages/records';
import { restoreVersion } from '../../shared/domains/pages/save';
import {
  authorOf,
  listed,
  listVersions,
  VERSION_MESSAGES,
  versionWithContent,
} from '../../shared/domains/pages/versions';
import { QueryInt, queryInt } from '../../shared/kernel/http/query';
import { created, ok, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { PagePath, Version, WRITERS } from './common';

/** A version's number in the path: decimal digits, 1 or more (else 400). */
const VersionPath = z.extend(PagePath, {
  n: z.pipe(QueryInt, z.int().check(z.minimum(1, 'Version numbers start at 1'))),
});

/**
 * A page's history: its saved versions (each save and restore makes one), one of them with its
 * content, and a restore. Reading is for every member; restoring as for editing.
 */
export const versionRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/pages/:pageId/versions',
    scope: 'org:read',
    summary:
      'The saved versions of a page, newest first: number `n` (the `contentVersion` the content had), the ' +
      'title then, who saved it and when, its size in characters and, for a restore, the version restored. ' +
      'Every version is kept as long as the page. Pages of `limit` (default 50) with a signed `cursor`.',
    params: PagePath,
    query: z.object({ cursor: z.optional(z.string()), limit: queryInt(1, 100, 50) }),
    errors: { 400: [INVALID_CURSOR], 404: [PAGE_MESSAGES.pageNotFound] },
    run: async ({ org, params, query }) => {
      const found = await listVersions(org.orgId, params.pageId, query.limit, query.cursor);
      return ok({ versions: found.versions, cursor: found.cursor, contentVersion: found.page.contentVersion });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/pages/:pageId/versions/:n',
    scope: 'org:read',
    summary: 'One saved version of a page with its Markdown content as it was saved.',
    params: VersionPath,
    errors: { 404: [PAGE_MESSAGES.pageNotFound, VERSION_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      const { version, content } = await versionWithContent(org.orgId, params.pageId, params.n);
      return ok({ version: listed(version), content });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/pages/:pageId/versions/:n/restore',
    scope: 'org:read',
    roles: WRITERS,
    summary:
      "Restores version `n`: a new version whose content is version n's, and the page's content now that " +
      '(its title stays). `baseVersion`: the `contentVersion` the person saw; when the content changed since, ' +
      '409 with the current `contentVersion`. Members above viewer, or keys with org:write.',
    params: VersionPath,
    body: z.object({ baseVersion: z.optional(Version) }),
    errors: {
      404: [PAGE_MESSAGES.pageNotFound, VERSION_MESSAGES.notFound],
      409: [PAGE_MESSAGES.contentChanged],
    },
    run: async ({ org, caller, params, body }) => {
      const restored = await restoreVersion(org.orgId, params.pageId, authorOf(caller), params.n, body.baseVersion);
      return created({ page: shown(restored.page), version: listed(restored.version) });
    },
  }),
];
