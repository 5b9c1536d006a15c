import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deployment, DeploymentStatus } from '../../shared/domains/deployments/schema';
import { newDeploymentItems } from '../../shared/domains/projects/deployments';
import { db } from '../../shared/kernel/store/client';
import { newId } from '../../shared/kernel/store/ids';
import { transact } from '../../shared/kernel/store/ops';
import { TABLE } from '../../shared/kernel/store/table';
import type { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';

/**
 * Records of the groups built later (repositories, domains, storage, crons, functions, routes),
 * written straight into the table in the layout of shared/domains/projects/records.ts, and deployments
 * written the way the deployments group will (newDeploymentItems).
 */
let clock = Date.now();

export async function createProject(
  p: TestPlatform,
  body: Record<string, unknown> = {},
  orgId = p.org.orgId,
  token?: string,
) {
  const slug = `p-${newId('').slice(-12)}`;
  const res = await p.post(`/v1/orgs/${orgId}/projects`, { name: `Project ${slug}`, slug, ...body }, { token });
  if (res.status !== 201) throw new Error(`create project: ${res.status} ${res.text}`);
  return res.body.project as { projectId: string; slug: string; name: string; orgId: string; version: number };
}

export async function addRepo(orgId: string, name = 'app'): Promise<string> {
  const resourceId = newId('res_');
  await putRecord(orgId, `RES#repository#${resourceId}`, {
    resourceId,
    type: 'repository',
    name,
    orgId,
    status: 'active',
    version: 1,
  });
  return resourceId;
}

export async function addStorage(
  orgId: string,
  type: 'database' | 'bucket',
  projectId: string | undefined,
  status: 'creating' | 'active' | 'deleting' | 'error' = 'active',
): Promise<string> {
  const resourceId = newId('res_');
  await putRecord(orgId, `RES#${type}#${resourceId}`, {
    resourceId,
    type,
    name: `${type}-${resourceId.slice(-6)}`,
    orgId,
    projectId,
    status,
    version: 1,
  });
  return resourceId;
}

export async function addDomain(
  orgId: string,
  projectId: string,
  hostname: string,
  fields: Record<string, unknown> = {},
) {
  await putRecord(orgId, `DOM#${hostname}`, { hostname, orgId, projectId, status: 'active', ...fields });
}

export async function addDeployment(
  orgId: string,
  projectId: string,
  fields: Partial<Deployment> & { status?: DeploymentStatus } = {},
): Promise<Deployment> {
  clock += 1000;
  const deployment: Deployment = {
    deploymentId: newId('dpl_', clock),
    orgId,
    projectId,
    location: 'fra',
    target: 'preview',
    status: 'ready',
    createdAt: clock,
    host: `d-${clock}.localhost`,
    ...fields,
  };
  await transact(newDeploymentItems(deployment));
  return deployment;
}

/** Makes a deployment the project's production deployment, as promotion will. */
export async function setProduction(orgId: string, projectId: string, deploymentId: string) {
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: { pk: `ORG#${orgId}`, sk: `PRJ#${projectId}` },
      UpdateExpression: 'SET productionDeploymentId = :d',
      ExpressionAttributeValues: { ':d': deploymentId },
    }),
  );
}

export async function readRecord(orgId: string, sk: string): Promise<Record<string, any> | undefined> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE(), Key: { pk: `ORG#${orgId}`, sk }, ConsistentRead: true }),
  );
  return out.Item;
}

/** Counts DynamoDB calls made in this process while `fn` runs (the handlers run in-process). */
export async function countDynamoCalls(fn: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const name = `count-${Math.random()}`;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      counts[command] = (counts[command] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await fn();
  } finally {
    db.middlewareStack.remove(name);
  }
  return counts;
}
