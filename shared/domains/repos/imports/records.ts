import { DomainError } from '../../../kernel/ground/errors';
import { db } from '../../../kernel/store/client';
import { QueryCommand, UpdateCommand } from '../../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../../kernel/store/cursor';
import { newId } from '../../../kernel/store/ids';
import { PREFIXES } from '../../../kernel/store/keys';
import { putOnce, queryAll } from '../../../kernel/store/ops';
import { getItem, orgPk, TABLE } from '../../../kernel/store/table';
import type { ImportRecord } from '../record-schemas';

/**
 * Imports of existing repositories (`POST /v1/orgs/:orgId/repos/-/imports`): one record per import
 * beside its organization (`ORG#<orgId>`, `REPOIMPORT#<importId>`, time-ordered ids), moved by the
 * import job that runs where builds run (shared/domains/repos/imports/job.ts) and by the cancel
 * route. The source's credentials are kept sealed (the secrets port) only while the import is
 * queued or running, and never answered.
 */
export type { ImportRecord };
export type ImportState = ImportRecord['state'];
export type ImportPhase = ImportRecord['progress']['phase'];

export const FINAL_STATES: readonly ImportState[] = ['succeeded', 'failed', 'cancelled'];
/** Imports of one organization queued or running at once. */
export const MAX_ACTIVE_IMPORTS = 3;
/**
 * The import job's limits: queued at most IMPORT_QUEUE_HOURS, then running at most
 * IMPORT_RUN_HOURS (the import project's build timeout, lib/aws/imports.ts; CodeBuild's own limit
 * is 36 hours, a Lambda function's would be 15 minutes). An import not finished past both is swept
 * (./sweep.ts).
 */
export const IMPORT_QUEUE_HOURS = 1;
export const IMPORT_RUN_HOURS = 8;
const LIMIT_MS = (IMPORT_QUEUE_HOURS + IMPORT_RUN_HOURS) * 3_600_000;

export const IMPORT_M = {
  notFound: 'Import not found',
  badUrl: 'url must be an http or https git URL.',
  finished: 'This import has already finished.',
  tooMany: `At most ${MAX_ACTIVE_IMPORTS} imports run at a time in an organization. Wait for one to finish.`,
  cancelled: 'The import was cancelled.',
  unreachable: 'The source repository could not be fetched. Check the URL and its credentials.',
  empty: 'The source repository has no branches or tags.',
  pushFailed: 'The history could not be written to the new repository.',
  lfsFailed: "The source's Git LFS objects could not be fetched.",
  lfsUnsafe: "The source's Git LFS server named a link the platform does not reach (only public https hosts).",
  lost: 'The import stopped unexpectedly. Start it again.',
  overdue: `The import did not finish within ${IMPORT_QUEUE_HOURS + IMPORT_RUN_HOURS} hours and was stopped. Start it again.`,
} as const;

const PREFIX = PREFIXES.repos.import;
export const importKey = (orgId: string, importId: string) => ({ pk: orgPk(orgId), sk: `${PREFIX}${importId}` });
/** The credentials' encryption context: they open for this import only. */
export const credentialsContext = (orgId: string, importId: string) => ({ purpose: 'repo-import', orgId, importId });

export const newImportId = () => newId('imp_');

/** The URL without user name, password, query or fragment (what is kept and answered). */
export function publicUrl(url: URL): string {
  const clean = new URL(url.href);
  clean.username = '';
  clean.password = '';
  clean.search = '';
  clean.hash = '';
  return clean.href;
}

/** Every unfinished import of every organization is in gsi1 under this key, oldest first; a final state leaves it. */
const ACTIVE_PK = `${PREFIXES.repos.imports}ACTIVE`;
const activeSortKey = (createdAt: number, orgId: string, importId: string) =>
  `${String(createdAt).padStart(15, '0')}#${orgId}#${importId}`;

export async function putImport(record: ImportRecord): Promise<void> {
  const item = { ...record, gsi1pk: ACTIVE_PK, gsi1sk: activeSortKey(record.createdAt, record.orgId, record.importId) };
  await putOnce({ Item: item, ConditionExpression: 'attribute_not_exists(pk)' });
}

/** Imports of any organization still queued or running past their job's time limit at `now`. */
export const overdueImports = (now = Date.now()) =>
  queryAll<ImportRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
    ExpressionAttributeValues: { ':pk': ACTIVE_PK, ':before': activeSortKey(now - LIMIT_MS, '', '') },
  });

export const getImport = (orgId: string, importId: string) => getItem<ImportRecord>(importKey(orgId, importId), true);

export async function requireImport(orgId: string, importId: string): Promise<ImportRecord> {
  const found = /^imp_[0-9a-z]{26}$/.test(importId) ? await getImport(orgId, importId) : undefined;
  if (!found) throw new DomainError('notFound', IMPORT_M.notFound);
  return found;
}

/** The organization's imports, newest first. */
export async function listImports(
  orgId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ imports: ImportRecord[]; nextCursor: string | null }> {
  const scope = `repo-imports:${orgId}`;
  const page = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': orgPk(orgId), ':p': PREFIX },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(scope, cursor),
    }),
  );
  return {
    imports: (page.Items ?? []) as ImportRecord[],
    nextCursor: encodeCursor(scope, page.LastEvaluatedKey),
  };
}

/** Imports of the organization not yet finished. */
export const activeImports = (orgId: string) =>
  queryAll<ImportRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: '#state IN (:q, :r)',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pk': orgPk(orgId), ':p': PREFIX, ':q': 'queued', ':r': 'running' },
  });

/**
 * Changes an import that is not finished yet (`state` one of queued, running): false when it had
 * finished already (a cancel won the race, say). A final state drops the sealed credentials.
 */
export async function moveImport(
  r: Pick<ImportRecord, 'orgId' | 'importId'>,
  fields: Partial<Pick<ImportRecord, 'state' | 'progress' | 'message' | 'buildId'>>,
): Promise<boolean> {
  const names: Record<string, string> = { '#state': 'state', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':q': 'queued', ':r': 'running', ':now': Date.now() };
  const sets = ['#updatedAt = :now'];
  for (const [k, v] of Object.entries(fields)) {
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  const final = fields.state !== undefined && FINAL_STATES.includes(fields.state);
  if (final) {
    names['#finishedAt'] = 'finishedAt';
    sets.push('#finishedAt = :now');
  }
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: importKey(r.orgId, r.importId),
        UpdateExpression: `SET ${sets.join(', ')}${final ? ' REMOVE sealedCredentials, gsi1pk, gsi1sk' : ''}`,
        ConditionExpression: '#state IN (:q, :r)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/** What the routes answer of an import: never its credentials or its build. */
export function importView(r: ImportRecord) {
  return {
    importId: r.importId,
    url: r.url,
    name: r.name,
    state: r.state,
    progress: r.progress,
    message: r.message,
    repository: r.state === 'succeeded' ? { name: r.name, resourceId: r.repoId } : null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    finishedAt: r.finishedAt ?? null,
  };
}
