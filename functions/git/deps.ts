import { gitAccess } from '../../shared/domains/repos/credentials';
import { protectedBranchOf } from '../../shared/domains/repos/protection';
import { findRepo } from '../../shared/domains/repos/records';
import { indexTagMoves, repoGit } from '../../shared/domains/repos/tags';
import { log } from '../../shared/kernel/ground/log';
import { findOrgBySlug } from '../../shared/kernel/identity/orgs';
import { ZERO_ID } from './receive-pack';
import type { GitEndpointDeps } from './serve';

/**
 * The git endpoint's platform side, the same on both targets: passwords checked by
 * shared/domains/repos/credentials.ts, repositories found by name (a deleting one is gone), their push
 * rules from the record, the exchange passed to the git port's transport; tags a push moved go
 * into the tags index (shared/domains/repos/tags.ts).
 */
export const gitEndpointDeps: GitEndpointDeps = {
  // Ids start with org_, slugs can't (lowercase letters, digits and hyphens).
  orgIdOf: async (ref) => (ref.startsWith('org_') ? ref : ((await findOrgBySlug(ref))?.orgId ?? ref)),
  authenticate: (orgId, password) => gitAccess(orgId, password),
  async findRepo(orgId, name) {
    const r = await findRepo(orgId, name);
    if (!r || r.status === 'deleting') return undefined;
    return {
      repoId: r.resourceId,
      rules: {
        defaultBranch: r.defaultBranch,
        protectedBranch: protectedBranchOf(r),
      },
    };
  },
  transport: async (repoId, request) => (await repoGit()).http(repoId, request),
  async refs(repoId) {
    const refs = await (await repoGit()).refs(repoId);
    return new Map([
      ...refs.branches.map((b) => [`refs/heads/${b.name}`, b.commit] as const),
      ...refs.tags.map((t) => [`refs/tags/${t.name}`, t.object] as const),
    ]);
  },
  async pushed(orgId, repo, moved, caller) {
    log.info('git push', { orgId, repoId: repo.repoId, user: caller.user, refs: moved.map((m) => m.ref) });
    const tags = moved.filter((m) => m.ref.startsWith('refs/tags/'));
    await indexTagMoves(
      repo.repoId,
      tags.map((m) => ({ name: m.ref.slice('refs/tags/'.length), next: m.next === ZERO_ID ? null : m.next })),
    );
  },
};
