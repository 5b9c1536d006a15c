import { db } from '../../kernel/store/client';
import { PutCommand } from '../../kernel/store/commands';
import { TABLE } from '../../kernel/store/table';
import type { FunctionInfo } from '../../ports/runtime';
import { productionHostOf } from '../projects/hosts';
import { getProject } from '../projects/records';
import { type FunctionRecord, functionKey, routeItem, setProduction, transition } from './records';
import type { BuildMetrics, DeploymentRecord, DeploymentTarget } from './schema';

interface FinishedBuild {
  orgId: string;
  projectId: string;
  deploymentId: string;
  target: DeploymentTarget;
  /** When the build left the queue (`buildDurationMs` is measured from there). */
  startedAt: number;
  buildMetrics: BuildMetrics;
  /** The server function, when the deployment has one. */
  fn?: FunctionInfo;
}

/**
 * The last step of every successful build, on both targets: the function record, `deploying →
 * ready` (with `readyAt` and `buildDurationMs`), and for a production deployment the project's
 * production pointer (only forward: an older build finishing late never replaces a newer one)
 * and the production host's route. Returns undefined when the deployment was canceled meanwhile.
 */
export async function completeDeployment(build: FinishedBuild): Promise<DeploymentRecord | undefined> {
  const now = Date.now();
  if (build.fn) {
    const record: FunctionRecord = {
      ...functionKey(build.orgId, build.projectId, build.deploymentId),
      orgId: build.orgId,
      projectId: build.projectId,
      deploymentId: build.deploymentId,
      name: build.fn.name,
      region: build.fn.region,
      createdAt: now,
    };
    await db.send(new PutCommand({ TableName: TABLE(), Item: record }));
  }
  const ready = await transition(build.orgId, build.deploymentId, ['deploying'], 'ready', {
    readyAt: now,
    buildDurationMs: now - build.startedAt,
    buildMetrics: build.buildMetrics,
  });
  if (!ready) return undefined;
  if (build.target === 'production') {
    await setProduction(build.orgId, build.projectId, build.deploymentId, { onlyIfNewer: true });
    await ensureProductionRoute(build.orgId, build.projectId);
  }
  return ready;
}

/** Ends a build in `error` with a message a person can act on. */
export function failDeployment(
  orgId: string,
  deploymentId: string,
  message: string,
  fields: { buildMetrics?: BuildMetrics; buildDurationMs?: number } = {},
): Promise<DeploymentRecord | undefined> {
  return transition(orgId, deploymentId, ['queued', 'building', 'deploying'], 'error', { error: message, ...fields });
}

/**
 * The route of the project's production host (`<slug>.<apps domain>`), written once: the edge
 * reads the project's production pointer behind it, so promote needs no route change.
 */
export async function ensureProductionRoute(orgId: string, projectId: string): Promise<void> {
  const project = await getProject(orgId, projectId, true);
  const host = project && productionHostOf(project);
  if (!host) return;
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: routeItem(orgId, projectId, host, { production: true }),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}
