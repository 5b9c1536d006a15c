/**
 * The dns port: what the platform asks of DNS. Lookups go to configurable servers (`DNS_SERVERS`,
 * `host[:port]` comma-separated; public resolvers when unset; locally the authoritative server of
 * `npm start`, lib/local/dns.ts). Record writes go to the organization's connected provider:
 * Route 53 (a role assumed through STS) or Cloudflare (an API token) on any target, and `local`
 * (zones served from the platform table by the local DNS server) on one machine.
 */
export type RecordType = 'A' | 'CNAME' | 'TXT' | 'ALIAS';

/** One record as a provider writes it; names and values without a trailing dot. */
export interface DnsRecord {
  name: string;
  type: RecordType;
  value: string;
}

export interface DnsLookup {
  /** TXT strings of `name` (each record's strings joined); [] when there are none. */
  txt(name: string): Promise<string[]>;
  /** CNAME targets of `name`, lowercased; [] when there are none. */
  cname(name: string): Promise<string[]>;
  /** IPv4 addresses of `name`; [] when there are none. */
  a(name: string): Promise<string[]>;
}

export const PROVIDER_KINDS = ['route53', 'cloudflare', 'local'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** A connected provider's credentials, as the organization gave them (stored encrypted). */
export type ProviderCredentials =
  | { roleArn: string; externalId: string }
  | { apiToken: string }
  | Record<string, never>;

export interface DnsProvider {
  /** The zones the credentials can write (apex names); refused credentials throw ProviderRefused. */
  listZones(): Promise<string[]>;
  /** Whether the credentials can write `zone`. */
  holdsZone(zone: string): Promise<boolean>;
  /** Creates or replaces `records` in `zone`. */
  upsert(zone: string, records: DnsRecord[]): Promise<void>;
  /** Removes `records` from `zone` (those absent are ignored). */
  remove(zone: string, records: DnsRecord[]): Promise<void>;
}

/**
 * The dns port as its accessor serves it: lookups (the same code on both targets; only the servers
 * differ) and the adapter of a connected provider. Route 53 and Cloudflare can be connected on any
 * target, `local` on one machine only.
 */
export interface DnsPort extends DnsLookup {
  provider(kind: ProviderKind, credentials: ProviderCredentials): Promise<DnsProvider>;
}

/** The provider refused the credentials or the call: the message says what it answered. */
export class ProviderRefused extends Error {
  override name = 'ProviderRefused';
}
