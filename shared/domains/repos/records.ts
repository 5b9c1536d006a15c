import type { Caller } from '../../kernel/auth/caller';
import { conflict, DomainError, isDomainError, notFound } from '../../kernel/ground/errors';
import { log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { PutCommand, UpdateCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll, transact } from '../../kernel/store/ops';
import { getItem, keys, TABLE } from '../../kernel/store/table';
import { git } from '../../ports/git';
import { usableLocation } from '../platform-admin/geo';
import { projectKeys } from '../projects/records';
import {
  getResource,
  insertResource,
  removeResource,
  resourceKey,
  resourceNameKey,
  updateResource,
} from '../resources/records';
import type { ResourceRecord } from '../resources/schema';
import { removeLocks } from './lfs/locks';
import { removeLfsObjects } from './lfs/objects';
import type { RequiredCheck } from './record-schemas';
import { removeRepoIndex } from './tags';
import type { GitignoreTemplate, License } from './template-names';

/** A repository: a resource record (`type: repository`) and what its routes keep on it. */
export type RepoRecord = ResourceRecord & {
  defaultBranch: string;
  /** Approvals a pull request into the default branch needs; 0 or absent: the branch is not protected. */
  requiredApprovals?: number;
  /** Checks that must be `success` on a pull request's head to merge into the default branch (a name, or a name bound to its writer). */
  requiredChecks?: RequiredCheck[];
  /** Labels kept (the 101st is refused). */
  labelCount?: number;
  openIssues?: number;
  openPulls?: number;
  /** The import filling it while it is `creating` (shared/domains/repos/imports/): never finished by a create. */
  importId?: string;
};

export const M = {
  repoNotFound: 'Repository not found',
  nameTaken: 'A repository with this name already exists.',
  createFailed: 'Could not create the repository.',
  commitFailed: 'Could not create the initial commit.',
  confirm: 'Type the repository name to confirm.',
  changed: 'The repository changed. Reload and try again.',
} as const;

/** Repository names: lowercase letters, digits and hyphens; 3-40; starting and ending alphanumeric. */
export const REPO_NAME = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;

/** A repository still `creating` after this was left by a create that died: the next create finishes it. */
const ABANDONED_AFTER_MS = 5 * 60_000;

const nameKey = (orgId: string, name: string) => resourceNameKey(orgId, 'repository', name);

/**
 * A repository's organization by its id: CodeCommit's events name a repository only (by its
 * physical name, `<prefix><repoId>`), so the worker that deploys pushes finds the rest from here.
 */
const repoOrgKey = (repoId: string) => ({ pk: `${PREFIXES.repos.repo}${repoId}`, sk: 'REPO' });

/** The repository of an id, wherever it is. */
export async function repoById(repoId: string): Promise<RepoRecord | undefined> {
  const held = await getItem<{ orgId: string }>(repoOrgKey(repoId));
  if (!held) return undefined;
  return (await getResource(held.orgId, 'repository', repoId)) as RepoRecord | undefined;
}

/** The repository named `name` in the organization, or undefined (deleting ones included). */
export async function findRepo(orgId: string, name: string): Promise<RepoRecord | undefined> {
  if (!REPO_NAME.test(name)) return undefined;
  const held = await getItem<{ resourceId: string }>(nameKey(orgId, name));
  if (!held) return undefined;
  const r = (await getResource(orgId, 'repository', held.resourceId)) as RepoRecord | undefined;
  return r && r.name === name ? r : undefined;
}

/** The repository of a route: 404 `Repository not found` unless it is there and usable. */
export async function requireRepo(orgId: string, name: string): Promise<RepoRecord> {
  const r = await findRepo(orgId, name);
  if (!r || r.status === 'deleting') throw notFound(M.repoNotFound);
  return r;
}

export interface CreateRepoInput {
  name: string;
  description?: string;
  readme?: boolean;
  gitignore?: GitignoreTemplate;
  license?: License;
  defaultBranch?: string;
  location?: string;
  /** Only the record and its name (`creating`): an import fills the storage and makes it `active`. */
  importId?: string;
}

const callerId = (c: Caller) => (c.kind === 'user' ? c.userId : c.keyId);
const callerName = (c: Caller) => (c.kind === 'user' ? (c.name ?? c.email ?? c.userId) : `Key ${c.keyId}`);
const callerEmail = (c: Caller) => (c.kind === 'user' && c.email ? c.email : 'noreply@platform.local');

/**
 * Creates a repository: the record `creating` with its name (unique in the organization, by the
 * same transaction), then its storage, then the first commit when a README, a .gitignore or a
 * license is asked for, then `active`. A repository whose storage or first commit failed (502)
 * keeps its record: creating it again with the same name finishes it (the storage is created
 * idempotently, the first commit only while the repository is still empty) instead of a 409.
 */
export async function createRepository(orgId: string, caller: Caller, input: CreateRepoInput): Promise<RepoRecord> {
  const location = await usableLocation(input.location);
  if (!location) throw new DomainError('invalid', `Unknown location: ${input.location}`);
  const defaultBranch = input.defaultBranch ?? 'main';
  const now = Date.now();
  const resourceId = newId('res_', now);
  let record: RepoRecord = {
    resourceId,
    type: 'repository',
    name: input.name,
    status: 'creating',
    ...(input.description ? { description: input.description } : {}),
    createdAt: now,
    updatedAt: now,
    region: location.region,
    orgId,
    createdBy: callerId(caller),
    location: location.id,
    physicalName: `repo-${resourceId.toLowerCase()}`,
    defaultBranch,
    ...(input.importId ? { importId: input.importId } : {}),
    version: 1,
  };
  try {
    await insertResource(record, undefined, { nameTaken: M.nameTaken });
  } catch (err) {
    // A retry after a 502: the unfinished repository of that name is finished, not refused.
    // (A `creating` one is another create under way, unless it was left so by a crash long ago.)
    const existing = await findRepo(orgId, input.name);
    const unfinished =
      existing &&
      !existing.importId &&
      !input.importId &&
      (existing.status === 'error' ||
        (existing.status === 'creating' && (existing.createdAt ?? 0) < Date.now() - ABANDONED_AFTER_MS));
    if (!isDomainError(err, 'conflict') || !existing || !unfinished) throw err;
    record = existing;
  }

  await db.send(new PutCommand({ TableName: TABLE(), Item: { ...repoOrgKey(record.resourceId), orgId } }));
  if (input.importId) return record;
  const port = git();
  try {
    await port.create(record.resourceId, record.defaultBranch);
  } catch (err) {
    log.error('repository storage failed', { repoId: record.resourceId, error: String(err) });
    await updateResource(record, { status: 'error', error: M.createFailed }).catch(() => undefined);
    throw new DomainError('backend', M.createFailed);
  }
  const files = await firstFiles(record, input, caller);
  if (files.length > 0 && (await port.refs(record.resourceId)).branches.length === 0) {
    try {
      await port.commit(record.resourceId, {
        branch: record.defaultBranch,
        parent: null,
        changes: files.map(([path, text]) => ({ action: 'put' as const, path, content: Buffer.from(text) })),
        message: 'Initial commit',
        author: { name: callerName(caller), email: callerEmail(caller) },
      });
    } catch (err) {
      log.error('initial commit failed', { repoId: record.resourceId, error: String(err) });
      await updateResource(record, { status: 'error', error: M.commitFailed }).catch(() => undefined);
      throw new DomainError('backend', M.commitFailed);
    }
  }
  const fresh = (await getResource(orgId, 'repository', record.resourceId)) as RepoRecord;
  return (await updateResource(fresh, { status: 'active', error: undefined })) as RepoRecord;
}

/** The first commit's files; their texts (a license is 11 KB) load only when asked for. */
async function firstFiles(record: RepoRecord, input: CreateRepoInput, caller: Caller): Promise<[string, string][]> {
  if (!input.readme && !input.gitignore && !input.license) return [];
  const { GITIGNORE, licenseText, readmeText } = await import('./templates');
  const files: [string, string][] = [];
  if (input.readme) files.push(['README.md', readmeText(record.name, record.description)]);
  if (input.gitignore) files.push(['.gitignore', GITIGNORE[input.gitignore]]);
  if (input.license) files.push(['LICENSE', licenseText(input.license, callerName(caller))]);
  return files;
}

/** The projects of the organization linked to the repository. */
export async function linkedProjects(orgId: string, repoId: string): Promise<{ projectId: string }[]> {
  const items = await queryAll<{ projectId?: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: 'repoId = :repo',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': PREFIXES.projects.project, ':repo': repoId },
    ProjectionExpression: 'projectId, sk',
  });
  return items
    .filter((item) => item.projectId && item.sk === `${PREFIXES.projects.project}${item.projectId}`)
    .map((item) => ({ projectId: item.projectId as string }));
}

