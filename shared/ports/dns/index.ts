import { config } from '../../kernel/config';
import { type FetchLike, streamingGuardedFetch } from '../../kernel/net/streaming-fetch';
import { dnsLookup } from './lookup';
import type { DnsLookup, DnsProvider, ProviderCredentials, ProviderKind } from './port';

export * from './port';

// The local adapter's path is computed: the functions' bundler leaves it out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** Lookups through the configured servers (the same code on both targets; only servers differ). */
export const lookup = (): DnsLookup => dnsLookup();

/** Whether `kind` can be connected here: `local` only on one machine. */
export const kindAvailable = (kind: ProviderKind) => kind !== 'local' || config.target === 'local';

/**
 * Calls to providers' APIs and sign-in servers: the guarded fetch, which allows loopback only on
 * one machine (a stand-in of a provider in tests, or on `npm start`), never on AWS.
 */
export const providerFetch = (): FetchLike => streamingGuardedFetch({ loopback: config.target === 'local' });

/** The adapter of a connected provider; each loads on first use. */
export async function dnsProvider(kind: ProviderKind, credentials: ProviderCredentials): Promise<DnsProvider> {
  if (kind === 'route53') {
    const { route53Provider } = await import('./aws');
    return route53Provider(credentials as { roleArn: string; externalId: string });
  }
  if (kind === 'cloudflare') {
    const { cloudflareProvider } = await import('./cloudflare');
    return cloudflareProvider(credentials as { apiToken: string }, providerFetch());
  }
  if (config.target !== 'local') throw new Error('The local DNS provider exists on one machine only.');
  const { localProvider } = (await import(LOCAL_ADAPTER)) as typeof import('./local');
  return localProvider();
}
