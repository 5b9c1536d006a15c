import { readEnv } from '../../kernel/ground/env';
import type { FetchLike } from '../../kernel/net/streaming-fetch';
import { type DnsProvider, type DnsRecord, ProviderRefused } from './port';

/** Cloudflare's API (`CLOUDFLARE_API_URL` points elsewhere: a test's stand-in). */
const apiBase = () => readEnv('CLOUDFLARE_API_URL') ?? 'https://api.cloudflare.com/client/v4';

interface Envelope<T> {
  success: boolean;
  errors?: { message?: string }[];
  result: T;
  result_info?: { page: number; total_pages: number };
}

/**
 * Cloudflare with an API token (or an OAuth access token) of the organization, through the guarded
 * fetch it is given (shared/ports/dns/providers.ts). An apex CNAME is flattened by
 * Cloudflare itself, so ALIAS is written as a CNAME.
 */
export function cloudflareProvider(credentials: { apiToken: string }, fetch: FetchLike): DnsProvider {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${apiBase()}${path}`, {
      method,
      headers: { authorization: `Bearer ${credentials.apiToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json().catch(() => undefined)) as Envelope<T> | undefined;
    if (!res.ok || !json?.success) {
      const why = json?.errors?.map((e) => e.message).join('; ') || `HTTP ${res.status}`;
      throw new ProviderRefused(`Cloudflare refused the call: ${why}`);
    }
    return json.result;
  };
  const zones = async () => {
    const found: { id: string; name: string }[] = [];
    for (let page = 1; page <= 50; page++) {
      const result = await call<{ id: string; name: string }[]>('GET', `/zones?per_page=50&page=${page}`);
      found.push(...result.map((z) => ({ id: z.id, name: z.name.toLowerCase() })));
      if (result.length < 50) break;
    }
    return found;
  };
  const zoneId = async (zone: string) => {
    const z = (await zones()).find((x) => x.name === zone.toLowerCase());
    if (!z) throw new ProviderRefused(`Cloudflare holds no zone ${zone}.`);
    return z.id;
  };
  const type = (r: DnsRecord) => (r.type === 'ALIAS' ? 'CNAME' : r.type);
  const existing = async (id: string, r: DnsRecord) =>
    call<{ id: string }[]>('GET', `/zones/${id}/dns_records?type=${type(r)}&name=${encodeURIComponent(r.name)}`);
  return {
    listZones: async () => (await zones()).map((z) => z.name),
    holdsZone: async (zone) => (await zones()).some((z) => z.name === zone.toLowerCase()),
    upsert: async (zone, records) => {
      const id = await zoneId(zone);
      for (const r of records) {
        const body = { type: type(r), name: r.name, content: r.value, ttl: 300, proxied: false };
        const [found] = await existing(id, r);
        if (found) await call('PUT', `/zones/${id}/dns_records/${found.id}`, body);
        else await call('POST', `/zones/${id}/dns_records`, body);
      }
    },
    remove: async (zone, records) => {
      const id = await zoneId(zone);
      for (const r of records) {
        for (const found of await existing(id, r)) await call('DELETE', `/zones/${id}/dns_records/${found.id}`);
      }
    },
  };
}
