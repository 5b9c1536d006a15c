import { artifactsBucket } from '../../kernel/config';
import { conflict } from '../../kernel/ground/errors';
import { assertActive, requireProject } from '../projects/records';
import { launch } from './launch';
import { M } from './messages';
import { requireDeployment } from './read';
import { isInProgress } from './schema';
import { headSource, sourceRetentionDays } from './sources';

/**
 * `POST .../redeploy`: builds the same source again, as a new deployment of the same target
 * (`previousDeploymentId` names this one). The deployment must not be in progress; an upload
 * must still be kept (archives are kept `SOURCE_RETENTION_DAYS`, 30 by default); a git
 * deployment needs its commit and the project a linked repository.
 */
export async function redeploy(orgId: string, deploymentId: string, createdBy: string) {
  const d = await requireDeployment(orgId, deploymentId, true);
  const project = await requireProject(orgId, d.projectId, true);
  if (isInProgress(d.status)) throw conflict(M.inProgress);
  assertActive(project);
  const common = {
    project,
    target: d.target,
    createdBy,
    branch: d.branch,
    commitSha: d.commitSha,
    commitMessage: d.commitMessage,
    commitAuthor: d.commitAuthor,
    meta: d.meta,
    previousDeploymentId: d.deploymentId,
    reason: `Redeploy of ${d.deploymentId}.`,
  };
  if (d.source === 'upload' || (d.source === undefined && d.sourceArchive)) {
    const key = d.sourceArchive;
    const tooOld = (d.createdAt ?? 0) < Date.now() - sourceRetentionDays() * 86_400_000;
    if (!key || tooOld || !(await headSource(key))) throw conflict(M.uploadExpired);
    return launch({
      ...common,
      source: { kind: 'upload', bucket: artifactsBucket(), key },
      sourceSize: d.sourceSize,
      sourceHash: d.sourceHash,
    });
  }
  if (!d.commitSha) throw conflict(M.noCommit);
  if (!project.repoId) throw conflict(M.linkRepo);
  return launch({
    ...common,
    source: {
      kind: 'git',
      repoId: project.repoId,
      commitSha: d.commitSha,
      branch: d.branch ?? project.productionBranch ?? 'main',
    },
  });
}
