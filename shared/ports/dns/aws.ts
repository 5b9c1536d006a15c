import { lookups } from './lookup';
import type { DnsPort } from './port';
import { remoteProvider } from './providers';

/** On AWS: lookups through `DNS_SERVERS` (public resolvers when unset); Route 53 and Cloudflare. */
export const awsDns = (): DnsPort => ({
  ...lookups,
  async provider(kind, credentials) {
    const provider = await remoteProvider(kind, credentials, false);
    if (!provider) throw new Error('The local DNS provider exists on one machine only.');
    return provider;
  },
});
