import { conflict } from '../../kernel/ground/errors';
import { cancelDeployment } from './cancel';
import { M } from './messages';
import { requireDeployment } from './read';
import type { DeploymentRecord } from './schema';
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
