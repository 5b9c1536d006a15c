import { CreateBucketCommand, DeleteBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../kernel/config';
import { readEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { db } from '../../kernel/store/client';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { sleep, TABLE } from '../../kernel/store/table';
import { uploadCorsRule } from './cors';
import type {
  BucketRef,
  DeleteOutcome,
  FolderPage,
  OldVersion,
  S3LifecycleRule,
  StoragePort,
  Versioning,
} from './port';
import { S3_CLIENT_DEFAULTS, s3Operations, toFileEntry } from './s3';

/**
 * The local S3 server (s3rver behind a SigV4 gate, lib/local/s3-server.ts): path-style, signed with
 * the platform's engine credentials (from the environment, as every AWS client here). It has no
 * versioning, lifecycle or public access block, so this adapter keeps those settings itself, as
 * the stand-in's own state (`LOCALS3#<bucket>` items of the local table, apart from the platform's
 * records of the bucket, which are the buckets product's), and answers as S3 would:
 * - versioning: the status is kept; a file deleted through the API while versioning is on leaves
 *   an old version and a delete marker, kept as items `VER#<versionId>` beside the settings (their
 *   bytes are not kept). Files overwritten with upload links leave no old version here.
 * - lifecycle rules are kept and listed, but nothing expires locally.
 * - public access block: reported as set (the platform creates every bucket private); the local
 *   server itself answers unsigned requests on loopback.
 * - legal holds (S3 Object Lock, set outside the platform): `putLegalHold` marks a key whose file
 *   and old versions can't be deleted, as S3 refuses them, per key.
 */
interface LocalBucketConfig {
  versioning?: Versioning;
  lifecycle?: S3LifecycleRule[];
  publicAccessBlocked?: boolean;
  holds?: Set<string>;
}

let client: S3Client | undefined;
function clientFor(): S3Client {
  client ??= new S3Client({
    ...sdkSettings('objectStorage'),
    ...S3_CLIENT_DEFAULTS,
    region: config.region,
    endpoint: readEnv('AWS_ENDPOINT_URL_S3'),
    forcePathStyle: true,
  });
  return client;
}

const s3 = s3Operations(clientFor);

const versionSk = (versionId: string) => `${PREFIXES.objectStorage.version}${versionId}`;
/** Old versions and delete markers get ids that say which they are (S3's ids are opaque too). */
const isMarker = (versionId: string) => versionId.startsWith('dm');

/** S3's answers, as errors the SDK would throw. */
function s3Error(name: string, message: string, status: number): Error {
  return Object.assign(new Error(message), { name, $fault: 'client', $metadata: { httpStatusCode: status } });
}
const LOCKED = 'Access Denied because object protected by object lock.';

/** The stand-in's state of a bucket: its settings (`CFG`) and old versions (`VER#…`). */
const shimKey = (name: string) => ({ pk: `${PREFIXES.objectStorage.localShim}${name}`, sk: 'CFG' });
/** Where the settings were kept before they had an item of their own (beside the bucket's records). */
const formerKey = (name: string) => ({ pk: `${PREFIXES.objectStorage.bucket}${name}`, sk: 'CFG' });
const SETTINGS = ['versioning', 'lifecycle', 'publicAccessBlocked', 'holds'] as const;

async function configOf(name: string): Promise<LocalBucketConfig | undefined> {
  const out = await db.send(new GetCommand({ TableName: TABLE(), Key: shimKey(name), ConsistentRead: true }));
  if (out.Item) return out.Item as LocalBucketConfig;
  // A `.data/` folder from before: its settings move to their own item the first time they are read.
  const former = await db.send(new GetCommand({ TableName: TABLE(), Key: formerKey(name), ConsistentRead: true }));
  const kept = Object.fromEntries(
    SETTINGS.flatMap((f) => (former.Item?.[f] === undefined ? [] : [[f, former.Item[f]]])),
  );
  if (Object.keys(kept).length === 0) return undefined;
  await setSettings(name, kept);
  return kept as LocalBucketConfig;
}

/** Sets (or, with `undefined`, removes) settings of the bucket, creating its item when needed. */
async function setSettings(name: string, fields: Partial<Record<keyof LocalBucketConfig, unknown>>): Promise<void> {
  const entries = Object.entries(fields);
  const sets = entries.flatMap(([, v], i) => (v === undefined ? [] : [`#f${i} = :v${i}`]));
  const removes = entries.flatMap(([, v], i) => (v === undefined ? [`#f${i}`] : []));
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: shimKey(name),
      UpdateExpression: [
        sets.length ? `SET ${sets.join(', ')}` : '',
        removes.length ? `REMOVE ${removes.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: Object.fromEntries(entries.map(([f], i) => [`#f${i}`, f])),
      ExpressionAttributeValues: sets.length
        ? Object.fromEntries(entries.flatMap(([, v], i) => (v === undefined ? [] : [[`:v${i}`, v]])))
        : undefined,
    }),
  );
}

