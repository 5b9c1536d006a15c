import { createHash, randomBytes } from 'node:crypto';
import { db } from '../../kernel/store/client';
import { DeleteCommand, UpdateCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';

/**
 * THE host registry: one global item per host the platform answers (production hosts, deployment
 * hosts, pull request preview hosts naming their newest ready deployment, custom domains), `pk = HOST#<host>` (lowercased, no port), written with
 * `attribute_not_exists` in the transaction that creates what it names, so no two projects of any
 * organizations hold one host. The local edge and the AWS router read it (shared/domains/hosts/resolve.ts).
 * It stands below every product that serves a host (projects, deployments, custom domains) and imports none.
 * Each item is also on gsi1 under its project (`PRJHOSTS#<projectId>`), so a transfer moves and a
 * delete releases them all.
 */
export type HostKind = 'production' | 'deployment' | 'preview' | 'domain';

export interface HostEntry {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  host: string;
  kind: HostKind;
  orgId: string;
  projectId: string;
  deploymentId?: string;
  /** A preview host's pull request, `<repoId>#<number>`: only that pull request of the project holds it. */
  pull?: string;
  createdAt: number;
}

/**
 * The host without its port, lowercased: what routes are keyed by and the edge looks up (so a
 * local platform restarted on another port still finds its deployments).
 */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

export const HOST_IN_USE = (host: string) => `${host} is already in use.`;

export const hostKey = (host: string) => ({ pk: `${PREFIXES.hosts.host}${normalizeHost(host)}`, sk: 'HOST' });

const projectHostsKey = (projectId: string) => `${PREFIXES.hosts.projectHosts}${projectId}`;

export function hostEntry(
  host: string,
  kind: HostKind,
  owner: { orgId: string; projectId: string; deploymentId?: string; pull?: string },
  now = Date.now(),
): HostEntry {
  const name = normalizeHost(host);
  return {
    ...hostKey(name),
    gsi1pk: projectHostsKey(owner.projectId),
    gsi1sk: `${PREFIXES.hosts.host}${name}`,
    host: name,
    kind,
    orgId: owner.orgId,
    projectId: owner.projectId,
    ...(owner.deploymentId ? { deploymentId: owner.deploymentId } : {}),
    ...(owner.pull ? { pull: owner.pull } : {}),
    createdAt: now,
  };
}

/** A transaction item: the host becomes `entry`'s, only if nobody holds it. */
export const reserveHost = (entry: HostEntry) => ({
  Put: { TableName: TABLE(), Item: entry, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** A transaction item: nobody holds the host (a pending custom domain's claim checks it, taking nothing). */
export const hostIsFree = (host: string) => ({
  ConditionCheck: { TableName: TABLE(), Key: hostKey(host), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** A transaction item: the host is released, if `projectId` holds it (anything else stays). */
export const releaseHost = (host: string, projectId: string) => ({
  Delete: {
    TableName: TABLE(),
    Key: hostKey(host),
    ConditionExpression: 'attribute_not_exists(pk) OR projectId = :p',
    ExpressionAttributeValues: { ':p': projectId },
  },
});

/** A transaction item: the host passes from project `from` to project `to` of the same organization. */
export const hostToProject = (host: string, from: string, to: string) => ({
  Update: {
    TableName: TABLE(),
    Key: hostKey(host),
    UpdateExpression: 'SET projectId = :to, gsi1pk = :g',
    ConditionExpression: 'projectId = :from',
    ExpressionAttributeValues: { ':to': to, ':g': projectHostsKey(to), ':from': from },
  },
});

/** Thrown by a transaction whose registry item failed: the host is someone else's. */
export class HostTaken extends Error {
  constructor(readonly host: string) {
    super(HOST_IN_USE(host));
  }
}

export function getHost(host: string, consistent = false): Promise<HostEntry | undefined> {
  return getItem<HostEntry>(hostKey(host), consistent);
}

/** The hosts a project holds (gsi1, eventually consistent). */
export function hostsOfProject(projectId: string): Promise<HostEntry[]> {
  return queryAll<HostEntry>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p',
    ExpressionAttributeValues: { ':p': projectHostsKey(projectId) },
  });
}

/** Releases hosts one by one, each only if the project still holds it. */
export async function releaseHosts(hosts: Iterable<string>, projectId: string): Promise<void> {
  for (const host of new Set([...hosts].map(normalizeHost))) {
    try {
      await db.send(new DeleteCommand(releaseHost(host, projectId).Delete));
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
}

/** Every host of the project names `orgId` (a transfer); hosts another project holds stay. */
export async function moveHosts(hosts: Iterable<string>, projectId: string, orgId: string): Promise<void> {
  for (const host of new Set([...hosts].map(normalizeHost))) {
    try {
      await db.send(
        new UpdateCommand({
          TableName: TABLE(),
          Key: hostKey(host),
          UpdateExpression: 'SET orgId = :o',
          ConditionExpression: 'projectId = :p',
          ExpressionAttributeValues: { ':o': orgId, ':p': projectId },
        }),
      );
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
}

// Production hosts ------------------------------------------------------------------------------

/** A DNS label: at most 63 characters, no trailing hyphen. */
const label = (value: string) => value.slice(0, 63).replace(/-+$/, '');

/**
 * The labels a project's production host may take, in order: `<slug>`, `<slug>-<org slug>`, then
 * `<slug>-<6 random characters>` (a few of them: each is tried in its own transaction).
 */
export function productionLabels(slug: string, orgSlug: string): string[] {
  const random = () => label(`${slug.slice(0, 56)}-${randomBytes(4).toString('hex').slice(0, 6)}`);
  return [...new Set([label(slug), label(`${slug}-${orgSlug}`)])].concat([random(), random(), random()]);
}

// Pull request preview hosts ---------------------------------------------------------------------

/** The registry's name for a pull request of a repository (a preview host's `pull`). */
export const pullOfPreview = (repoId: string, number: number) => `${repoId}#${number}`;

const shortHash = (value: string, length: number) => createHash('sha256').update(value).digest('hex').slice(0, length);

/**
 * `<base><tail>` as one DNS label of at most 63 characters: when longer, `base` is cut and a short
 * hash of the whole `base` added before `tail`, so two long bases that share a beginning stay apart.
 */
export function fitLabel(base: string, tail: string): string {
  if (base.length + tail.length <= 63) return label(`${base}${tail}`);
  const hash = `-${shortHash(base, 6)}`;
  const cut = base.slice(0, Math.max(1, 63 - tail.length - hash.length)).replace(/-+$/, '');
  return label(`${cut}${hash}${tail}`);
}

/**
 * The labels a pull request's preview host may take, in order, all deterministic and each at most
 * 63 characters: `<slug>-pr-<number>`, then the same with a suffix derived from the project id
 * (8, then 16 hexadecimal characters of its SHA-256), for when another project, of any
 * organization, holds the first. Each is tried in the transaction that creates the preview
 * deployment (shared/domains/deployments/launch.ts); none is ever shared.
 */
export function previewLabels(slug: string, number: number, projectId: string): string[] {
  const tail = `-pr-${number}`;
  return [
    fitLabel(slug, tail),
    fitLabel(slug, `${tail}-${shortHash(projectId, 8)}`),
    fitLabel(slug, `${tail}-${shortHash(projectId, 16)}`),
  ];
}

/** Whether `entry` is the preview host of that pull request of that project (an entry from before `pull` was kept: of the project). */
export const holdsPreview = (entry: HostEntry | undefined, projectId: string, pull: string): entry is HostEntry =>
  entry?.kind === 'preview' && entry.projectId === projectId && (entry.pull === undefined || entry.pull === pull);

/** The condition of the pull request (`:p`, `:pull`) holding a preview host (`:k`: 'preview'). */
const PREVIEW_HOLDER = '(projectId = :p AND #kind = :k AND (attribute_not_exists(#pull) OR #pull = :pull))';
const NAMES = { '#host': 'host', '#kind': 'kind', '#pull': 'pull' };

/**
 * A transaction item: the preview host becomes the pull request's (`entry.pull`, of
 * `entry.projectId`) when free; when that pull request holds it already it stays so, still
 * pointed at the deployment it serves. Held by anything else (another organization's preview,
 * a production host), the item fails: the host is never shared.
 */
export const claimPreviewHost = (entry: HostEntry) => ({
  Update: {
    TableName: TABLE(),
    Key: hostKey(entry.host),
    UpdateExpression:
      'SET #host = :h, #kind = :k, orgId = :o, projectId = :p, gsi1pk = :g, gsi1sk = :gs, #pull = :pull, createdAt = if_not_exists(createdAt, :t)',
    ConditionExpression: `attribute_not_exists(pk) OR ${PREVIEW_HOLDER}`,
    ExpressionAttributeNames: NAMES,
    ExpressionAttributeValues: {
      ':h': entry.host,
      ':k': 'preview',
      ':o': entry.orgId,
      ':p': entry.projectId,
      ':g': entry.gsi1pk,
      ':gs': entry.gsi1sk,
      ':pull': entry.pull ?? null,
      ':t': entry.createdAt,
    },
  },
});

/** A transaction item: the pull request's preview host answers `deploymentId`, if that pull request holds it. */
export const pointPreviewHost = (host: string, projectId: string, pull: string, deploymentId: string) => ({
  Update: {
    TableName: TABLE(),
    Key: hostKey(host),
    UpdateExpression: 'SET deploymentId = :d, #pull = :pull',
    ConditionExpression: `attribute_exists(pk) AND ${PREVIEW_HOLDER}`,
    ExpressionAttributeNames: { '#kind': 'kind', '#pull': 'pull' },
    ExpressionAttributeValues: { ':d': deploymentId, ':p': projectId, ':k': 'preview', ':pull': pull },
  },
});

/**
 * Releases a preview host if that pull request of that project holds it (a preview that fell back
 * to its deployment's own host, or names another project's, releases nothing).
 */
export async function releasePreviewHost(host: string, projectId: string, pull: string): Promise<void> {
  try {
    await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: hostKey(host),
        ConditionExpression: PREVIEW_HOLDER,
        ExpressionAttributeNames: { '#kind': 'kind', '#pull': 'pull' },
        ExpressionAttributeValues: { ':p': projectId, ':k': 'preview', ':pull': pull },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}
