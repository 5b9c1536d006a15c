import { conflict, DomainError, isDomainError } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { GetCommand, UpdateCommand } from '../../kernel/store/commands';
import { deleteMany, queryAll, transact, updateVersioned } from '../../kernel/store/ops';
import { keys, TABLE } from '../../kernel/store/table';
import { hostsOfProject, releaseHosts } from '../host-registry/registry';
import { forgetProjectClients } from '../signin-clients/clients';
import { deploymentInProgress, projectDeploymentKeys } from './deployments';
import { hostOfLabel, productionLabelOf } from './hosts';
import { getProject, PROJECT_TRANSFERRING, projectKeys, projectPrefixes, requireProject } from './records';
import { linkedStorage, type ResourceRecord } from './related';
import type { ProjectRecord } from './schema';
import { type DeployedFunctionRemovers, removeServerFunctions } from './server-functions';

export const WAIT_FOR_DEPLOYMENT = 'Wait for the deployment in progress to finish.';
export const NOT_ALL_REMOVED = "Couldn't remove all of the project's resources. Try again.";

/** Records under the organization whose sort key starts with `prefix` (keys only, consistent). */
function keysWithPrefix(orgId: string, prefix: string) {
  return queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': prefix },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  });
}

/** A database or bucket in transition (being created or deleted) is left alone: try again. */
class InTransition extends Error {}

/**
 * Unlinks a database or bucket from the project: removes `projectId` and bumps the resource's
 * version, only while it is still linked to this project and not being created or deleted (its
 * own group then writes the record, guarded by its version). A resource linked elsewhere since
 * is left as it is.
 */
async function unlink(resource: ResourceRecord, projectId: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: resource.pk, sk: resource.sk },
        UpdateExpression: 'REMOVE projectId SET updatedAt = :now, #version = if_not_exists(#version, :zero) + :one',
        ConditionExpression:
          'projectId = :project AND (attribute_not_exists(#status) OR NOT (#status IN (:creating, :deleting)))',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
        ExpressionAttributeValues: {
          ':project': projectId,
          ':now': Date.now(),
          ':zero': 0,
          ':one': 1,
          ':creating': 'creating',
          ':deleting': 'deleting',
        },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    const now = await db.send(
      new GetCommand({ TableName: TABLE(), Key: { pk: resource.pk, sk: resource.sk }, ConsistentRead: true }),
    );
    if (now.Item?.projectId === projectId)
      throw new InTransition(`${resource.type} ${resource.resourceId} is ${now.Item.status}`);
  }
}

/**
 * What a project's deletion removes of the products above projects, handed in by the route
 * (functions/projects): its custom domains, each with the records the platform wrote for it and its
 * host in the registry; its deployed functions and its deployments' outputs.
 */
export interface ProjectRemovers extends DeployedFunctionRemovers {
  domains(project: Pick<ProjectRecord, 'orgId' | 'projectId'>): Promise<void>;
}

/**
 * The steps of a delete, each idempotent: a delete that failed part-way is run again from the
 * top and finishes the job. Linked storage is unlinked, not deleted; the repository is kept.
 */
