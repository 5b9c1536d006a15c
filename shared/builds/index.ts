import { config } from '../config';
// Static: a dynamic import() would keep every command of the adapter's SDK clients in the bundle.
import { awsBuilds } from './aws';
import type { BuildsPort } from './port';

export type { BuildLogLine } from './build-log';
export type { BuildSettings } from './plan';
export type { BuildJob, BuildSource, BuildsPort } from './port';

let adapter: Promise<BuildsPort> | undefined;

// The local adapter spawns processes and unpacks archives: nothing a function on AWS runs. Its
// path is computed so the functions' bundler leaves it (and tar) out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** The adapter for PLATFORM_TARGET, made on first use. */
export function builds(): Promise<BuildsPort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localBuilds: () => BuildsPort }>).then((m) => m.localBuilds())
      : Promise.resolve(awsBuilds());
  return adapter;
}
