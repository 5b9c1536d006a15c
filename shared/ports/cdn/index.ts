import { config } from '../../kernel/config';
import { lazyPort } from '../../kernel/ground/lazy';
import type { CdnPort } from './port';

export type { CdnPort, CertificateState } from './port';

let adapter: CdnPort | undefined;

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** CloudFront's multi-tenant distribution on AWS; on one machine none (or a stand-in's certificates). */
export function cdn(): CdnPort {
  adapter ??= lazyPort<CdnPort>(() =>
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localCdn: CdnPort }>).then((m) => m.localCdn)
      : import('./aws').then((m) => m.cloudfrontCdn),
  );
  return adapter;
}
