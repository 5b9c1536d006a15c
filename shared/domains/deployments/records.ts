import { db } from '../../kernel/store/client';
import { QueryCommand, type QueryCommandInput, UpdateCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPages } from '../../kernel/store/ops';
import { fieldUpdate, keys, TABLE } from '../../kernel/store/table';
import { normalizeHost } from '../host-registry/registry';
import { peopleOf, raiseEvent } from '../notifications/raise';
import { byProjectValues, deploymentKeys } from '../projects/deployments';
import { hostUrl } from '../projects/hosts';
import { projectKeys, projectPrefixes } from '../projects/records';
import { previewDeploymentMoved } from './previews';
import type { DeploymentRecord, DeploymentStatus, DeploymentTarget } from './schema';

/**
 * What the deployments group, its workers and the local builds do with deployment records
 * beyond what shared/domains/projects/deployments.ts shares with the projects group: status transitions,
 * lookups for the create rules, edge routes and server-function records.
 */

type DeploymentFields = Partial<Omit<DeploymentRecord, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'version'>>;

/**
 * Moves a deployment to `to` only while its status is one of `from` (a canceled deployment is
 * never revived by a late build event), setting `fields` (undefined values are removed).
 * Returns the new record, or undefined when the status had moved on.
 */
export async function transition(
  orgId: string,
  deploymentId: string,
  from: readonly DeploymentStatus[],
  to: DeploymentStatus,
  fields: DeploymentFields = {},
): Promise<DeploymentRecord | undefined> {
  const {
    status: _status,
    updatedAt: _updatedAt,
    ...rest
  } = fields as DeploymentFields & {
    status?: unknown;
    updatedAt?: unknown;
  };
  const update = fieldUpdate(rest, {
    sets: ['#status = :to', '#updatedAt = :now', '#version = if_not_exists(#version, :zero) + :one'],
    names: { '#status': 'status', '#updatedAt': 'updatedAt', '#version': 'version' },
    values: {
      ':to': to,
      ':now': Date.now(),
      ':one': 1,
      ':zero': 0,
      ...Object.fromEntries(from.map((status, i) => [`:s${i}`, status])),
    },
  });
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: deploymentKeys.deployment(orgId, deploymentId),
        ...update,
        ConditionExpression: `attribute_exists(pk) AND #status IN (${from.map((_, i) => `:s${i}`).join(', ')})`,
        ReturnValues: 'ALL_NEW',
      }),
    );
    const moved = out.Attributes as DeploymentRecord;
    if (to === 'ready' || to === 'error') await raiseDeploymentEvent(moved);
    await previewDeploymentMoved(moved);
    return moved;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw err;
  }
}

/**
 * `deployment.ready` or `deployment.failed`, raised by the one transition that ended the build:
 * about its project (protocols attached to it), matched by `target`, `projectId`, `branch`; for
 * its creator when a person made it.
 */
function raiseDeploymentEvent(d: DeploymentRecord): Promise<void> {
  const ready = d.status === 'ready';
  return raiseEvent({
    kind: ready ? 'deployment.ready' : 'deployment.failed',
    orgId: d.orgId,
    resources: [{ type: 'project', id: d.projectId }],
    attributes: {
      projectId: d.projectId,
      deploymentId: d.deploymentId,
      target: d.target,
      ...(d.branch ? { branch: d.branch } : {}),
    },
    people: peopleOf(d.createdBy),
    title: ready
      ? `Deployment ${d.deploymentId} (${d.target}) is ready`
      : `Deployment ${d.deploymentId} (${d.target}) failed`,
    ...(d.error ? { body: d.error } : {}),
    ...(d.host ? { url: hostUrl(d.host) } : {}),
  });
}

/** Sets fields without changing the status (the build id, metrics), if the record still exists. */
export async function setFields(orgId: string, deploymentId: string, fields: DeploymentFields): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(fields).forEach(([name, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  if (sets.length === 0) return;
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: deploymentKeys.deployment(orgId, deploymentId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/** Pages of the project's deployments on gsi1, newest first, filtered by `filter`. */
async function* projectDeployments(
  projectId: string,
  filter: Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames'> & {
    values?: Record<string, unknown>;
  },
): AsyncGenerator<DeploymentRecord> {
  const pages = queryPages<DeploymentRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :d)',
    FilterExpression: filter.FilterExpression,
    ExpressionAttributeNames: filter.ExpressionAttributeNames,
    ExpressionAttributeValues: { ...byProjectValues(projectId), ...filter.values },
    ScanIndexForward: false,
  });
  for await (const page of pages) yield* page.items;
}

/**
 * The deployment of `commitSha` for `target` that a new git deployment would repeat: one that is
 * building (deploying is the end of its build) or ready. Spec: returned with `existing: true`.
 */
export const existingForCommit = (projectId: string, commitSha: string, target: DeploymentTarget) =>
  newestForCommit(projectId, commitSha, target, ['building', 'deploying', 'ready']);

/** The newest deployment of `commitSha` for `target`, whatever its status (a merged pull request's). */
export const latestForCommit = (projectId: string, commitSha: string, target: DeploymentTarget) =>
  newestForCommit(projectId, commitSha, target);

async function newestForCommit(
  projectId: string,
  commitSha: string,
  target: DeploymentTarget,
  statuses?: DeploymentStatus[],
): Promise<DeploymentRecord | undefined> {
  const values: Record<string, unknown> = { ':c': commitSha, ':t': target };
  statuses?.forEach((status, i) => {
    values[`:s${i}`] = status;
  });
  const only = statuses ? ` AND #status IN (${statuses.map((_, i) => `:s${i}`).join(', ')})` : '';
  for await (const d of projectDeployments(projectId, {
    FilterExpression: `commitSha = :c AND #target = :t${only}`,
    ExpressionAttributeNames: { '#target': 'target', ...(statuses ? { '#status': 'status' } : {}) },
    values,
  })) {
    return d;
  }
  return undefined;
}

