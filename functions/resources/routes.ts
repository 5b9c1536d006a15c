import * as z from 'zod/mini';
import { deleteBucketBackend } from '../../shared/domains/buckets/provision';
import { deleteDatabaseTable } from '../../shared/domains/databases/provision';
import { refreshStatus } from '../../shared/domains/databases/status';
import { deleteRepository, type RepoRecord } from '../../shared/domains/repos/records';
import { deleteResource } from '../../shared/domains/resources/delete';
import {
  getProjectName,
  getResource,
  linkResource,
  listResources,
  PROJECT_NOT_FOUND,
} from '../../shared/domains/resources/records';
import {
  KeyAttributeSchema,
  RESOURCE_TYPES,
  type ResourceType,
  toResource,
} from '../../shared/domains/resources/schema';
import { invalid, notFound } from '../../shared/kernel/ground/errors';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { requireScopeFor, typeOf } from './access';
import { createResource, ONLY_DATABASES_HAVE_KEYS, ONLY_LINKABLE, PROVISIONING_FAILED, SAME_KEYS } from './create';

/** Lowercase letters, digits and hyphens; 3-40 characters; starts and ends with a letter or digit. */
const ResourceName = z
  .string()
  .check(
    z.regex(
      /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/,
      'Use 3-40 lowercase letters, digits and hyphens, starting and ending with a letter or digit.',
    ),
  );

const Params = z.object({ orgId: z.string(), type: z.string(), resourceId: z.string() });

const NAME_TAKEN = 'This organization already uses ... for a ....';
const LINK_TAKEN = '... already uses ... for its ....';

const notFoundOf = (type: ResourceType) =>
  `${type === 'database' ? 'Database' : type === 'bucket' ? 'Bucket' : 'Repository'} not found`;

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/resources',
    scope: 'resources:read',
    allowed: ['git:read'],
    summary: "The organization's resources, oldest first; `type` filters (repositories need git:read).",
    query: z.object({ type: z.optional(z.enum(RESOURCE_TYPES)) }),
    errors: { 403: ['Missing scope git:read', 'Missing scope resources:read'] },
    run: async ({ org, query, scopes }) => {
      requireScopeFor(scopes, query.type, 'read');
      const found = await listResources(org.orgId, query.type);
      const fresh = await Promise.all(found.map(refreshStatus));
      fresh.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
      return ok({ resources: fresh.map(toResource) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/resources',
    scope: 'resources:write',
    allowed: ['git:write'],
    summary:
      'Creates a database (a table; keys pk and sk, both strings, unless given) or a bucket, optionally linked to ' +
      'a project. 201 with the resource, `active`, or `creating` while the table is still being made.',
    body: z.object({
      type: z.enum(RESOURCE_TYPES),
      name: ResourceName,
      projectId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
      location: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
      description: z.optional(z.string().check(z.maxLength(256))),
      partitionKey: z.optional(KeyAttributeSchema),
      sortKey: z.optional(z.nullable(KeyAttributeSchema)),
    }),
    errors: {
      400: [ONLY_DATABASES_HAVE_KEYS, SAME_KEYS, PROJECT_NOT_FOUND, 'Unknown location: ...', ONLY_LINKABLE],
      403: ['Missing scope git:write', 'Missing scope resources:write'],
      409: [NAME_TAKEN, LINK_TAKEN, 'A repository with this name already exists.'],
      502: [PROVISIONING_FAILED, 'Could not create the repository.'],
    },
    run: async ({ org, caller, body, scopes }) => {
      requireScopeFor(scopes, body.type, 'write');
      return created({ resource: toResource(await createResource(org, caller, body)) });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/resources/:type/:resourceId',
    scope: 'resources:write',
    summary:
      'Links a database or bucket to a project (`projectId`), or unlinks it (`null`); takes effect at the ' +
      "project's next deployment (variables DATABASE_TABLE, DATABASE_REGION, BUCKET_NAME, BUCKET_REGION). " +
      'A project links at most one database and one bucket.',
    params: Params,
    body: z.object({ projectId: z.nullable(z.string().check(z.minLength(1), z.maxLength(64))) }),
    errors: {
      400: ['Unknown type', ONLY_LINKABLE, PROJECT_NOT_FOUND],
      404: ['Not found'],
      409: [LINK_TAKEN, 'This resource changed since it was read. Reload and try again.'],
    },
    run: async ({ org, params, body }) => {
      const type = typeOf(params.type);
      if (type === 'repository') throw invalid(ONLY_LINKABLE);
      const resource = await getResource(org.orgId, type, params.resourceId);
      if (!resource) throw notFound();
      let projectName: string | undefined;
      if (body.projectId !== null) {
        projectName = await getProjectName(org.orgId, body.projectId);
        if (!projectName) throw invalid(PROJECT_NOT_FOUND);
      }
      return ok({ resource: toResource(await linkResource(resource, body.projectId, projectName)) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/resources/:type/:resourceId',
    scope: 'resources:write',
    allowed: ['git:write'],
    summary:
      'Deletes the resource and its table or bucket. Databases need deletion protection off; buckets must be ' +
      'empty. A table or bucket already deleted outside the platform does not keep the record.',
    params: Params,
    errors: {
      400: ['Unknown type'],
      403: ['Missing scope git:write', 'Missing scope resources:write'],
      404: ['Database not found', 'Bucket not found', 'Repository not found', 'Not found'],
      409: [
        'Turn off deletion protection first.',
        'Wait for index ... to finish ..., then try again.',
        'Delete every file in this bucket first.',
        'Still removing old file versions. Try again to continue.',
        "Couldn't delete ... file...: ...",
        'Files were added while deleting. Delete them first.',
      ],
    },
    run: async ({ org, params, scopes }) => {
      const type = typeOf(params.type);
      requireScopeFor(scopes, type, 'write');
      const resource = await getResource(org.orgId, type, params.resourceId);
      if (!resource) throw notFound(notFoundOf(type));
      if (type === 'repository') {
        // The same code as DELETE /repos/:name: linked projects unlinked, storage and record removed.
        await deleteRepository(resource as RepoRecord);
        return noContent();
      }
      await deleteResource(resource, type === 'database' ? deleteDatabaseTable : deleteBucketBackend);
      return noContent();
    },
  }),
];
