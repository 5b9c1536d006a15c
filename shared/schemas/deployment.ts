/** Spec part A, "Deployment" and "States and transitions". */
export const DEPLOYMENT_STATUSES = [
  'queued',
  'building',
  'deploying',
  'ready',
  'error',
  'canceled',
  'expired',
  'skipped',
] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** A deployment in progress: project delete and transfer wait for it (409). */
export const IN_PROGRESS: readonly DeploymentStatus[] = ['queued', 'building', 'deploying'];
export const isInProgress = (status: DeploymentStatus | undefined) =>
  status !== undefined && IN_PROGRESS.includes(status);

export type DeploymentTarget = 'preview' | 'production';

export interface BuildMetrics {
  restoreMs?: number;
  installMs?: number;
  buildMs?: number;
  uploadMs?: number;
  saveMs?: number;
  depsCache?: 'hit' | 'partial' | 'miss' | 'off';
  nextCache?: 'hit' | 'partial' | 'miss' | 'off';
  packageManager?: string;
  installDir?: string;
}

/** The deployment as the API answers it. */
export interface Deployment {
  deploymentId: string;
  orgId: string;
  projectId: string;
  location: string;
  target: DeploymentTarget;
  status?: DeploymentStatus;
  error?: string;
  createdAt?: number;
  updatedAt?: number;
  region?: string;
  createdBy?: string;
  branch?: string;
  commitSha?: string;
  commitMessage?: string;
  commitAuthor?: string;
  host?: string;
  buildId?: string;
  buildDurationMs?: number;
  readyAt?: number;
  crons?: string;
  /** `envHash(resolveEnv(...))` of shared/projects/env.ts at the time the build started. */
  envHash?: string;
  previousDeploymentId?: string;
  reason?: string;
  source?: 'git' | 'upload';
  sourceArchive?: string;
  buildMetrics?: BuildMetrics;
}

/**
 * The stored record (shared/projects/deployments.ts): pk `ORG#<orgId>`, sk `DPL#<deploymentId>`,
 * gsi1pk `PRJ#<projectId>`, gsi1sk `DPL#<deploymentId>` (ids are time-ordered, so a descending
 * GSI query is newest first).
 */
export type DeploymentRecord = Deployment & {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  version?: number;
};

/** Spec part A: function configuration constants (reported, not settable). */
export const FUNCTION_CONFIG = {
  memoryMb: 1024,
  timeoutSeconds: 30,
  architecture: 'arm64',
  runtime: 'nodejs22.x',
} as const;
