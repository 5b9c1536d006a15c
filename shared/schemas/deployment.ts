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

/**
 * Where an uploaded source came from, as the command line reports it (`meta` of the create
 * route): the local branch and commit (`commit` may be short), whether the work tree had
 * uncommitted changes, and the machine's name. Kept as sent and shown with the deployment
 * (beyond spec part A's Deployment fields); a redeploy keeps it, as it builds the same source.
 */
export interface DeploymentMeta {
  branch?: string;
  commit?: string;
  dirty?: boolean;
  machine?: string;
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
  meta?: DeploymentMeta;
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
  /**
   * The sensitive values the deployment was launched with, sealed for it by the secrets port
   * (shared/deployments/log-mask.ts): the log routes mask them. Never answered.
   */
  logMask?: string;
  /** The uploaded archive's size in bytes, and its SHA-256 (hex) once computed: what `skipped` compares. */
  sourceSize?: number;
  sourceHash?: string;
};

/** Spec part A: function configuration constants (reported, not settable). */
export const FUNCTION_CONFIG = {
  memoryMb: 1024,
  timeoutSeconds: 30,
  architecture: 'arm64',
  runtime: 'nodejs22.x',
} as const;
