import { conflict, DomainError, notFound } from '../../kernel/ground/errors';
import { log } from '../../kernel/ground/log';
import { getItem } from '../../kernel/store/table';
import { runtime } from '../../ports/runtime';
import { productionHostOf } from '../projects/hosts';
import { getProject } from '../projects/records';
import { ensureProductionRoute } from './finish';
import { M } from './messages';
import { requireDeployment } from './read';
import { type FunctionRecord, functionKey, setProduction } from './records';
import { toApiDeployment } from './view';

/**
 * `POST .../promote`: the deployment becomes the project's production deployment without a
 * rebuild: one guarded write of the project's production pointer (the production host's route
 * follows it). It must be ready, not already production, not expired, and its server function
 * (if it has one) must still exist. It keeps the variables it was built with.
 */
export async function promote(orgId: string, deploymentId: string) {
  const d = await requireDeployment(orgId, deploymentId, true);
  const project = await getProject(orgId, d.projectId, true);
  if (!project) throw notFound(M.projectNotFound);
  if (d.status === 'expired') throw conflict(M.expired);
  if (d.status !== 'ready') throw conflict(M.notReady);
  if (project.productionDeploymentId === d.deploymentId) throw conflict(M.alreadyProduction);
  const fn = await getItem<FunctionRecord>(functionKey(orgId, d.projectId, d.deploymentId), true);
  if (fn && (fn.removedAt || !(await (await runtime()).exists(d.deploymentId)))) throw conflict(M.functionRemoved);

  let switched = false;
  try {
    switched = await setProduction(orgId, d.projectId, d.deploymentId, {
      expectedCurrent: project.productionDeploymentId ?? null,
    });
    if (switched) await ensureProductionRoute(orgId, d.projectId);
  } catch (err) {
    log.error('promote failed', { deploymentId, error: (err as Error).message });
  }
  // The pointer moved under us (another promote, a production build finishing): try again.
  if (!switched) throw new DomainError('backend', M.routingFailed);
  const host = productionHostOf({ ...project, productionDeploymentId: d.deploymentId });
  return { deployment: toApiDeployment(d), productionHost: host };
}
