import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll } from '../../kernel/store/ops';
import { keys, TABLE } from '../../kernel/store/table';
import { artifacts } from '../../ports/artifacts';
import { runtime } from '../../ports/runtime';
import { projectDeploymentKeys } from '../projects/deployments';
import { projectPrefixes } from '../projects/records';
import type { FunctionRecord } from './records';

/** The project's server-function records (`FN#<projectId>#…`), strongly consistent. */
function projectFunctions(orgId: string, projectId: string): Promise<FunctionRecord[]> {
  return queryAll<FunctionRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': projectPrefixes.serverFunction(projectId) },
    ConsistentRead: true,
  });
}

/**
 * Stops and deletes one deployment's server function, and marks its record `removedAt` (the
 * deployment then answers `function: null`, and promote says to redeploy). Idempotent.
 */
export async function removeFunction(record: Pick<FunctionRecord, 'pk' | 'sk' | 'deploymentId'>): Promise<void> {
  await runtime().remove(record.deploymentId);
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: record.pk, sk: record.sk },
        UpdateExpression: 'SET removedAt = if_not_exists(removedAt, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': Date.now() },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/**
 * Stops and removes every server function of a project (Lambda functions, or local processes
 * and their folders). Project delete runs it before the records go; a transfer runs it before
 * the records move: functions run in their organization, with its variables, so they don't move
 * (the deployments do, and are redeployed there).
 */
export async function removeProjectFunctions(project: { orgId: string; projectId: string }): Promise<void> {
  for (const fn of await projectFunctions(project.orgId, project.projectId)) await removeFunction(fn);
}

/**
 * Deletes what the project's builds left: static output and build logs (local folders, or the
 * `artifacts/<deploymentId>/` objects of the artifacts bucket) and the dependency cache. Project
 * delete only: on a transfer the deployments keep their output.
 */
export async function removeProjectOutputs(project: { orgId: string; projectId: string }): Promise<void> {
  const ids = (await projectDeploymentKeys(project.projectId))
    .filter((d) => d.orgId === undefined || d.orgId === project.orgId)
    .map((d) => d.sk.slice(PREFIXES.deployments.deployment.length));
  const port = artifacts();
  for (const id of ids) await port.removeDeployment(id);
  await port.removeCache(project.projectId);
}
