import { readEnv } from '../../kernel/ground/env';
/**
 * CodeCommit's "Repository State Change" event, the parts the platform reads. CodeCommit sends it
 * (EventBridge) whenever a branch or tag moves: pushes, web commits, merges. The local git engine
 * publishes the same (shared/kernel/events/bus.ts), so the `git-pushes` worker serves both targets.
 */
export const GIT_EVENT_SOURCE = 'aws.codecommit';
export const GIT_EVENT_TYPE = 'CodeCommit Repository State Change';

export interface RefChange {
  source?: string;
  'detail-type'?: string;
  detail: {
    event: 'referenceCreated' | 'referenceUpdated' | 'referenceDeleted' | string;
    repositoryName: string;
    referenceType?: 'branch' | 'tag' | string;
    referenceName?: string;
    referenceFullName?: string;
    commitId?: string;
    oldCommitId?: string;
  };
}

/** CodeCommit repositories of the platform are `<prefix><repoId>` (the prefix is the stack's). */
export const repositoryName = (repoId: string) => `${readEnv('GIT_REPO_PREFIX') ?? 'plt-repo-'}${repoId}`;
export const repoIdOf = (name: string) => {
  const prefix = readEnv('GIT_REPO_PREFIX') ?? 'plt-repo-';
  return name.startsWith(prefix) ? name.slice(prefix.length) : undefined;
};

/** The event of `ref` moving from `old` to `next` (null: absent) in the repository. */
export function refChange(repoId: string, ref: string, old: string | null, next: string | null) {
  const m = /^refs\/(heads|tags)\/(.+)$/.exec(ref);
  return {
    source: GIT_EVENT_SOURCE,
    'detail-type': GIT_EVENT_TYPE,
    detail: {
      event: old === null ? 'referenceCreated' : next === null ? 'referenceDeleted' : 'referenceUpdated',
      repositoryName: repositoryName(repoId),
      referenceType: m?.[1] === 'tags' ? 'tag' : 'branch',
      referenceName: m?.[2] ?? ref,
      referenceFullName: ref,
      ...(next ? { commitId: next } : {}),
      ...(old ? { oldCommitId: old } : {}),
    },
  };
}
