/** Spec part A, "Deployment" and "States and transitions": the statuses (apart from ./schema.ts, so that ./record-schemas.ts takes it without a cycle). */
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
