import * as z from 'zod/mini';
import {
  BUCKET_NOT_FOUND,
  deleteBucket,
  describeBucket,
  listBuckets,
  loadBucket,
} from '../../shared/domains/buckets/buckets';
import { FILES_ADDED, NOT_EMPTY, STILL_REMOVING } from '../../shared/domains/buckets/delete-bucket';
import { deleteObjects, NOTHING, WHOLE_BUCKET } from '../../shared/domains/buckets/delete-objects';
import {
  addLifecycleRule,
  deleteLifecycleRule,
  RULE_NOT_FOUND,
  SETTINGS_BUSY,
  TOO_MANY_RULES,
} from '../../shared/domains/buckets/lifecycle';
import {
  createFolder,
  downloadLink,
  FILE_NAME,
  FOLDER_DOWNLOAD,
  FOLDER_NAME,
  FOLDER_PATH,
  listObjects,
  objectInfo,
  uploadLinks,
} from '../../shared/domains/buckets/objects';
import { getSettings, RESERVED_RULE, replaceCors, setVersioning } from '../../shared/domains/buckets/settings';
import { queryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';

const BUCKETS = '/v1/orgs/:orgId/storage';
const BUCKET = `${BUCKETS}/:resourceId`;

const Params = z.object({ orgId: z.string(), resourceId: z.string() });
/**
 * Keys and folder paths stay inside their bucket: no `.` or `..` segment, no leading `/`, no NUL
 * or other control character (a relative key reached other buckets through the local S3 server).
 */
const UNSAFE_KEY = "Keys and folder paths can't start with /, contain . or .. segments, or control characters.";
const safeKey = (value: string) =>
  !value.startsWith('/') &&
  ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) &&
  !value.split('/').some((s) => s === '.' || s === '..');
const Key = z.string().check(z.minLength(1), z.maxLength(1024), z.refine(safeKey, UNSAFE_KEY));
const Path = z._default(z.string().check(z.maxLength(1024), z.refine(safeKey, UNSAFE_KEY)), '');
const Days = z.int().check(z.minimum(1), z.maximum(3650));
/** `type/subtype`, optionally with parameters (`text/plain; charset=utf-8`), or empty. */
const TOKEN = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+'-]*";
const CONTENT_TYPE = new RegExp(`^$|^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=("[^"]*"|${TOKEN}))*$`);

const Header = z.string().check(z.minLength(1), z.maxLength(255));
const CorsRule = z.object({
  ID: z.optional(z.string().check(z.maxLength(255))),
  AllowedOrigins: z.array(Header).check(z.minLength(1), z.maxLength(50)),
  AllowedMethods: z.array(z.enum(['GET', 'PUT', 'POST', 'DELETE', 'HEAD'])).check(z.minLength(1)),
  AllowedHeaders: z.optional(z.array(Header).check(z.maxLength(50))),
  ExposeHeaders: z.optional(z.array(Header).check(z.maxLength(50))),
  MaxAgeSeconds: z.optional(z.int().check(z.minimum(0), z.maximum(604800))),
});

const notFound = { 404: [BUCKET_NOT_FOUND] };
const backend = 'Backend errors are mapped as in spec part A, Errors 5.';

