import { config } from '../../kernel/config';
import type { BuildsPort } from './port';

export type { BuildLogLine } from './build-log';
export type { BuildSettings } from './plan';
export type { BuildJob, BuildSource, BuildsPort, ImportJob } from './port';

let adapter: Promise<BuildsPort> | undefined;

// The local adapter spawns processes and unpacks archives: nothing a function on AWS runs. Its
// path is computed so the functions' bundler leaves it (and tar) out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** The adapter for PLATFORM_TARGET, made on first use. */
export function builds(): Promise<BuildsPort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localBuilds: () => BuildsPort }>).then((m) => m.localBuilds())
      : import('./aws').then((m) => m.awsBuilds());
  return adapter;
}
