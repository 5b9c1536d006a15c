import { definePort } from '../adapter';
import type { BuildsPort } from './port';

export type { BuildLogLine } from './build-log';
export type { BuildSettings } from './plan';
export type { BuildJob, BuildSource, BuildsPort, ImportJob } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/**
 * Builds: CodeBuild on AWS; on one machine child processes beside the API (unpacking archives,
 * installing, building: nothing a function on AWS runs, so never in a Lambda bundle).
 */
export const builds = definePort<BuildsPort>({
  aws: () => import('./aws').then((m) => m.awsBuilds()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localBuilds()),
});
