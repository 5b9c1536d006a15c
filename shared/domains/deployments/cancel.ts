import { describeError, log } from '../../kernel/ground/log';
import { builds } from '../../ports/builds';
import { getDeployment } from '../projects/deployments';
import { transition } from './records';
import type { DeploymentRecord, DeploymentStatus } from './schema';

/** The statuses a cancel stops: the build is queued, running, or going live. */
const CANCELABLE: readonly DeploymentStatus[] = ['queued', 'building', 'deploying'];

/**
 * Cancels a deployment in progress, on both targets: one guarded transition to `canceled` (with
 * `reason`), then its build is stopped through the builds port (CodeBuild's StopBuild; the local
 * builder kills the build's processes). The build's later events (STOPPED, or a SUCCEEDED or
 * FAILED that was already on its way) find it `canceled` and move nothing; one that was going
 * live has what it would have served removed (functions/workers/build-events.ts). A pull request
 * preview's `build` check becomes `cancelled` (shared/domains/deployments/previews.ts).
 * Returns the canceled record, or undefined when the deployment had already finished.
 */
export async function cancelDeployment(
  orgId: string,
  deploymentId: string,
  reason: string,
  from: readonly DeploymentStatus[] = CANCELABLE,
): Promise<DeploymentRecord | undefined> {
  const canceled = await transition(orgId, deploymentId, from, 'canceled', { reason });
  if (canceled?.buildId) await stopBuild(canceled.buildId, deploymentId);
  return canceled;
}

/** Stops a build; a failure is logged (the deployment is canceled either way, its events move nothing). */
async function stopBuild(buildId: string, deploymentId: string): Promise<void> {
  try {
    await builds().cancel(buildId);
  } catch (err) {
    log.error('build not stopped', { deploymentId, buildId, error: describeError(err) });
  }
}

/**
 * A build started while its deployment was being canceled (the cancel came before its build id
 * was written) is stopped here, once the id is known.
 */
export async function stopIfCanceled(orgId: string, deploymentId: string, buildId: string): Promise<void> {
  const now = await getDeployment(orgId, deploymentId, true);
  if (now?.status === 'canceled') await stopBuild(buildId, deploymentId);
}
