import type { RepoRecord } from './records';

/** Branch protection: required check names, at most this many. */
export const MAX_REQUIRED_CHECKS = 20;

/**
 * The protected branch: the default branch while pull requests into it need approvals or checks
 * (it then changes only through them); null otherwise.
 */
export const protectedBranchOf = (r: RepoRecord): string | null =>
  (r.requiredApprovals ?? 0) > 0 || (r.requiredChecks?.length ?? 0) > 0 ? r.defaultBranch : null;

/** Branch protection as GET and PUT …/protection answer it. */
export const protectionOf = (r: RepoRecord) => ({
  requiredApprovals: r.requiredApprovals ?? 0,
  requiredChecks: r.requiredChecks ?? [],
  branch: protectedBranchOf(r),
});

/** The checks a merge of a pull request into `target` needs to be `success` on its head. */
export const requiredChecksFor = (r: RepoRecord, target: string): string[] =>
  target === protectedBranchOf(r) ? (r.requiredChecks ?? []) : [];
