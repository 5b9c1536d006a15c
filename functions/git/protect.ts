import type { RefUpdate, Refusal } from './receive-pack';
import { ZERO_ID } from './receive-pack';

/** What a push may not do to a repository: its rules, from its record. */
export interface PushRules {
  defaultBranch: string | null;
  /** The branch that takes changes only through pull requests (the default one, when protected). */
  protectedBranch: string | null;
}

export const protectedMessage = (branch: string) =>
  `${branch} is protected. Commit to a new branch and open a pull request.`;
export const DEFAULT_BRANCH_DELETE = "The default branch can't be deleted.";
const ONLY_BRANCHES_AND_TAGS = 'Only branches and tags can be pushed.';

/**
 * The commands of a push that are refused, each with git's reason: moving (or creating, or
 * deleting) the protected branch, deleting the default branch, and refs that are neither
 * branches nor tags (`refs/pull/…` and the like belong to the platform).
 */
export function refusals(updates: RefUpdate[], rules: PushRules): Refusal[] {
  const out: Refusal[] = [];
  for (const u of updates) {
    const branch = u.ref.startsWith('refs/heads/') ? u.ref.slice('refs/heads/'.length) : undefined;
    if (!branch && !u.ref.startsWith('refs/tags/')) out.push({ ref: u.ref, reason: ONLY_BRANCHES_AND_TAGS });
    else if (branch && branch === rules.protectedBranch) out.push({ ref: u.ref, reason: protectedMessage(branch) });
    else if (branch && branch === rules.defaultBranch && u.next === ZERO_ID)
      out.push({ ref: u.ref, reason: DEFAULT_BRANCH_DELETE });
  }
  return out;
}
