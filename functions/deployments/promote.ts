import { ensureProductionRoute } from '../../shared/domains/deployments/finish';
import { type FunctionRecord, functionKey, setProduction } from '../../shared/domains/deployments/records';
import { productionHostOf } from '../../shared/domains/projects/hosts';
import { getProject } from '../../shared/domains/projects/records';
import { conflict, notFound } from '../../shared/kernel/ground/errors';
import { log } from '../../shared/kernel/ground/log';
import { HttpError } from '../../shared/kernel/http/http-error';
import { getItem } from '../../shared/kernel/store/table';
import { runtime } from '../../shared/ports/runtime';
import { M } from './messages';
import { requireDeployment } from './read';
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
  if (!switched) throw new HttpError(502, M.routingFailed);
  const host = productionHostOf({ ...project, productionDeploymentId: d.deploymentId });
  return { deployment: toApiDeployment(d), productionHost: host };
}