/** Removes the stand-in's state of a bucket: `deleteBucket` gets here once it holds no old version. */
async function removeShim(name: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE(), Key: shimKey(name) }));
}

async function putVersions(name: string, items: { key: string; versionId: string }[]): Promise<void> {
  const at = Date.now();
  for (let i = 0; i < items.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = items.slice(i, i + 25).map((v) => ({
      PutRequest: { Item: { pk: shimKey(name).pk, sk: versionSk(v.versionId), ...v, at } },
    }));
    for (let attempt = 0; pending && pending.length > 0 && attempt < 8; attempt++) {
      if (attempt > 0) await sleep(20 * 2 ** attempt);
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
      pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
    }
    if (pending && pending.length > 0) throw new Error('BatchWrite left items unprocessed');
  }
}

async function removeVersions(name: string, versionIds: string[]): Promise<void> {
  for (let i = 0; i < versionIds.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = versionIds
      .slice(i, i + 25)
      .map((id) => ({ DeleteRequest: { Key: { pk: shimKey(name).pk, sk: versionSk(id) } } }));
    for (let attempt = 0; pending && pending.length > 0 && attempt < 8; attempt++) {
      if (attempt > 0) await sleep(20 * 2 ** attempt);
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
      pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
    }
    if (pending && pending.length > 0) throw new Error('BatchWrite left items unprocessed');
  }
}

async function queryVersions(name: string, limit: number): Promise<OldVersion[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ver)',
      ExpressionAttributeValues: { ':pk': shimKey(name).pk, ':ver': PREFIXES.objectStorage.version },
      ProjectionExpression: '#key, versionId',
      ExpressionAttributeNames: { '#key': 'key' },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (out.Items ?? []) as OldVersion[];
}

