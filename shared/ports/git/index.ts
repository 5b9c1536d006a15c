import { config } from '../../kernel/config';
import type { GitPort } from './port';

export type { GitChange, GitCommit, GitFile, GitPerson, GitPort, GitTag } from './port';
export { GitChangeError, GitConflict, GitInputError, GitTooFar } from './port';

let adapter: Promise<GitPort> | undefined;

// The local adapter runs git on this machine: its path is computed, so no Lambda bundle holds it.
const LOCAL_ADAPTER = './local';

/** The adapter for PLATFORM_TARGET, loaded on first use (CodeCommit's client is a chunk of its own). */
export function git(): Promise<GitPort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ LocalGit: new () => GitPort }>).then((m) => new m.LocalGit())
      : import('./aws').then((m) => new m.AwsGit());
  return adapter;
}
