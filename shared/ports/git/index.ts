import { definePort } from '../adapter';
import type { GitPort } from './port';

export type { GitChange, GitCommit, GitFile, GitPerson, GitPort, GitTag } from './port';
export { GitChangeError, GitConflict, GitInputError, GitTooFar } from './port';

// Computed: the functions' bundler leaves the local adapter (git on this machine) out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** Repositories' storage: CodeCommit (its client a chunk of its own), or bare repositories on disk. */
export const git = definePort<GitPort>({
  aws: () => import('./aws').then((m) => m.awsGit()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localGit()),
});