export const localStorage = (): StoragePort => ({
  ...s3,

  /**
   * The local server pages a folder by files only (its folders come on top of `limit`, and again
   * on later pages): pages are cut here as S3 cuts them, folders and files together, the token
   * being the last name answered.
   */
  async listFolder(bucket, { prefix, limit, token }): Promise<FolderPage> {
    const max = Math.min(limit, 1000);
    const out = await clientFor().send(
      new ListObjectsV2Command({
        Bucket: bucket.name,
        Prefix: prefix || undefined,
        Delimiter: '/',
        MaxKeys: max + 1,
        StartAfter: token,
      }),
    );
    const after = token ?? '';
    const entries = [
      ...(out.CommonPrefixes ?? [])
        .map((p) => p.Prefix as string)
        .filter((name) => name > after)
        .map((name) => ({ name, folder: true as const })),
      ...(out.Contents ?? [])
        .filter((o) => o.Key !== prefix)
        .map((o) => ({ name: o.Key as string, folder: false as const, file: toFileEntry(o) })),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const page = entries.slice(0, max);
    const more = entries.length > max || Boolean(out.IsTruncated);
    return {
      folders: page.filter((e) => e.folder).map((e) => e.name),
      files: page.flatMap((e) => (e.folder ? [] : [e.file])),
      nextToken: more ? page[page.length - 1]?.name : undefined,
    };
  },

  async createBucket(name) {
    await clientFor().send(new CreateBucketCommand({ Bucket: name }));
    await s3.putCors({ name }, [uploadCorsRule()]);
    await setSettings(name, { versioning: 'Disabled', publicAccessBlocked: true });
  },

  async deleteBucket(name) {
    if ((await queryVersions(name, 1)).length > 0) {
      throw s3Error('BucketNotEmpty', 'The bucket you tried to delete is not empty.', 409);
    }
    await clientFor().send(new DeleteBucketCommand({ Bucket: name }));
    await removeShim(name);
  },

  async deleteKeys(bucket, keys): Promise<DeleteOutcome> {
    const cfg = await configOf(bucket.name);
    const holds = cfg?.holds ?? new Set<string>();
    const free = keys.filter((k) => !holds.has(k));
    const outcome = await s3.deleteObjects(
      bucket,
      free.map((key) => ({ key })),
    );
    const failed = new Set(outcome.errors.map((e) => e.key));
    const deleted = free.filter((k) => !failed.has(k));
    // As S3 does: with versioning on, a deleted file stays as an old version under a delete marker;
    // suspended, only the marker is written (the file's null version goes).
    const versioning = cfg?.versioning ?? 'Disabled';
    if (versioning !== 'Disabled' && deleted.length > 0) {
      const entries = deleted.flatMap((key) => [
        ...(versioning === 'Enabled' ? [{ key, versionId: `v${newId('')}` }] : []),
        { key, versionId: `dm${newId('')}` },
      ]);
      await putVersions(bucket.name, entries);
    }
    const lockedErrors = keys
      .filter((k) => holds.has(k))
      .map((key) => ({ key, code: 'AccessDenied', message: LOCKED }));
    return { deleted: outcome.deleted, errors: [...lockedErrors, ...outcome.errors] };
  },

  async listOldVersions(bucket, max) {
    const found = await queryVersions(bucket.name, max + 1);
    return { versions: found.slice(0, max), truncated: found.length > max };
  },

  async deleteVersions(bucket, versions): Promise<DeleteOutcome> {
    const holds = (await configOf(bucket.name))?.holds ?? new Set<string>();
    const locked = versions.filter((v) => !isMarker(v.versionId) && holds.has(v.key));
    const free = versions.filter((v) => isMarker(v.versionId) || !holds.has(v.key));
    await removeVersions(
      bucket.name,
      free.map((v) => v.versionId),
    );
    return {
      deleted: free.length,
      errors: locked.map((v) => ({ key: v.key, code: 'AccessDenied', message: LOCKED })),
    };
  },

  async getVersioning(bucket) {
    return (await configOf(bucket.name))?.versioning ?? 'Disabled';
  },

  async setVersioning(bucket, enabled) {
    const versioning: Versioning = enabled ? 'Enabled' : 'Suspended';
    await setSettings(bucket.name, { versioning });
    return versioning;
  },

  async getLifecycle(bucket) {
    return (await configOf(bucket.name))?.lifecycle ?? [];
  },

  async putLifecycle(bucket, rules) {
    await setSettings(bucket.name, { lifecycle: rules.length > 0 ? rules : undefined });
  },

  async getPublicAccessBlocked(bucket) {
    return (await configOf(bucket.name))?.publicAccessBlocked ?? true;
  },
});

/**
 * Puts or lifts an Object Lock legal hold on `key`, as S3's PutObjectLegalHold would (there is
 * no route for it: on AWS it is set outside the platform). A held file and its old versions
 * can't be deleted; S3 reports that per key.
 */
export async function putLegalHold(bucket: BucketRef, key: string, on: boolean): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: shimKey(bucket.name),
      UpdateExpression: on ? 'ADD holds :k' : 'DELETE holds :k',
      ExpressionAttributeValues: { ':k': new Set([key]) },
    }),
  );
}
