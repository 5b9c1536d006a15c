import type { Deployment } from './record-schemas';

import { DEPLOYMENT_STATUSES, type DeploymentStatus } from './statuses';

export { DEPLOYMENT_STATUSES, type DeploymentStatus };

/** A deployment in progress: project delete and transfer wait for it (409). */
export const IN_PROGRESS: readonly DeploymentStatus[] = ['queued', 'building', 'deploying'];
export const isInProgress = (status: DeploymentStatus | undefined) =>
  status !== undefined && IN_PROGRESS.includes(status);

export type DeploymentTarget = Deployment['target'];

/** How the build went (spec part A, `buildMetrics`). */
export type BuildMetrics = NonNullable<Deployment['buildMetrics']>;

/**
 * Where an uploaded source came from, as the command line reports it (`meta` of the create
 * route): the local branch and commit (`commit` may be short), whether the work tree had
 * uncommitted changes, and the machine's name. Kept as sent and shown with the deployment
 * (beyond spec part A's Deployment fields); a redeploy keeps it, as it builds the same source.
 */
export type DeploymentMeta = NonNullable<Deployment['meta']>;

/** The deployment as the API answers it: the type of its record schema. */
export type { Deployment };

/**
 * The stored record (shared/domains/projects/deployments.ts): pk `ORG#<orgId>`, sk `DPL#<deploymentId>`,
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
   * (shared/domains/deployments/log-mask.ts): the log routes mask them. Never answered.
   */
  logMask?: string;
  /** The uploaded archive's size in bytes, and its SHA-256 (hex) once computed: what `skipped` compares. */
  sourceSize?: number;
  sourceHash?: string;
};
