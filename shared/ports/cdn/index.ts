import { definePort } from '../adapter';
import type { CdnPort } from './port';

export type { CdnPort, CertificateState } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** CloudFront's multi-tenant distribution on AWS; on one machine none (or a stand-in's certificates). */
export const cdn = definePort<CdnPort>({
  aws: () => import('./aws').then((m) => m.awsCdn()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localCdn()),
});
