import { config } from '../../kernel/config';
import type { MetricsPort } from './port';

export type { MetricsPort } from './port';

let adapter: Promise<MetricsPort> | undefined;

// Both adapters load on first use: the CloudWatch client stays out of every function but the
// usage worker's, and the local one out of the Lambda bundles (its path is computed).
const LOCAL_ADAPTER = './local';

/** The adapter for PLATFORM_TARGET, made on first use. */
export function metrics(): Promise<MetricsPort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localMetrics: () => MetricsPort }>).then((m) => m.localMetrics())
      : import('./aws').then((m) => m.awsMetrics());
  return adapter;
}
