import { launch } from '../../shared/domains/deployments/launch';
import { previewPull, previewsOff } from '../../shared/domains/deployments/preview-builds';
import { existingForCommit } from '../../shared/domains/deployments/records';
import { getProject } from '../../shared/domains/projects/records';
import { getNumbered } from '../../shared/domains/repos/issues';
import { openPairs, type PullRecord } from '../../shared/domains/repos/pulls';
import { settleBranch } from '../../shared/domains/repos/pulls/settle';
import { linkedProjects, repoById } from '../../shared/domains/repos/records';
import { indexTagMoves } from '../../shared/domains/repos/tags';
import { describeError, log } from '../../shared/kernel/ground/log';
import { git } from '../../shared/ports/git';
import { type RefChange, repoIdOf } from '../../shared/ports/git/events';

/** A commit message that asks for no deployment (GitHub Actions' and Vercel's convention). */
const SKIP = /\[(skip ci|ci skip|skip deploy)\]/i;

/**
 * The git-pushes worker: a branch that moved (a push, a web commit, a merge: CodeCommit's
 * "Repository State Change" on AWS, the local git engine's same event here) deploys its new
 * commit for every project linked to the repository: the project's production branch (`main`
 * unless set) to production, any other branch to a preview: with an open pull request from it,
 * the pull request's preview (shared/domains/deployments/preview-builds.ts: its own host, skipped when nothing the
 * project builds changed), else a deployment of the branch; none when the project turned previews
 * off. `[skip ci]` in the message skips it;
 * deleted branches and tags deploy nothing; a tag's event updates the tags index
 * (shared/domains/repos/tags.ts). Events come at least once: a commit already building
 * or ready for that target is not deployed twice.
 * First, before any of that, a branch that moved or went settles the open pull requests from or
 * into it (shared/domains/repos/pulls/settle.ts): a deleted source closes one, a source now in its
 * target merges it. This is where they settle: reading pull requests writes nothing.
 */
export async function handler(event: RefChange): Promise<void> {
  const d = event.detail;
  const repoIdOfEvent = repoIdOf(d.repositoryName);
  if (d.referenceType === 'tag' && d.referenceName && repoIdOfEvent) {
    // The tags index follows the storage (CodeCommit's API lists no tags).
    const deleted = d.event === 'referenceDeleted';
    if (!deleted && !d.commitId) return;
    await indexTagMoves(repoIdOfEvent, [
      { name: d.referenceName, next: deleted ? null : (d.commitId as string), commit: d.commitId },
    ]);
    return;
  }
  if (d.referenceType !== 'branch' || !d.referenceName) return;
  if (repoIdOfEvent) await settleBranch(repoIdOfEvent, d.referenceName);
  if (!d.commitId) return;
  if (d.event !== 'referenceCreated' && d.event !== 'referenceUpdated') return;
  const repo = repoIdOfEvent ? await repoById(repoIdOfEvent) : undefined;
  if (!repo || repo.status === 'deleting') return;
  // A repository no project is linked to deploys nothing: its commit and pull requests go unread.
  const projects = await linkedProjects(repo.orgId, repo.resourceId);
  if (projects.length === 0) return;
  const commit = await git().commitInfo(repo.resourceId, d.commitId);
  if (!commit) return;
  if (SKIP.test(commit.message)) {
    log.info('push not deployed: [skip ci]', { repoId: repo.resourceId, commit: commit.id });
    return;
  }
  const branch = d.referenceName;
  const pulls = await openPullsFrom(repo.resourceId, branch);
  for (const { projectId } of projects) {
    const project = await getProject(repo.orgId, projectId, true);
    if (!project || project.repoId !== repo.resourceId) continue;
    if (project.status === 'deleting' || project.status === 'transferring') continue;
    const target = branch === (project.productionBranch ?? 'main') ? 'production' : 'preview';
    if (target === 'preview') {
      if (previewsOff(project, { branch, commit: commit.id })) continue;
      if (pulls.length > 0) {
        for (const pull of pulls) await previewPull(project, pull, commit, d.oldCommitId ?? null);
        continue;
      }
    }
    if (await existingForCommit(projectId, commit.id, target)) continue;
    try {
      await launch({
        project,
        target,
        createdBy: `git:${repo.resourceId}`,
        branch,
        commitSha: commit.id,
        commitMessage: commit.message.split('\n')[0],
        commitAuthor: commit.author.name,
        source: { kind: 'git', repoId: repo.resourceId, commitSha: commit.id, branch },
      });
    } catch (err) {
      // One project's failure (a 502 starting its build) does not keep the others from deploying.
      log.error('deploying a push failed', { projectId, commit: commit.id, error: describeError(err) });
    }
  }
}

/** The open pull requests whose source is `branch`. */
async function openPullsFrom(repoId: string, branch: string): Promise<PullRecord[]> {
  const pairs = (await openPairs(repoId)).filter((pair) => pair.source === branch);
  const pulls = await Promise.all(pairs.map((pair) => getNumbered<PullRecord>(repoId, pair.number)));
  return pulls.filter((pull): pull is PullRecord => pull?.kind === 'pull' && pull.state === 'open');
}