export const routes = [
  route({
    method: 'GET',
    path: BUCKETS,
    scope: 'resources:read',
    summary: "The organization's buckets, each with its latest daily usage (null until measured).",
    run: async ({ org }) => ok({ buckets: await listBuckets(org.orgId) }),
  }),
  route({
    method: 'GET',
    path: BUCKET,
    scope: 'resources:read',
    summary: 'A bucket with its versioning status (null when unknown) and latest daily usage.',
    params: Params,
    errors: notFound,
    run: async ({ org, params }) => ok(await describeBucket(await loadBucket(org.orgId, params.resourceId))),
  }),
  route({
    method: 'GET',
    path: `${BUCKET}/objects`,
    scope: 'resources:read',
    summary: `One page of a folder: its sub-folders and files. ${backend}`,
    params: Params,
    query: z.object({
      prefix: Path,
      cursor: z.optional(z.string().check(z.maxLength(2048))),
      limit: queryInt(1, Number.MAX_SAFE_INTEGER, 100),
    }),
    errors: { 400: [FOLDER_PATH, 'Invalid page cursor. Run the request again.'], ...notFound },
    run: async ({ org, params, query }) =>
      ok(await listObjects(org.orgId, await loadBucket(org.orgId, params.resourceId), query)),
  }),
  route({
    method: 'GET',
    path: `${BUCKET}/object`,
    scope: 'resources:read',
    summary: "A file's metadata.",
    params: Params,
    query: z.object({ key: Key }),
    errors: { 404: [BUCKET_NOT_FOUND, 'File not found.'] },
    run: async ({ org, params, query }) =>
      ok(await objectInfo(await loadBucket(org.orgId, params.resourceId), query.key)),
  }),
  route({
    method: 'GET',
    path: `${BUCKET}/download`,
    scope: 'resources:read',
    summary: 'A presigned GET link to the file, valid five minutes.',
    params: Params,
    query: z.object({ key: Key }),
    errors: { 400: [FOLDER_DOWNLOAD], 404: [BUCKET_NOT_FOUND, 'File not found.'] },
    run: async ({ org, params, query }) =>
      ok(await downloadLink(await loadBucket(org.orgId, params.resourceId), query.key)),
  }),
  route({
    method: 'POST',
    path: `${BUCKET}/uploads`,
    scope: 'resources:write',
    summary:
      'Presigned PUT links, valid 15 minutes, one per file (up to 1,000), each bound to the declared content ' +
      'type and size: send exactly those as Content-Type and Content-Length.',
    params: Params,
    body: z.object({
      files: z
        .array(
          z.object({
            key: Key,
            contentType: z.string().check(z.maxLength(255), z.regex(CONTENT_TYPE)),
            size: z.int().check(z.minimum(0)),
          }),
        )
        .check(z.minLength(1), z.maxLength(1000)),
    }),
    errors: { 400: [FILE_NAME], ...notFound, 413: ['... is larger than 5 GB.'] },
    run: async ({ org, params, body }) =>
      ok(await uploadLinks(await loadBucket(org.orgId, params.resourceId), body.files)),
  }),
  route({
    method: 'POST',
    path: `${BUCKET}/folders`,
    scope: 'resources:write',
    summary: 'Creates an empty folder `<prefix><name>/`.',
    params: Params,
    body: z.object({
      prefix: Path,
      name: z.string().check(z.minLength(1), z.maxLength(255), z.refine(safeKey, UNSAFE_KEY)),
    }),
    errors: { 400: [FOLDER_PATH, FOLDER_NAME], ...notFound },
    run: async ({ org, params, body }) =>
      created(await createFolder(await loadBucket(org.orgId, params.resourceId), body.prefix, body.name)),
  }),
  route({
    method: 'POST',
    path: `${BUCKET}/objects/delete`,
    scope: 'resources:write',
    summary:
      'Deletes files (up to 1,000 keys) and folders with their contents, at most 1,000 files of the folders per ' +
      'call: `done: false` means call again with the same body.',
    params: Params,
    body: z.object({
      keys: z._default(z.array(Key).check(z.maxLength(1000)), []),
      prefixes: z._default(
        z
          .array(
            z.string().check(
              z.maxLength(1024),
              z.refine((v) => v === '/' || safeKey(v), UNSAFE_KEY),
            ),
          )
          .check(z.maxLength(100)),
        [],
      ),
    }),
    errors: { 400: [NOTHING, WHOLE_BUCKET, FOLDER_PATH], ...notFound, 409: ["Couldn't delete ... file...: ..."] },
    run: async ({ org, params, body }) =>
      ok(await deleteObjects(await loadBucket(org.orgId, params.resourceId), body.keys, body.prefixes)),
  }),
  route({
    method: 'GET',
    path: `${BUCKET}/settings`,
    scope: 'resources:read',
    summary: "Versioning, the customer's CORS rules, the platform's upload rule, lifecycle rules, public access.",
    params: Params,
    errors: notFound,
    run: async ({ org, params }) => ok(await getSettings(await loadBucket(org.orgId, params.resourceId))),
  }),
  route({
    method: 'PUT',
    path: `${BUCKET}/cors`,
    scope: 'resources:write',
    summary: "Replaces the bucket's CORS rules (up to 99); the platform's own upload rule is kept apart.",
    params: Params,
    body: z.object({ rules: z.array(CorsRule).check(z.maxLength(99)) }),
    errors: { 400: [RESERVED_RULE], ...notFound },
    run: async ({ org, params, body }) =>
      ok(await replaceCors(await loadBucket(org.orgId, params.resourceId), body.rules)),
  }),
  route({
    method: 'PUT',
    path: `${BUCKET}/versioning`,
    scope: 'resources:write',
    summary: 'Turns versioning on (`enabled: true`) or suspends it.',
    params: Params,
    body: z.object({ enabled: z.boolean() }),
    errors: notFound,
    run: async ({ org, params, body }) =>
      ok(await setVersioning(await loadBucket(org.orgId, params.resourceId), body.enabled)),
  }),
  route({
    method: 'POST',
    path: `${BUCKET}/lifecycle`,
    scope: 'resources:write',
    summary: 'Adds a rule deleting files under a prefix a number of days after they are written.',
    params: Params,
    body: z.object({ prefix: Path, days: Days, noncurrentDays: z.optional(Days) }),
    errors: { ...notFound, 409: [TOO_MANY_RULES, SETTINGS_BUSY] },
    run: async ({ org, params, body }) =>
      created(await addLifecycleRule(await loadBucket(org.orgId, params.resourceId), body)),
  }),
  route({
    method: 'DELETE',
    path: `${BUCKET}/lifecycle/:ruleId`,
    scope: 'resources:write',
    summary: 'Removes a lifecycle rule.',
    params: z.object({ orgId: z.string(), resourceId: z.string(), ruleId: z.string() }),
    errors: { 404: [BUCKET_NOT_FOUND, RULE_NOT_FOUND], 409: [SETTINGS_BUSY] },
    run: async ({ org, params }) =>
      ok(await deleteLifecycleRule(await loadBucket(org.orgId, params.resourceId), params.ruleId)),
  }),
  route({
    method: 'DELETE',
    path: BUCKET,
    scope: 'resources:write',
    summary:
      'Deletes a bucket without files, its old file versions (in batches: 409 `Still removing …` means call ' +
      'again) and its record.',
    params: Params,
    errors: { ...notFound, 409: [NOT_EMPTY, STILL_REMOVING, "Couldn't delete ... file...: ...", FILES_ADDED] },
    run: async ({ org, params }) => {
      await deleteBucket(await loadBucket(org.orgId, params.resourceId));
      return noContent();
    },
  }),
];
