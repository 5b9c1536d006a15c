import * as z from 'zod/mini';
import {
  BEGINS_WITH_TYPES,
  FILTER_OPS,
  MISSING_VALUE,
  NO_SORT_KEY,
  SORT_MISSING_VALUE,
  SORT_OPS,
} from '../../shared/domains/databases/expressions';
import {
  BODY_TOO_LARGE,
  deleteItem,
  getItem,
  ITEM_CHANGED,
  ITEM_DELETED,
  ITEM_NOT_FOUND,
  ITEM_TOO_LARGE,
  KEY_EXISTS,
  MAX_BODY_BYTES,
  putItem,
} from '../../shared/domains/databases/items';
import { databaseFor } from '../../shared/domains/databases/load';
import { queryPage, scanPage } from '../../shared/domains/databases/pages';
import { HttpError } from '../../shared/kernel/http/http-error';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { AttributeName, BACKEND, NOT_FOUND, Params } from './common';

const KEY_ONLY = 'A key has only ....';

const Present = z.unknown().check(z.refine((v) => v !== undefined, 'Required'));

const Filter = z.object({
  attribute: AttributeName,
  op: z.enum(FILTER_OPS),
  value: z.optional(z.unknown()),
  value2: z.optional(z.unknown()),
});

const page = {
  index: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 25),
  cursor: z.optional(z.string().check(z.maxLength(8000))),
  filters: z._default(z.array(Filter).check(z.maxLength(10)), []),
  match: z._default(z.enum(['all', 'any']), 'all'),
  projection: z.optional(z.array(AttributeName).check(z.maxLength(50))),
};

const Key = z.record(z.string(), z.unknown());
const PAGE_ERRORS = {
  400: ['No index named ....', MISSING_VALUE, INVALID_CURSOR],
  404: NOT_FOUND,
  ...BACKEND,
};

/** The raw body's size as it arrived (API Gateway itself refuses anything over 10 MB). */
function bodyBytes(event: { body?: string; isBase64Encoded?: boolean }): number {
  if (!event.body) return 0;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body);
}

/** Items: scan, query, read, write and delete. */
export const itemRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/databases/:resourceId/scan',
    scope: 'resources:read',
    summary: 'One page of a scan of the table or an index, with optional filters and projection.',
    params: Params,
    body: z.object(page),
    errors: PAGE_ERRORS,
    read: async ({ orgId, params, body }) => scanPage(await databaseFor(orgId, params.resourceId), body),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/databases/:resourceId/query',
    scope: 'resources:read',
    summary: 'One page of a query on the table or an index: one partition, an optional sort key condition.',
    params: Params,
    body: z.object({
      ...page,
      partition: Present,
      sort: z.optional(
        z.object({ op: z.enum(SORT_OPS), value: z.optional(z.unknown()), value2: z.optional(z.unknown()) }),
      ),
      forward: z._default(z.boolean(), true),
    }),
    errors: { ...PAGE_ERRORS, 400: [...PAGE_ERRORS[400], NO_SORT_KEY, SORT_MISSING_VALUE, BEGINS_WITH_TYPES] },
    read: async ({ orgId, params, body }) => queryPage(await databaseFor(orgId, params.resourceId), body),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/databases/:resourceId/items/get',
    scope: 'resources:read',
    summary: 'One item, read strongly consistent. `key` holds the key attributes (attribute values or plain JSON).',
    params: Params,
    body: z.object({ key: Key }),
    errors: { 400: [KEY_ONLY], 404: [...NOT_FOUND, ITEM_NOT_FOUND], ...BACKEND },
    read: async ({ orgId, params, body }) => ({
      item: await getItem(await databaseFor(orgId, params.resourceId), body.key),
    }),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/databases/:resourceId/items',
    scope: 'resources:write',
    summary:
      'Writes an item. Without `original`: creates it (201), refusing an existing key. With `original` (the item ' +
      'as read): replaces it (200) only if unchanged; a changed key moves the item in one transaction.',
    params: Params,
    body: z.object({ item: Key, original: z.optional(Key) }),
    errors: {
      400: [KEY_ONLY],
      404: NOT_FOUND,
      409: [
        KEY_EXISTS,
        ITEM_DELETED,
        ITEM_CHANGED,
        'An item with the new key already exists, or the original was changed or deleted.',
      ],
      413: [ITEM_TOO_LARGE, BODY_TOO_LARGE],
      429: BACKEND[429],
      502: BACKEND[502],
    },
    run: async ({ org, params, body, event }) => {
      if (bodyBytes(event) > MAX_BODY_BYTES) throw new HttpError(413, BODY_TOO_LARGE);
      const db = await databaseFor(org.orgId, params.resourceId);
      const out = await putItem(db, body);
      return out.created ? created({ item: out.item }) : ok({ item: out.item });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/databases/:resourceId/items/delete',
    scope: 'resources:write',
    summary: 'Deletes one item by its key; 204 whether or not it was there.',
    params: Params,
    body: z.object({ key: Key }),
    errors: { 400: [KEY_ONLY], 404: NOT_FOUND, ...BACKEND },
    run: async ({ org, params, body }) => {
      await deleteItem(await databaseFor(org.orgId, params.resourceId), body.key);
      return noContent();
    },
  }),
];
