import type { Deployment, DeploymentRecord } from '../../shared/schemas/deployment';

/**
 * A deployment as this group answers it: exactly the fields of spec part A "Deployment" that are
 * set (internal bookkeeping stays in the table).
 */
export function toApiDeployment(r: DeploymentRecord): Deployment {
  return {
    deploymentId: r.deploymentId,
    orgId: r.orgId,
    projectId: r.projectId,
    location: r.location,
    target: r.target,
    status: r.status,
    error: r.error,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    region: r.region,
    createdBy: r.createdBy,
    branch: r.branch,
    commitSha: r.commitSha,
    commitMessage: r.commitMessage,
    commitAuthor: r.commitAuthor,
    host: r.host,
    buildId: r.buildId,
    buildDurationMs: r.buildDurationMs,
    readyAt: r.readyAt,
    crons: r.crons,
    envHash: r.envHash,
    previousDeploymentId: r.previousDeploymentId,
    reason: r.reason,
    source: r.source,
    sourceArchive: r.sourceArchive,
    buildMetrics: r.buildMetrics,
  };
}

/** `{ deploymentId, host, target }`: what create and redeploy answer. */
export const deploymentRef = (r: Pick<DeploymentRecord, 'deploymentId' | 'host' | 'target'>) => ({
  deploymentId: r.deploymentId,
  host: r.host,
  target: r.target,
});
