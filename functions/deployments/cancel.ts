import { cancelDeployment } from '../../shared/domains/deployments/cancel';
import type { DeploymentRecord } from '../../shared/domains/deployments/schema';
import { conflict } from '../../shared/kernel/ground/errors';
import { M } from './messages';
import { requireDeployment } from './read';
import { toApiDeployment } from './view';

const finished = (d: Pick<DeploymentRecord, 'status'>) =>
  conflict(d.status === 'canceled' ? M.alreadyCanceled : M.alreadyFinished);

/**
 * `POST .../cancel`: a deployment still `queued`, `building` or `deploying` becomes `canceled`
 * and its build is stopped (shared/domains/deployments/cancel.ts); one that has finished (`ready`,
 * `error`, `expired`, `skipped`) or was canceled already answers 409.
 */
export async function cancel(orgId: string, deploymentId: string, by: string) {
  const d = await requireDeployment(orgId, deploymentId, true);
  const canceled = await cancelDeployment(orgId, d.deploymentId, `Canceled by ${by}.`);
  // It finished (or was canceled) before, or while, this request moved it.
  if (!canceled) throw finished(await requireDeployment(orgId, deploymentId, true));
  return { deployment: toApiDeployment(canceled) };
}
