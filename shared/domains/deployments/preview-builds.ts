import { describeError, log } from '../../kernel/ground/log';
import { type GitCommit, git } from '../../ports/git';
import { getProject } from '../projects/records';
import { type ProjectRecord, previewsOf } from '../projects/schema';
import type { PullRecord } from '../repos/pulls';
import { linkedProjects } from '../repos/records';
import { cancelDeployment } from './cancel';
import { launch } from './launch';
import { previewHosts, previewsOfPull, retirePreview } from './previews';
import { inFlightForPull, latestForCommit } from './records';
import type { DeploymentRecord } from './schema';

/**
 * Starting pull request previews (shared/domains/deployments/previews.ts): the pull request's head is built as a
 * `preview` deployment of each linked project that has previews on, when the pull request opens
 * or reopens (the pulls routes) and when its source branch moves (the git-pushes worker). A head
 * whose changes since `base` (the push's previous head, else the merge base) touch nothing the
 * project builds (nothing under its `rootDirectory`, or only paths its `previews.ignore` globs
 * match) is written as a `skipped` deployment that says why and keeps the previous preview (or
 * production) serving; with nothing to point at, it is built.
 */

type Pull = Pick<PullRecord, 'number' | 'repoId' | 'orgId' | 'sourceBranch' | 'targetBranch' | 'authorId'>;

/** A project whose previews are off builds no preview (and says so in the log). */
export function previewsOff(project: ProjectRecord, detail: Record<string, unknown>): boolean {
  if (previewsOf(project).enabled) return false;
  log.info('preview not deployed: previews are off for the project', { projectId: project.projectId, ...detail });
  return true;
}

/** Previews of the pull request's head for every linked project; one project's failure is logged, never thrown. */
export async function previewPullForAll(pull: Pull, head: string): Promise<void> {
  const port = git();
  const commit = await port.commitInfo(pull.repoId, head);
  if (!commit) return;
  for (const { projectId } of await linkedProjects(pull.orgId, pull.repoId)) {
    const project = await getProject(pull.orgId, projectId, true);
    if (!project || project.repoId !== pull.repoId || project.status !== 'active') continue;
    if (previewsOff(project, { number: pull.number })) continue;
    await previewPull(project, pull, commit, null);
  }
}

/**
 * The preview of `commit` for one pull request and project (`base`: the commit the push moved
 * from; null: the pull request's merge base). A repeat of a build already made for the same head
 * (events come at least once) starts nothing.
 */
export async function previewPull(
  project: ProjectRecord,
  pull: Pull,
  commit: GitCommit,
  base: string | null,
): Promise<DeploymentRecord | undefined> {
  try {
    const current = (await previewsOfPull(pull.repoId, pull.number)).find((p) => p.projectId === project.projectId);
    const repeat = current && !current.retired && current.commit === commit.id;
    if (repeat && current.state !== 'error' && current.state !== 'cancelled') return undefined;
    const from = base ?? (await mergeBaseWithTarget(pull, commit.id));
    const why = from ? await nothingToBuild(pull.repoId, from, commit.id, project) : undefined;
    const previous = current?.deploymentId ?? project.productionDeploymentId;
    return await launch({
      project,
      target: 'preview',
      createdBy: `git:${pull.repoId}`,
      branch: pull.sourceBranch,
      commitSha: commit.id,
      commitMessage: commit.message.split('\n')[0],
      commitAuthor: commit.author.name,
      source: { kind: 'git', repoId: pull.repoId, commitSha: commit.id, branch: pull.sourceBranch },
      pullRequest: {
        repoId: pull.repoId,
        number: pull.number,
        authorId: pull.authorId,
        hosts: previewHosts(project, pull.number, current?.host),
      },
      ...(why && previous ? { skip: { previousDeploymentId: previous, reason: why } } : {}),
    });
  } catch (err) {
    log.error('preview not started', {
      projectId: project.projectId,
      number: pull.number,
      commit: commit.id,
      error: describeError(err),
    });
    return undefined;
  }
}

async function mergeBaseWithTarget(pull: Pull, head: string): Promise<string | null> {
  const port = git();
  const target = await port.resolve(pull.repoId, pull.targetBranch);
  if (target?.kind !== 'branch') return null;
  return port.mergeBase(pull.repoId, target.commit, head).catch(() => null);
}

/** At most this many changed files are looked at; more, and the preview is built. */
const MAX_FILES = 1000;

/**
 * Why nothing the project builds changed from `base` to `head` (the reason a skipped deployment
 * gives), or undefined when something did (or the change is too large to tell).
 */
export async function nothingToBuild(
  repoId: string,
  base: string,
  head: string,
  project: Pick<ProjectRecord, 'rootDirectory' | 'previews'>,
): Promise<string | undefined> {
  if (base === head) return undefined;
  const diff = await git().diff(repoId, base, head, { maxFiles: MAX_FILES, maxLines: 1 });
  if (diff.truncated || diff.files.length === 0) return undefined;
  const root = rootOf(project.rootDirectory);
  const ignore = previewsOf(project).ignore.map(globPattern);
  const builds = (path: string) =>
    (root === '' || path === root || path.startsWith(`${root}/`)) && !ignore.some((re) => re.test(path));
  if (diff.files.some((f) => builds(f.path))) return undefined;
  const where = root === '' ? 'the repository' : `${root}/`;
  const ignored = ignore.length > 0 ? ' outside the ignored paths' : '';
  return `No changes in ${where}${ignored} since ${base.slice(0, 12)}: nothing to build.`;
}

const rootOf = (dir: string | undefined) =>
  (dir ?? '.')
    .replace(/^\.\/?/, '')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '');

/**
 * A glob of the project's `previews.ignore` as a pattern over whole repository paths: `*` and
 * `?` stay within a folder, `**` crosses folders (`docs/**`, `**\/*.md`).
 */
export function globPattern(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Closing or merging a pull request (`how`) retires its previews: for each linked project, its
 * builds still queued or running are canceled (their build stopped, their `build` check
 * `cancelled`), then the preview is marked retired and its host released
 * (shared/domains/deployments/previews.ts). The deployments stay listed with their own hosts.
 */
export async function retirePreviews(repoId: string, number: number, how: 'closed' | 'merged'): Promise<void> {
  for (const preview of await previewsOfPull(repoId, number)) {
    if (preview.retired) continue;
    for (const d of await inFlightForPull(preview.projectId, repoId, number)) {
      await cancelDeployment(preview.orgId, d.deploymentId, `Pull request #${number} was ${how}.`, [
        'queued',
        'building',
      ]);
    }
    await retirePreview(preview);
  }
}

/** The production deployment of a merged pull request: the newest of its merge commit, of any linked project. */
export async function mergedDeployment(
  orgId: string,
  repoId: string,
  mergeCommitId: string,
): Promise<DeploymentRecord | undefined> {
  for (const { projectId } of await linkedProjects(orgId, repoId)) {
    const found = await latestForCommit(projectId, mergeCommitId, 'production');
    if (found) return found;
  }
  return undefined;
}
