import { describeError, log } from '../../../kernel/ground/log';
import { type GitPort, GitTooFar } from '../../../ports/git';
import { retirePreviews } from '../../deployments/preview-builds';
import { getNumbered } from '../issues';
import { finishPull, openPairs, type PullRecord } from '../pulls';
import { repoGit } from '../tags';

/**
 * Pull requests finished outside the platform, settled where the state changes: when a branch
 * moves or goes (the git-pushes worker, for every push, web commit and merge) and right after a
 * merge through the platform (./merge.ts). Never on a read: a GET writes nothing.
 */

/**
 * What has happened to an open pull request outside the platform: its source branch deleted
 * (closed), or its source head reachable from the target head (merged, by a push). Undefined:
 * still open, as it is when the target merely moved on, or when the storage can't tell.
 */
export async function settledState(
  port: GitPort,
  pull: PullRecord,
): Promise<{ state: 'closed' | 'merged'; source: string | null } | undefined> {
  const [source, target] = await port.branchHeads(pull.repoId, [pull.sourceBranch, pull.targetBranch]);
  if (!source) return { state: 'closed', source: null };
  if (!target) return undefined;
  const merged = await port.isAncestor(pull.repoId, source, target).catch((err) => {
    if (err instanceof GitTooFar) return false;
    throw err;
  });
  return merged ? { state: 'merged', source } : undefined;
}

/**
 * Settles the open pull requests from or into `branch`, which just moved or went: a source deleted
 * closes its pull request (by `system`), a source now in its target merges it (at that head).
 * Returns the numbers settled. Each is written on the version read: one finished meanwhile (by a
 * person, or by this event delivered twice) stays as it is.
 */
export async function settleBranch(repoId: string, branch: string): Promise<number[]> {
  const pairs = (await openPairs(repoId)).filter((pair) => pair.source === branch || pair.target === branch);
  if (pairs.length === 0) return [];
  const port = await repoGit();
  const settled: number[] = [];
  for (const pair of pairs) {
    const pull = await getNumbered<PullRecord>(repoId, pair.number, true);
    if (pull?.kind !== 'pull' || pull.state !== 'open') continue;
    try {
      const now = await settledState(port, pull);
      if (!now) continue;
      await finishPull(pull, now.state, {
        ...(now.state === 'closed' ? { closedAt: Date.now(), closedBy: 'system' } : {}),
        ...(now.state === 'merged' && now.source ? { mergeCommitId: now.source, mergedHead: now.source } : {}),
      });
      settled.push(pull.number);
      await retirePreviews(pull.repoId, pull.number, now.state);
    } catch (err) {
      log.warn('a pull request was not settled', { repoId, number: pull.number, error: describeError(err) });
    }
  }
  return settled;
}