/** Queued deployments of the project for the same branch (or none) and target: superseded. */
export async function queuedFor(
  projectId: string,
  branch: string | undefined,
  target: DeploymentTarget,
): Promise<DeploymentRecord[]> {
  const found: DeploymentRecord[] = [];
  for await (const d of projectDeployments(projectId, {
    FilterExpression: '#status = :q AND #target = :t',
    ExpressionAttributeNames: { '#status': 'status', '#target': 'target' },
    values: { ':q': 'queued', ':t': target },
  })) {
    if ((d.branch ?? undefined) === branch) found.push(d);
  }
  return found;
}

/** The project's preview builds of a pull request still queued or running (superseded by a new head, or by closing). */
export async function inFlightForPull(projectId: string, repoId: string, number: number): Promise<DeploymentRecord[]> {
  const found: DeploymentRecord[] = [];
  for await (const d of projectDeployments(projectId, {
    FilterExpression: '#status IN (:q, :b) AND #target = :t AND pullRequest.repoId = :r AND pullRequest.#number = :n',
    ExpressionAttributeNames: { '#status': 'status', '#target': 'target', '#number': 'number' },
    values: { ':q': 'queued', ':b': 'building', ':t': 'preview', ':r': repoId, ':n': number },
  })) {
    found.push(d);
  }
  return found;
}

/** The newest ready deployment of the project for `target` (what a `skipped` one points at). */
export async function latestReady(projectId: string, target: DeploymentTarget): Promise<DeploymentRecord | undefined> {
  for await (const d of projectDeployments(projectId, {
    FilterExpression: '#status = :r AND #target = :t',
    ExpressionAttributeNames: { '#status': 'status', '#target': 'target' },
    values: { ':r': 'ready', ':t': target },
  })) {
    return d;
  }
  return undefined;
}

// Edge routes ---------------------------------------------------------------------------------

/**
 * An edge route: `ROUTE#<projectId>#<host>` in the organization's partition (so it moves and
 * goes with the project), found by host on gsi1 (`HOST#<host>`). A deployment host names its
 * deployment; the production host names the project, whose `productionDeploymentId` says which
 * deployment answers (so promote switches it with one write).
 */
export interface RouteRecord {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  host: string;
  orgId: string;
  projectId: string;
  deploymentId?: string;
  production?: boolean;
  createdAt: number;
}

const hostKey = (host: string) => `${PREFIXES.hosts.host}${normalizeHost(host)}`;

export function routeItem(
  orgId: string,
  projectId: string,
  host: string,
  target: { deploymentId: string } | { production: true },
  now = Date.now(),
): RouteRecord {
  return {
    pk: keys.org(orgId).pk,
    sk: `${projectPrefixes.route(projectId)}${normalizeHost(host)}`,
    gsi1pk: hostKey(host),
    // The oldest claim of a host wins at the edge (see resolveHost).
    gsi1sk: `${PREFIXES.deployments.route}${String(now).padStart(15, '0')}`,
    host: normalizeHost(host),
    orgId,
    projectId,
    ...target,
    createdAt: now,
  };
}

/** The routes that claim `host` (normally one), oldest first. */
export async function routesForHost(host: string): Promise<RouteRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :h AND begins_with(gsi1sk, :r)',
      ExpressionAttributeValues: { ':h': hostKey(host), ':r': PREFIXES.deployments.route },
      Limit: 10,
    }),
  );
  return (out.Items ?? []) as RouteRecord[];
}

// Server functions ----------------------------------------------------------------------------

/** `FN#<projectId>#<deploymentId>`: a deployed server function (removed with the project). */
export interface FunctionRecord {
  pk: string;
  sk: string;
  orgId: string;
  projectId: string;
  deploymentId: string;
  name: string;
  region: string;
  createdAt: number;
  /** Set when the function was stopped and deleted (expiry, transfer); the record stays. */
  removedAt?: number;
}

export const functionKey = (orgId: string, projectId: string, deploymentId: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${projectPrefixes.serverFunction(projectId)}${deploymentId}`,
});

// Production pointer --------------------------------------------------------------------------

/**
 * Makes `deploymentId` the project's production deployment, while the project is active, and
 * (with `onlyIfNewer`) only when the current production deployment is older: two production
 * builds finishing out of order leave the newer one in production. Ids are time-ordered.
 * Returns false when the condition did not hold.
 */
export async function setProduction(
  orgId: string,
  projectId: string,
  deploymentId: string,
  options: { onlyIfNewer?: boolean; expectedCurrent?: string | null } = {},
): Promise<boolean> {
  const conditions = ['attribute_exists(pk)', '#status = :active'];
  const values: Record<string, unknown> = { ':d': deploymentId, ':active': 'active' };
  if (options.onlyIfNewer)
    conditions.push('(attribute_not_exists(productionDeploymentId) OR productionDeploymentId < :d)');
  if (options.expectedCurrent === null) conditions.push('attribute_not_exists(productionDeploymentId)');
  else if (options.expectedCurrent !== undefined) {
    conditions.push('productionDeploymentId = :cur');
    values[':cur'] = options.expectedCurrent;
  }
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: projectKeys.project(orgId, projectId),
        UpdateExpression: 'SET productionDeploymentId = :d',
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}
