import { conflict, DomainError, notFound } from '../../kernel/ground/errors';
import { log } from '../../kernel/ground/log';
import { getItem } from '../../kernel/store/table';
import { runtime } from '../../ports/runtime';
import { envHash } from '../projects/env';
import { productionHostOf } from '../projects/hosts';
import { getProject } from '../projects/records';
import { deploymentEnv } from './env';
import { ensureProductionRoute } from './finish';
import { M } from './messages';
import { requireDeployment } from './read';
import { type FunctionRecord, functionKey, setProduction } from './records';
import { toApiDeployment } from './view';

/** The 409 of a preview whose variables are not production's (beyond the spec: the `force` field). */
export const PREVIEW_VARIABLES =
  "This preview was built with variables that differ from production's. Deploy to production instead, or promote it with force.";

/**
 * `POST .../promote`: the deployment becomes the project's production deployment without a
 * rebuild: one guarded write of the project's production pointer (the production host's route
 * follows it). It must be ready, not already production, not expired, and its server function
 * (if it has one) must still exist. It keeps the variables it was built with: so a preview built
 * with variables other than production's has them in production, which is refused unless
 * `force` (compared by `envHash`, production's read now; a deployment without one is let through).
 */
export async function promote(orgId: string, deploymentId: string, options: { force?: boolean } = {}) {
  const d = await requireDeployment(orgId, deploymentId, true);
  const project = await getProject(orgId, d.projectId, true);
  if (!project) throw notFound(M.projectNotFound);
  if (d.status === 'expired') throw conflict(M.expired);
  if (d.status !== 'ready') throw conflict(M.notReady);
  if (project.productionDeploymentId === d.deploymentId) throw conflict(M.alreadyProduction);
  const fn = await getItem<FunctionRecord>(functionKey(orgId, d.projectId, d.deploymentId), true);
  if (fn && (fn.removedAt || !(await runtime().exists(d.deploymentId)))) throw conflict(M.functionRemoved);
  if (d.target === 'preview' && d.envHash && !options.force) {
    const production = await deploymentEnv(orgId, d.projectId, 'production');
    if (envHash(production.vars) !== d.envHash) throw conflict(PREVIEW_VARIABLES);
  }

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
