import { Resolver } from 'node:dns/promises';
import { readEnv } from '../../kernel/ground/env';
import type { DnsLookup } from './port';

/** Public resolvers, when `DNS_SERVERS` names none (AWS). */
const PUBLIC = ['1.1.1.1', '8.8.8.8'];

const NONE = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN', 'ESERVFAIL', 'EREFUSED']);

/** Lookups through `DNS_SERVERS`, read at each lookup (tests point it at their own server). */
export const lookups: DnsLookup = {
  txt: (name) => dnsLookup().txt(name),
  cname: (name) => dnsLookup().cname(name),
  a: (name) => dnsLookup().a(name),
};

/** Lookups through the servers `DNS_SERVERS` names now. */
function dnsLookup(): DnsLookup {
  const servers = (readEnv('DNS_SERVERS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers(servers.length > 0 ? servers : PUBLIC);
  const none = <T>(err: unknown): T[] => {
    if (NONE.has((err as { code?: string }).code ?? '')) return [];
    throw err;
  };
  return {
    txt: (name) => resolver.resolveTxt(name).then((rows) => rows.map((r) => r.join('')), none<string>),
    cname: (name) => resolver.resolveCname(name).then((rows) => rows.map((r) => r.toLowerCase()), none<string>),
    a: (name) => resolver.resolve4(name).catch(none<string>),
  };
}
