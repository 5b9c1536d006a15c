import { streamingGuardedFetch } from '../../kernel/net/streaming-fetch';
import type { DnsProvider, ProviderCredentials, ProviderKind } from './port';

/**
 * The providers reached over the network, on either target: Route 53 (a role assumed through STS)
 * and Cloudflare (an API token), each loading on first use. Their calls go through the guarded
 * fetch, which allows loopback only on one machine (`loopback`: a stand-in of a provider in tests,
 * or on `npm start`), never on AWS. Undefined for any other kind.
 */
export async function remoteProvider(
  kind: ProviderKind,
  credentials: ProviderCredentials,
  loopback: boolean,
): Promise<DnsProvider | undefined> {
  if (kind === 'route53') {
    const { route53Provider } = await import('./route53');
    return route53Provider(credentials as { roleArn: string; externalId: string });
  }
  if (kind === 'cloudflare') {
    const { cloudflareProvider } = await import('./cloudflare');
    return cloudflareProvider(credentials as { apiToken: string }, streamingGuardedFetch({ loopback }));
  }
  return undefined;
}