/**
 * Deletes a repository: marked `deleting` first (it answers 404 from then on), its linked projects
 * unlinked (their deployments stay), its storage removed, then the record and its name. After a
 * failure part-way, deleting again finishes the job.
 */
export async function deleteRepository(r: RepoRecord): Promise<void> {
  const marked = r.status === 'deleting' ? r : await updateResource(r, { status: 'deleting' });
  for (const { projectId } of await linkedProjects(r.orgId, r.resourceId)) {
    try {
      await db.send(
        new UpdateCommand({
          TableName: TABLE(),
          Key: projectKeys.project(r.orgId, projectId),
          UpdateExpression: 'REMOVE repoId SET updatedAt = :now, #version = #version + :one',
          ConditionExpression: 'repoId = :repo',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':repo': r.resourceId, ':now': Date.now(), ':one': 1 },
        }),
      );
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
  await git().remove(r.resourceId);
  await Promise.all([removeLfsObjects({ orgId: r.orgId, repoId: r.resourceId }), removeLocks(r.resourceId)]);
  await removeResource(marked);
  // The id's own items: its organization (repoOrgKey), the tags index, archive records.
  await removeRepoIndex(r.resourceId);
}

/**
 * Renames a repository: its record and its name item move in one transaction (the new name must be
 * free); its storage stays under its id, so only the clone URL changes.
 */
export async function renameRepository(r: RepoRecord, name: string): Promise<RepoRecord> {
  if (name === r.name) return r;
  const now = Date.now();
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: resourceKey(r.orgId, 'repository', r.resourceId),
          UpdateExpression: 'SET #name = :name, updatedAt = :now, #version = #version + :one',
          ConditionExpression: '#version = :expected',
          ExpressionAttributeNames: { '#name': 'name', '#version': 'version' },
          ExpressionAttributeValues: { ':name': name, ':now': now, ':one': 1, ':expected': r.version },
        },
      },
      {
        Delete: {
          TableName: TABLE(),
          Key: nameKey(r.orgId, r.name),
          ConditionExpression: 'resourceId = :id',
          ExpressionAttributeValues: { ':id': r.resourceId },
        },
      },
      {
        Put: {
          TableName: TABLE(),
          Item: { ...nameKey(r.orgId, name), resourceId: r.resourceId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [() => conflict(M.changed), () => conflict(M.changed), () => conflict(M.nameTaken)],
  );
  return { ...r, name, updatedAt: now, version: r.version + 1 };
}
