import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { count, UsageError } from '../context';
import { bytes, type TableOut, table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';
import { downloadFile, TransferMeter, typeOf, uploadFile } from '../transfer';
import { intOption, localFile } from './common';

/** `db` and `bucket`: databases and storage, over the typed client. */

const org = async (c: Ctx) => {
  const s = await c.session();
  return { s, api: s.api, orgId: s.config.orgId };
};
const width = (c: Ctx) => c.io;

type Attr = Record<string, unknown>;

/** A typed attribute value (`{ S: 'a' }`, `{ N: '1' }`, `{ M: … }`) as plain JSON. */
export function plain(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const [type, v] = Object.entries(value as Attr)[0] ?? [];
  switch (type) {
    case 'S':
    case 'B':
    case 'BOOL':
      return v;
    case 'N':
      return Number(v);
    case 'NULL':
      return null;
    case 'SS':
    case 'BS':
      return v;
    case 'NS':
      return (v as string[]).map(Number);
    case 'L':
      return (v as unknown[]).map(plain);
    case 'M':
      return Object.fromEntries(Object.entries(v as Attr).map(([k, x]) => [k, plain(x)]));
    default:
      return value;
  }
}

/** Plain JSON as a typed attribute value (what items are written as). */
export function typed(value: unknown): unknown {
  if (value === null || value === undefined) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map(typed) };
  return { M: Object.fromEntries(Object.entries(value as Attr).map(([k, v]) => [k, typed(v)])) };
}

const plainItem = (item: Attr) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, plain(v)]));

/** A cell: strings as they are, anything else as JSON. */
const cell = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Items as a table: the key attributes first, then the others in order of appearance. */
function itemsTable(items: Attr[], keys: string[], w: TableOut): string {
  const plainItems = items.map(plainItem);
  const columns = [...keys];
  for (const item of plainItems) for (const k of Object.keys(item)) if (!columns.includes(k)) columns.push(k);
  return table(
    [columns, ...plainItems.map((i) => columns.map((k) => cell(i[k])))],
    w,
    keys.map((_, i) => i),
  );
}

/** A database by name or id. */
async function databaseOf(c: Ctx, ref: string) {
  const { api, orgId } = await org(c);
  const { databases } = await api.getDatabases({ orgId });
  const db = databases.find((d) => d.resourceId === ref || d.name === ref);
  if (!db) throw new UsageError(`No database ${ref} in this organization: platform db list.`);
  return { api, orgId, db };
}

/** `name` or `name:S|N|B` (default S). */
function keyOf(spec: string | undefined): { name: string; type: 'S' | 'N' | 'B' } | undefined {
  if (spec === undefined) return undefined;
  const [name, type = 'S'] = spec.split(':');
  if (!name || !['S', 'N', 'B'].includes(type)) throw new UsageError(`${spec}: use name or name:S, name:N, name:B.`);
  return { name, type: type as 'S' };
}

/** A value on the command line: JSON when it reads as JSON (numbers, true, "quoted"), else a string. */
function fromText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function jsonOption(c: Ctx, name: string): Attr {
  const text = c.str(name);
  if (text === undefined) throw new UsageError(`Give --${name} as JSON: --${name} '{"id":"a1"}'.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--${name} is not JSON: ${text}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--${name} takes a JSON object.`);
  return parsed as Attr;
}

const FILTER_OPS = [
  '<>',
  '<=',
  '>=',
  '=',
  '<',
  '>',
  'begins_with',
  'contains',
  'between',
  'exists',
  'not_exists',
] as const;
type FilterOp = (typeof FILTER_OPS)[number];

