import { config } from '../config';
import type { DeploymentTarget } from '../schemas/deployment';
// Static: a dynamic import() would keep every command of the adapter's SDK clients in the bundle.
import { awsBuilds } from './aws';
import type { BuildLogLine } from './build-log';
import type { BuildSettings } from './plan';

export type { BuildLogLine } from './build-log';
export type { BuildSettings } from './plan';

/** Where a build gets its source. */
export type BuildSource =
  | { kind: 'upload'; bucket: string; key: string }
  | { kind: 'git'; repoId: string; commitSha: string; branch: string };

/** One build of one deployment: everything the build needs, nothing it must look up. */
export interface BuildJob {
  deploymentId: string;
  orgId: string;
  projectId: string;
  target: DeploymentTarget;
  settings: BuildSettings;
  source: BuildSource;
  /** The target's variables (decrypted): the build's environment and the server function's. */
  env: Record<string, string>;
}

/**
 * The builds port. AWS: a CodeBuild build per deployment; its state changes reach the
 * `build-events` worker (EventBridge), which moves the deployment record; its log is in
 * CloudWatch Logs. One machine: the build runs beside the API (unpacking, install and build as
 * child processes with a time limit), moves the record itself and writes its log to a file.
 * Either way `start` returns at once: the deployment is `queued` until the build picks it up.
 */
export interface BuildsPort {
  /** Starts (or queues) the build; throws when it could not be started. */
  start(job: BuildJob): Promise<{ buildId: string }>;
  /** Stops a queued or running build (a superseded deployment). Unknown ids are ignored. */
  cancel(buildId: string): Promise<void>;
  /**
   * Log lines after `position` (an opaque position of this adapter; undefined: the start), at
   * most `limit`; the returned `position` reads on from there.
   */
  readLog(
    deployment: { deploymentId: string; buildId?: string },
    position: string | undefined,
    limit: number,
  ): Promise<{ lines: BuildLogLine[]; position: string }>;
}

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
