import { artifactsBucket } from '../../kernel/config';
import { conflict, invalid, notFound, tooLarge } from '../../kernel/ground/errors';
import { git } from '../../ports/git';
import { envHash } from '../projects/env';
import { assertActive, requireProject } from '../projects/records';
import { getResource } from '../resources/records';
import { deploymentEnv } from './env';
import { launch } from './launch';
import { M } from './messages';
import { existingForCommit } from './records';
import type { DeploymentMeta, DeploymentRecord, DeploymentTarget } from './schema';
import { headSource, MAX_ARCHIVE_BYTES, sourceKey } from './sources';
import { unchangedSince } from './unchanged';

interface CreateBody {
  source: 'git' | 'upload';
  branch?: string;
  commitSha?: string;
  uploadId?: string;
  target?: DeploymentTarget;
  force: boolean;
  manifest?: Record<string, unknown>;
  meta?: DeploymentMeta;
}

type CreateResult =
  | { existing: true; deployment: DeploymentRecord }
  | { existing: false; deployment: DeploymentRecord };

/**
 * `POST .../projects/:projectId/deployments`.
 * - `git`: needs `branch` and `commitSha` (400) and a linked repository (409); the target is
 *   production for the production branch (default `main`), else preview. Unless `force`, a
 *   deployment of the same commit and target that is building or ready is answered instead
 *   (200, `existing: true`).
 * - `upload`: needs `uploadId` and `target` (400); the archive must have been uploaded with the
 *   link (409) and be at most 250 MB (413). Unless `force`, deploying an archive with the same
 *   content as the one the target's newest ready deployment was built from, with the same
 *   variables, builds nothing: the new deployment is `skipped` and points at that one
 *   (`previousDeploymentId`). `meta` (where the source came from) is kept on the deployment.
 */
export async function createDeployment(orgId: string, projectId: string, createdBy: string, body: CreateBody) {
  const project = await requireProject(orgId, projectId);
  assertActive(project);

  if (body.source === 'git') {
    if (!body.branch || !body.commitSha) throw invalid(M.gitNeeds);
    if (!project.repoId) throw conflict(M.linkRepo);
    const target = body.target ?? (body.branch === (project.productionBranch ?? 'main') ? 'production' : 'preview');
    if (!body.force) {
      const existing = await existingForCommit(projectId, body.commitSha, target);
      if (existing) return { existing: true, deployment: existing } satisfies CreateResult;
    }
    const repo = await getResource(orgId, 'repository', project.repoId);
    if (!repo || repo.status === 'deleting') throw notFound(M.notFound);
    // The commit as the repository has it: its full id, message and author.
    const commit = await git().commitInfo(project.repoId, body.commitSha);
    if (!commit) throw notFound(M.commitNotFound);
    const deployment = await launch({
      project,
      target,
      createdBy,
      branch: body.branch,
      commitSha: commit.id,
      commitMessage: commit.message.split('\n')[0],
      commitAuthor: commit.author.name,
      meta: body.meta,
      source: { kind: 'git', repoId: project.repoId, commitSha: commit.id, branch: body.branch },
    });
    return { existing: false, deployment } satisfies CreateResult;
  }

  if (!body.uploadId || !body.target) throw invalid(M.uploadNeeds);
  const key = sourceKey(projectId, body.uploadId);
  const head = await headSource(key);
  if (!head) throw conflict(M.uploadMissing);
  if (head.size > MAX_ARCHIVE_BYTES) throw tooLarge(M.tooLarge);
  const branch = body.branch ?? body.meta?.branch;
  const commitSha = body.commitSha ?? (body.meta?.commit?.length === 40 ? body.meta.commit : undefined);
  const env = await deploymentEnv(orgId, projectId, body.target);
  const common = {
    project,
    target: body.target,
    createdBy,
    branch,
    commitSha,
    meta: body.meta,
    env,
    sourceSize: head.size,
    source: { kind: 'upload' as const, bucket: artifactsBucket(), key },
  };
  // Content, not key: the command line uploads an unchanged folder again under a new upload id.
  let sourceHash: string | undefined;
  if (!body.force) {
    const same = await unchangedSince(orgId, projectId, body.target, {
      key,
      size: head.size,
      envHash: envHash(env.vars),
    });
    sourceHash = same.sourceHash;
    if (same.current) {
      const deployment = await launch({
        ...common,
        sourceHash,
        skip: {
          previousDeploymentId: same.current.deploymentId,
          reason: `Nothing changed since ${same.current.deploymentId}: same archive, same variables.`,
        },
      });
      return { existing: false, deployment } satisfies CreateResult;
    }
  }
  const deployment = await launch({ ...common, sourceHash });
  return { existing: false, deployment } satisfies CreateResult;
}
