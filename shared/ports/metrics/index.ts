import { definePort } from '../adapter';
import type { MetricsPort } from './port';

export type { MetricsPort, Usage } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/**
 * Figures the cloud reports (S3's daily storage metrics in CloudWatch), or counted on one machine;
 * the CloudWatch client stays out of every function but the usage worker's.
 */
export const metrics = definePort<MetricsPort>({
  aws: () => import('./aws').then((m) => m.awsMetrics()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localMetrics()),
});
