import { toDeployment } from '../projects/deployments';
import type { DeploymentRecord } from './schema';

/** A deployment as this group answers it: the same fields as every group (shared/domains/projects/deployments.ts). */
export const toApiDeployment = toDeployment;

/** `{ deploymentId, host, target }`: what create and redeploy answer. */
export const deploymentRef = (r: Pick<DeploymentRecord, 'deploymentId' | 'host' | 'target'>) => ({
  deploymentId: r.deploymentId,
  host: r.host,
  target: r.target,
});
