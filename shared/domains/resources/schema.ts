import * as z from 'zod/mini';
import type { output } from 'zod/v4/core';
import type { Resource } from './record-schemas';

export { RESOURCE_TYPES, type ResourceType } from './resource-types';

/** A key attribute of a database table or index: spec "partitionKey"/"sortKey" {name, type}. */

/** A key attribute in a request: starts with a letter or underscore, then letters, digits, `_ . -`; up to 255. */
export const KeyAttributeSchema = z.object({
  name: z
    .string()
    .check(
      z.regex(
        /^[A-Za-z_][A-Za-z0-9_.-]{0,254}$/,
        'Start with a letter or underscore, then use letters, digits, _ . or -, up to 255 characters.',
      ),
    ),
  type: z.enum(['S', 'N', 'B']),
});
export type KeyAttribute = output<typeof KeyAttributeSchema>;

/** A database table's primary key (kept on the record: the data routes need it on every call). */
export interface KeySchema {
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
}

/** The stored record: the answered fields (their record schema, ./record-schemas.ts) and the kept ones. */
export type ResourceRecord = Resource & {
  /** Databases: the table's primary key, fixed at creation. */
  keys?: KeySchema;
  /** Tags the owner set (PATCH .../tags); the record is their source of truth. */
  tags?: Record<string, string>;
  version: number;
};

/** The resource as the API answers it. */
export function toResource(r: ResourceRecord) {
  const { version: _v, ...rest } = r;
  return {
    resourceId: rest.resourceId,
    type: rest.type,
    name: rest.name,
    status: rest.status,
    error: rest.error,
    description: rest.description,
    createdAt: rest.createdAt,
    updatedAt: rest.updatedAt,
    region: rest.region,
    orgId: rest.orgId,
    createdBy: rest.createdBy,
    projectId: rest.projectId,
    location: rest.location,
    arn: rest.arn,
    physicalName: rest.physicalName,
  };
}
