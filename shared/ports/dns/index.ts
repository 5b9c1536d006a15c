import { config } from '../../kernel/config';
import { type FetchLike, streamingGuardedFetch } from '../../kernel/net/streaming-fetch';
import { definePort } from '../adapter';
import type { DnsPort, ProviderKind } from './port';

export * from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** DNS lookups through the configured servers, and the adapters of connected providers. */
export const dns = definePort<DnsPort>({
  aws: () => import('./aws').then((m) => m.awsDns()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localDns()),
});

/** Whether `kind` can be connected here: `local` only on one machine. */
export const kindAvailable = (kind: ProviderKind) => kind !== 'local' || config.target === 'local';

/**
 * Calls to providers' sign-in servers: the guarded fetch, which allows loopback only on one
 * machine (a stand-in of a provider in tests, or on `npm start`), never on AWS.
 */
export const providerFetch = (): FetchLike => streamingGuardedFetch({ loopback: config.target === 'local' });