/** `--where 'age >= 30'`, `--where 'name begins_with A'`, `--where 'n between 1 5'`, `--where 'email exists'`. */
export function parseFilter(text: string) {
  const m =
    /^\s*(\S+?)\s*(<>|<=|>=|=|<|>|\s+begins_with\s+|\s+contains\s+|\s+between\s+|\s+exists\s*$|\s+not_exists\s*$)(.*)$/.exec(
      text,
    );
  if (!m)
    throw new UsageError(`Can't read the filter ${text}: use 'attribute op value' (op: ${FILTER_OPS.join(' ')}).`);
  const attribute = m[1] as string;
  const op = (m[2] as string).trim() as FilterOp;
  const rest = (m[3] ?? '').trim();
  if (op === 'exists' || op === 'not_exists') return { attribute, op };
  if (op === 'between') {
    const [a, b] = rest.split(/\s+/);
    if (a === undefined || b === undefined)
      throw new UsageError(`between takes two values: '${attribute} between 1 5'.`);
    return { attribute, op, value: typed(fromText(a)), value2: typed(fromText(b)) };
  }
  return { attribute, op, value: typed(fromText(rest)) };
}

const WHERE = {
  type: 'string',
  multiple: true,
  value: "'ATTR OP VALUE'",
  help: 'keep items matching (several: all of them; --any: one of them)',
} as const;