const steps: { name: string; run: (p: ProjectRecord, above: ProjectRemovers) => Promise<void> }[] = [
  {
    name: 'storage links',
    run: async (p) => {
      for (const resource of await linkedStorage(p.orgId, p.projectId)) await unlink(resource, p.projectId);
    },
  },
  // Each with the records the platform wrote for it and its host in the registry.
  { name: 'domains', run: (p, above) => above.domains(p) },
  // The production host and the deployments' hosts leave the registry (the routes name the latter).
  {
    name: 'hosts',
    run: async (p) => {
      const routes = await keysWithPrefix(p.orgId, projectPrefixes.route(p.projectId));
      const held = await hostsOfProject(p.projectId);
      await releaseHosts(
        [
          hostOfLabel(productionLabelOf(p)),
          ...routes.map((r) => r.sk.slice(projectPrefixes.route(p.projectId).length)),
          ...held.map((h) => h.host),
        ],
        p.projectId,
      );
    },
  },
  { name: 'crons', run: async (p) => deleteMany(await keysWithPrefix(p.orgId, projectPrefixes.cron(p.projectId))) },
  { name: 'server functions', run: (p, above) => removeServerFunctions(p, above) },
  { name: 'routes', run: async (p) => deleteMany(await keysWithPrefix(p.orgId, projectPrefixes.route(p.projectId))) },
  {
    name: 'deployment records',
    run: async (p) => deleteMany((await projectDeploymentKeys(p.projectId)).filter((d) => d.orgId === p.orgId)),
  },
  { name: 'variables', run: async (p) => deleteMany(await keysWithPrefix(p.orgId, projectPrefixes.env(p.projectId))) },
  { name: 'sign-in clients', run: (p) => forgetProjectClients(p.projectId) },
];

/** Marks the project `deleting`; a concurrent delete that marked it first is joined, not refused. */
async function markDeleting(project: ProjectRecord): Promise<ProjectRecord> {
  const key = projectKeys.project(project.orgId, project.projectId);
  try {
    return await updateVersioned<ProjectRecord>(key, project.version, { status: 'deleting', updatedAt: Date.now() });
  } catch (err) {
    if (!isDomainError(err, 'conflict')) throw err;
    const now = await requireProject(project.orgId, project.projectId, true);
    if (now.status === 'deleting') return now;
    if (now.status === 'transferring') throw conflict(PROJECT_TRANSFERRING);
    throw conflict('The project changed since it was read. Reload and try again.');
  }
}

/**
 * Deletes a project. It is first marked `deleting` (guarded by its version), so no deployment,
 * variable or link can be added while it goes; a deployment in progress then lifts the mark
 * again (409). Every step runs even when one fails; if any failed, the answer is 502 and the
 * project stays `deleting`, visible, for the retry. The project and its slug go last.
 */
export async function deleteProject(orgId: string, projectId: string, above: ProjectRemovers): Promise<void> {
  let project = await requireProject(orgId, projectId, true);
  if (project.status === 'transferring') throw conflict(PROJECT_TRANSFERRING);
  if (project.status === 'active') {
    if (await deploymentInProgress(projectId)) throw conflict(WAIT_FOR_DEPLOYMENT);
    project = await markDeleting(project);
    // A deployment that started between the check and the mark.
    if (project.status === 'deleting' && (await deploymentInProgress(projectId))) {
      await updateVersioned(projectKeys.project(orgId, projectId), project.version, { status: 'active' });
      throw conflict(WAIT_FOR_DEPLOYMENT);
    }
  }

  const failed: string[] = [];
  for (const step of steps) {
    try {
      await step.run(project, above);
    } catch (err) {
      failed.push(step.name);
      log.warn('project delete step failed', { orgId, projectId, step: step.name, error: describeError(err) });
    }
  }
  if (failed.length > 0) throw new DomainError('backend', NOT_ALL_REMOVED);

  try {
    await transact(
      [
        {
          Delete: {
            TableName: TABLE(),
            Key: projectKeys.slug(orgId, project.slug),
            ConditionExpression: 'attribute_not_exists(pk) OR projectId = :id',
            ExpressionAttributeValues: { ':id': projectId },
          },
        },
        {
          Delete: {
            TableName: TABLE(),
            Key: projectKeys.project(orgId, projectId),
            ConditionExpression: '#status = :deleting',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':deleting': 'deleting' },
          },
        },
      ],
      [undefined, () => new Gone()],
    );
  } catch (err) {
    // A delete that ran at the same time finished first: the project is gone, as asked.
    if (!(err instanceof Gone) || (await getProject(orgId, projectId, true))) throw err;
  }
}

class Gone extends Error {}
