import type { DeploymentTarget } from '../../domains/deployments/schema';
import type { BuildLogLine } from './build-log';
import type { BuildSettings } from './plan';

/** Where a build gets its source. */
export type BuildSource =
  | { kind: 'upload'; bucket: string; key: string }
  | {
      kind: 'git';
      repoId: string;
      commitSha: string;
      branch: string;
      /**
       * Where the repository's verified Git LFS objects are (`<prefix><oid>` of the platform's
       * artifacts bucket): the build replaces the commit's LFS pointer files by them
       * (shared/ports/builds/lfs.ts).
       */
      lfs?: { bucket: string; prefix: string };
    };

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
 * An import of an existing repository (shared/domains/repos/imports/job.ts), run where builds run:
 * the import names its record; the job reads the rest and writes its progress there itself.
 */
export interface ImportJob {
  importId: string;
  orgId: string;
}

/**
 * The builds port. AWS: a CodeBuild build per deployment, its log in CloudWatch Logs. One
 * machine: the build runs beside the API (unpacking, install and build as child processes with a
 * time limit), its log in a file. Either way `start` returns at once (the deployment is `queued`),
 * and the build's progress is told by CodeBuild's "Build State Change" events (IN_PROGRESS,
 * SUCCEEDED, FAILED, TIMED_OUT, STOPPED; EventBridge on AWS, shared/kernel/events/bus.ts locally, in the
 * same shape), which the `build-events` worker turns into the deployment's moves. An adapter
 * never writes a platform record: the worker is the deployment's one state machine.
 */
export interface BuildsPort {
  /** Starts (or queues) the build; throws when it could not be started. */
  start(job: BuildJob): Promise<{ buildId: string }>;
  /**
   * Starts an import job (AWS: a build of the import project; one machine: a child process running
   * the job) and returns at once; its build id stops it with `cancel`.
   */
  startImport(job: ImportJob): Promise<{ buildId: string }>;
  /** Stops a queued or running build (a superseded deployment, a cancelled import). Unknown ids are ignored. */
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
  /** Why a failed build failed: its last `Error: …` line, when it printed one. */
  failureReason(buildId: string): Promise<string | undefined>;
}