export const DATA_COMMANDS: CommandSpec[] = [
  {
    path: ['db', 'list'],
    aliases: ['ls'],
    summary: "the organization's databases",
    examples: ['platform db list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getDatabases({ orgId });
      return c.print(res, () =>
        res.databases.length === 0
          ? 'No databases yet. Create one: platform db create <name> --pk id'
          : table(
              [
                ['NAME', 'KEY', 'ITEMS', 'SIZE', 'ID'],
                ...res.databases.map((d) => [
                  d.name,
                  d.table
                    ? [d.table.partitionKey.name, d.table.sortKey?.name].filter(Boolean).join(', ')
                    : (d.error ?? ''),
                  d.table ? String(d.table.itemCount) : '-',
                  d.table ? bytes(d.table.sizeBytes) : '-',
                  d.resourceId,
                ]),
              ],
              width(c),
              [2, 3, 4],
            ),
      );
    },
  },
  {
    path: ['db', 'create'],
    summary: 'create a database (a table with its key)',
    positionals: [{ name: 'name', required: true }],
    options: {
      pk: { type: 'string', value: 'NAME[:S|N|B]', help: 'the partition key (default type S)', required: true },
      sk: { type: 'string', value: 'NAME[:S|N|B]', help: 'the sort key' },
      description: { type: 'string', value: 'TEXT', help: 'what it holds' },
    },
    examples: ['platform db create orders --pk customer --sk placedAt:N'],
    run: async (c) => {
      const partitionKey = keyOf(c.str('pk'));
      if (!partitionKey) throw new UsageError('Give the partition key: --pk NAME[:S|N|B].');
      const { api, orgId } = await org(c);
      const res = await api.postResources({
        orgId,
        body: {
          type: 'database',
          name: c.args[0] as string,
          partitionKey,
          sortKey: keyOf(c.str('sk')),
          description: c.str('description'),
        },
      });
      return c.print(res, () => `Created database ${res.resource.name} (${res.resource.resourceId}).`);
    },
  },
  {
    path: ['db', 'indexes'],
    summary: "a database's key and indexes",
    positionals: [{ name: 'db', required: true }],
    examples: ['platform db indexes orders'],
    run: async (c) => {
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      const res = await api.getDatabasesByResourceId({ orgId, resourceId: db.resourceId });
      const keyText = (k: { name: string; type: string } | undefined) => (k ? `${k.name}:${k.type}` : '');
      return c.print(res, () => {
        const t = res.table;
        if (!t) return `${db.name}: no table (${db.error ?? 'missing'}).`;
        return table(
          [
            ['INDEX', 'KIND', 'PARTITION', 'SORT', 'PROJECTION', 'STATUS'],
            ['(table)', '-', keyText(t.partitionKey), keyText(t.sortKey), 'ALL', t.status],
            ...t.indexes.map((i) => [
              i.name,
              i.kind,
              keyText(i.partitionKey),
              keyText(i.sortKey),
              i.projection.type,
              i.backfilling ? 'backfilling' : (i.status ?? ''),
            ]),
          ],
          width(c),
        );
      });
    },
  },
  {
    path: ['db', 'index-create'],
    summary: 'add a global index',
    positionals: [
      { name: 'db', required: true },
      { name: 'index', required: true },
    ],
    options: {
      pk: { type: 'string', value: 'NAME[:S|N|B]', help: "the index's partition key", required: true },
      sk: { type: 'string', value: 'NAME[:S|N|B]', help: "the index's sort key" },
      projection: {
        type: 'string',
        value: 'ALL|KEYS_ONLY',
        help: 'what the index holds (default ALL)',
        complete: ['ALL', 'KEYS_ONLY'],
      },
    },
    examples: ['platform db index-create orders by-status --pk status --sk placedAt:N'],
    run: async (c) => {
      const partitionKey = keyOf(c.str('pk'));
      if (!partitionKey) throw new UsageError("Give the index's partition key: --pk NAME[:S|N|B].");
      const type = (c.str('projection') ?? 'ALL') as 'ALL';
      if (!['ALL', 'KEYS_ONLY'].includes(type)) throw new UsageError('--projection takes ALL or KEYS_ONLY.');
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      const res = await api.postDatabasesIndexes({
        orgId,
        resourceId: db.resourceId,
        body: { name: c.args[1] as string, partitionKey, sortKey: keyOf(c.str('sk')), projection: { type } },
      });
      return c.print(res, () => `Added index ${c.args[1]} to ${db.name}.`);
    },
  },
  {
    path: ['db', 'index-delete'],
    summary: 'remove an index',
    positionals: [
      { name: 'db', required: true },
      { name: 'index', required: true },
    ],
    examples: ['platform db index-delete orders by-status'],
    run: async (c) => {
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      const res = await api.deleteDatabasesIndexesByIndexName({
        orgId,
        resourceId: db.resourceId,
        indexName: c.args[1] as string,
      });
      return c.print(res ?? { deleted: c.args[1] }, () => `Removed index ${c.args[1]} from ${db.name}.`);
    },
  },
  {
    path: ['db', 'scan'],
    summary: 'read items, filtered',
    positionals: [{ name: 'db', required: true }],
    options: {
      where: WHERE,
      any: { type: 'boolean', help: 'an item matching one --where is enough' },
      index: { type: 'string', value: 'I', help: 'read this index' },
      limit: { type: 'string', value: 'N', help: 'read at most N items (default 100)' },
    },
    examples: ["platform db scan orders --where 'total > 100' --where 'status = open'"],
    run: async (c) => {
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      const filters = c.all('where').map(parseFilter);
      const res = await api.postDatabasesScan({
        orgId,
        resourceId: db.resourceId,
        body: {
          index: c.str('index'),
          limit: intOption(c, 'limit', 1, 1000) ?? 100,
          filters: filters.length ? filters : undefined,
          match: c.flag('any') ? 'any' : undefined,
        },
      });
      const keys = db.table ? [db.table.partitionKey.name, db.table.sortKey?.name].filter((k): k is string => !!k) : [];
      return c.print(res, () =>
        res.items.length === 0
          ? `No items (${res.scanned} read).`
          : `${itemsTable(res.items, keys, width(c))}\n${count(res.count, 'item')}${res.cursor ? ', more: raise --limit' : ''}.`,
      );
    },
  },
  {
    path: ['db', 'query'],
    summary: 'read the items of one partition key value, filtered',
    positionals: [{ name: 'db', required: true }],
    options: {
      pk: { type: 'string', value: 'VALUE', help: 'the partition key value', required: true },
      sk: { type: 'string', value: "'OP VALUE'", help: "on the sort key: '= 5', 'begins_with 2026-', 'between 1 5'" },
      where: WHERE,
      any: { type: 'boolean', help: 'an item matching one --where is enough' },
      index: { type: 'string', value: 'I', help: 'query this index' },
      limit: { type: 'string', value: 'N', help: 'at most N items (default 100)' },
      reverse: { type: 'boolean', help: 'sort keys descending' },
    },
    examples: ["platform db query orders --pk c42 --sk '>= 1700000000'"],
    run: async (c) => {
      const pk = c.str('pk');
      if (pk === undefined) throw new UsageError('Give the partition key value: --pk VALUE.');
      const skText = c.str('sk');
      const sort = skText === undefined ? undefined : parseFilter(`sk ${skText}`);
      if (sort && (sort.op === '<>' || sort.op === 'contains' || sort.op === 'exists' || sort.op === 'not_exists')) {
        throw new UsageError(`--sk takes = < <= > >= begins_with between, not ${sort.op}.`);
      }
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      const filters = c.all('where').map(parseFilter);
      const res = await api.postDatabasesQuery({
        orgId,
        resourceId: db.resourceId,
        body: {
          partition: typed(fromText(pk)),
          sort: sort ? { op: sort.op as '=', value: sort.value, value2: sort.value2 } : undefined,
          index: c.str('index'),
          limit: intOption(c, 'limit', 1, 1000) ?? 100,
          filters: filters.length ? filters : undefined,
          match: c.flag('any') ? 'any' : undefined,
          forward: c.flag('reverse') ? false : undefined,
        },
      });
      const keys = db.table ? [db.table.partitionKey.name, db.table.sortKey?.name].filter((k): k is string => !!k) : [];
      return c.print(res, () =>
        res.items.length === 0
          ? 'No items.'
          : `${itemsTable(res.items, keys, width(c))}\n${count(res.count, 'item')}${res.cursor ? ', more: raise --limit' : ''}.`,
      );
    },
  },
  {
    path: ['db', 'get'],
    summary: 'one item by its key, as JSON',
    positionals: [{ name: 'db', required: true }],
    options: { key: { type: 'string', value: 'JSON', help: 'the key attributes', required: true } },
    examples: [`platform db get orders --key '{"customer":"c42","placedAt":1700000000}'`],
    run: async (c) => {
      const key = jsonOption(c, 'key');
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      const res = await api.postDatabasesItemsGet({ orgId, resourceId: db.resourceId, body: { key } });
      return c.print(res, () => JSON.stringify(plainItem(res.item), null, 2));
    },
  },
  {
    path: ['db', 'put'],
    summary: 'write an item, given as plain JSON (new; --replace: over the one with its key)',
    positionals: [{ name: 'db', required: true }],
    options: {
      item: { type: 'string', value: 'JSON', help: 'the item, plain JSON', required: true },
      replace: {
        type: 'boolean',
        help: 'replace the item with this key (read first; refused if it changes meanwhile)',
      },
    },
    examples: [`platform db put orders --item '{"customer":"c42","placedAt":1700000000,"total":120}'`],
    run: async (c) => {
      const item = jsonOption(c, 'item');
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      let original: Attr | undefined;
      if (c.flag('replace')) {
        const keyNames = db.table ? [db.table.partitionKey.name, db.table.sortKey?.name] : [];
        const key = Object.fromEntries(keyNames.filter((k): k is string => !!k).map((k) => [k, item[k]]));
        original = (await api.postDatabasesItemsGet({ orgId, resourceId: db.resourceId, body: { key } })).item;
      }
      const body = { item: Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typed(v)])), original };
      const res = await api.putDatabasesItems({ orgId, resourceId: db.resourceId, body });
      return c.print(res, () => `${original ? 'Replaced' : 'Created'} the item in ${db.name}.`);
    },
  },
  {
    path: ['db', 'delete'],
    summary: 'delete an item by its key',
    positionals: [{ name: 'db', required: true }],
    options: { key: { type: 'string', value: 'JSON', help: 'the key attributes', required: true } },
    examples: ['platform db delete orders --key \'{"customer":"c42","placedAt":1700000000}\''],
    run: async (c) => {
      const key = jsonOption(c, 'key');
      const { api, orgId, db } = await databaseOf(c, c.args[0] as string);
      await api.postDatabasesItemsDelete({ orgId, resourceId: db.resourceId, body: { key } });
      return c.print({ deleted: key }, () => `Deleted the item from ${db.name}.`);
    },
  },
  // Buckets.
  {
    path: ['bucket', 'list'],
    summary: "the organization's buckets",
    examples: ['platform bucket list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getStorage({ orgId });
      return c.print(res, () =>
        res.buckets.length === 0
          ? 'No buckets yet.'
          : table(
              [
                ['NAME', 'OBJECTS', 'SIZE', 'ID'],
                ...res.buckets.map((b) => [
                  b.name,
                  b.usage?.objects === undefined ? '-' : String(b.usage.objects),
                  b.usage?.sizeBytes === undefined ? '-' : bytes(b.usage.sizeBytes),
                  b.resourceId,
                ]),
              ],
              width(c),
              [1, 2, 3],
            ),
      );
    },
  },
  {
    path: ['bucket', 'ls'],
    summary: 'the folders and files of a bucket (under a prefix)',
    positionals: [{ name: 'bucket[:prefix]', required: true }],
    options: { limit: { type: 'string', value: 'N', help: 'at most N (default 100)' } },
    examples: ['platform bucket ls assets:img/', 'platform bucket ls assets --limit 100'],
    run: async (c) => {
      const { bucket, key } = await bucketPath(c, c.args[0] as string);
      const { api, orgId } = await org(c);
      const res = await api.getStorageObjects({
        orgId,
        resourceId: bucket.resourceId,
        prefix: key || undefined,
        limit: intOption(c, 'limit', 1, 1000),
      });
      return c.print(res, () =>
        res.folders.length + res.files.length === 0
          ? `Nothing under ${bucket.name}:${key}`
          : table(
              [
                ['SIZE', 'MODIFIED', 'NAME'],
                ...res.folders.map((f) => ['-', '-', f]),
                ...res.files.map((f) => [bytes(f.size), when(f.lastModified), f.key]),
              ],
              width(c),
              [0, 1],
            ),
      );
    },
  },
  {
    path: ['bucket', 'cp'],
    summary: 'copy a file to a bucket or from it (bucket:key), through presigned links',
    details:
      'One side is a local file, the other bucket:key (a key ending with / takes the file name). On a terminal,\n' +
      'the progress shows on stderr: bytes, rate, time left.',
    positionals: [
      { name: 'from', required: true, complete: 'file' },
      { name: 'to', required: true, complete: 'file' },
    ],
    options: { 'content-type': { type: 'string', value: 'TYPE', help: 'of an upload (default from the extension)' } },
    examples: ['platform bucket cp backup.tar.gz assets:backups/', 'platform bucket cp assets:backups/backup.tar.gz .'],
    run: async (c) => {
      const [from, to] = c.args as [string, string];
      const remoteFrom = isRemote(c, from);
      const remoteTo = isRemote(c, to);
      if (remoteFrom === remoteTo) throw new UsageError('Copy between a local file and bucket:key (one of each).');
      const { api, orgId } = await org(c);
      if (remoteTo) {
        const { file, size } = localFile(c, from);
        const { bucket, key: rawKey } = await bucketPath(c, to);
        const key = !rawKey || rawKey.endsWith('/') ? `${rawKey}${basename(file)}` : rawKey;
        const contentType = c.str('content-type') ?? typeOf(file);
        const res = await api.postStorageUploads({
          orgId,
          resourceId: bucket.resourceId,
          body: { files: [{ key, contentType, size }] },
        });
        const upload = res.uploads[0];
        if (!upload) throw new UsageError('The storage gave no upload link.');
        const meter = new TransferMeter(`Uploading ${key}`, size, c.io.stderr, c.io.tty);
        await uploadFile(upload.url, file, upload.contentType, meter);
        const took = meter.end();
        return c.print(
          { bucket: bucket.name, key, size },
          () => `Uploaded ${from} to ${bucket.name}:${key} (${bytes(size)} in ${took.toFixed(1)} s).`,
        );
      }
      const { bucket, key } = await bucketPath(c, from);
      if (!key || key.endsWith('/')) throw new UsageError(`${from} names no file.`);
      const dest = resolve(c.io.cwd, to);
      const file = existsSync(dest) && statSync(dest).isDirectory() ? resolve(dest, basename(key)) : dest;
      const link = await api.getStorageDownload({ orgId, resourceId: bucket.resourceId, key });
      const meter = new TransferMeter(`Downloading ${key}`, undefined, c.io.stderr, c.io.tty);
      const size = await downloadFile(link.url, file, meter, c.io.fetch);
      const took = meter.end();
      return c.print(
        { bucket: bucket.name, key, file, size },
        () => `Downloaded ${bucket.name}:${key} to ${to} (${bytes(size)} in ${took.toFixed(1)} s).`,
      );
    },
  },
  {
    path: ['bucket', 'rm'],
    summary: 'delete files (bucket:key), or a folder with --recursive (bucket:prefix/)',
    positionals: [{ name: 'bucket:key', required: true }],
    options: { recursive: { type: 'boolean', help: 'everything under the prefix' } },
    examples: ['platform bucket rm assets:img/logo.png', 'platform bucket rm assets:drafts/ --recursive'],
    run: async (c) => {
      const { bucket, key } = await bucketPath(c, c.args[0] as string);
      if (!key) throw new UsageError('Name what to delete: bucket:key (or bucket:prefix/ --recursive).');
      const { api, orgId } = await org(c);
      const body = c.flag('recursive') ? { prefixes: [key.endsWith('/') ? key : `${key}/`] } : { keys: [key] };
      const res = await api.postStorageObjectsDelete({ orgId, resourceId: bucket.resourceId, body });
      return c.print(
        res,
        () => `Deleted ${res.deleted} from ${bucket.name}${res.done ? '' : ' (more is being deleted)'}.`,
      );
    },
  },
  {
    path: ['bucket', 'settings'],
    summary: "a bucket's settings (versioning, CORS, lifecycle); --versioning on|off changes it",
    positionals: [{ name: 'bucket', required: true }],
    options: {
      versioning: { type: 'string', value: 'on|off', help: 'keep old versions of files', complete: ['on', 'off'] },
    },
    examples: ['platform bucket settings assets', 'platform bucket settings assets --versioning on'],
    run: async (c) => {
      const { bucket } = await bucketPath(c, c.args[0] as string);
      const { api, orgId } = await org(c);
      const v = c.str('versioning');
      if (v !== undefined && v !== 'on' && v !== 'off') throw new UsageError('--versioning takes on or off.');
      if (v !== undefined)
        await api.putStorageVersioning({ orgId, resourceId: bucket.resourceId, body: { enabled: v === 'on' } });
      const res = await api.getStorageSettings({ orgId, resourceId: bucket.resourceId });
      return c.print(res, () =>
        [
          `versioning:  ${res.versioning}`,
          `public:      ${res.publicAccessBlocked ? 'blocked' : 'allowed'}`,
          `CORS rules:  ${res.cors.length}`,
          `lifecycle:   ${res.lifecycle.length ? res.lifecycle.map((r) => `${r.prefix || '(all)'}${r.expirationDays ? ` expires after ${r.expirationDays} days` : ''}`).join('; ') : 'none'}`,
        ].join('\n'),
      );
    },
  },
];

/** `bucket:key` (a local path wins when it exists, so `./a:b` stays a file). */
const isRemote = (c: Ctx, arg: string) => /^[a-z0-9][a-z0-9._-]*:/i.test(arg) && !existsSync(resolve(c.io.cwd, arg));

async function bucketPath(c: Ctx, arg: string) {
  const colon = arg.indexOf(':');
  const name = colon < 0 ? arg : arg.slice(0, colon);
  const key = colon < 0 ? '' : arg.slice(colon + 1);
  const { api, orgId } = await org(c);
  const { buckets } = await api.getStorage({ orgId });
  const bucket = buckets.find((b) => b.name === name || b.resourceId === name);
  if (!bucket) throw new UsageError(`No bucket ${name} in this organization: platform bucket list.`);
  return { bucket, key };
}
