import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../kernel/store/client';
import { PREFIXES } from '../../kernel/store/keys';
import { TABLE } from '../../kernel/store/table';
import { lookups } from './lookup';
import type { DnsPort, DnsProvider, DnsRecord, RecordType } from './port';
import { remoteProvider } from './providers';

/**
 * One machine's DNS: zones kept in the platform table (their own partitions, nobody's tenant
 * records), served by the local authoritative server (lib/local/dns.ts) and written by the `local`
 * provider kind or `npm run local -- dns set`. Never in a Lambda bundle (shared/ports/dns/index.ts).
 *
 * | record | pk | sk |
 * |---|---|---|
 * | a DNS record | `DNS#<name>` | `<type>#<value>` |
 * | a zone | `DNSZONES` | `<zone>` |
 */
const clean = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

export async function setLocalRecord(zone: string, record: DnsRecord): Promise<void> {
  const name = clean(record.name);
  const value = record.type === 'TXT' ? record.value : clean(record.value);
  await db.send(new PutCommand({ TableName: TABLE(), Item: { pk: 'DNSZONES', sk: clean(zone), zone: clean(zone) } }));
  await db.send(
    new PutCommand({
      TableName: TABLE(),
      Item: {
        pk: `${PREFIXES.dns.name}${name}`,
        sk: `${record.type}#${value}`,
        name,
        type: record.type,
        value,
        zone: clean(zone),
      },
    }),
  );
}

export async function removeLocalRecord(record: DnsRecord): Promise<void> {
  const value = record.type === 'TXT' ? record.value : clean(record.value);
  await db.send(
    new DeleteCommand({
      TableName: TABLE(),
      Key: { pk: `${PREFIXES.dns.name}${clean(record.name)}`, sk: `${record.type}#${value}` },
    }),
  );
}

/** The records of `name` of `type` (every type when none is given). */
export async function localRecords(name: string, type?: RecordType): Promise<DnsRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: type ? 'pk = :pk AND begins_with(sk, :t)' : 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `${PREFIXES.dns.name}${clean(name)}`, ...(type ? { ':t': `${type}#` } : {}) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    name: i.name as string,
    type: i.type as RecordType,
    value: i.value as string,
  }));
}

export async function localZones(): Promise<string[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'DNSZONES' },
    }),
  );
  return (out.Items ?? []).map((i) => i.zone as string);
}

const isLocalhost = (name: string) => name === 'localhost' || name.endsWith('.localhost');

/**
 * What the local server answers for `name` and `type`: `*.localhost` is loopback (the edge); an
 * A question follows a CNAME (answered with it) and flattens an ALIAS (its target's addresses
 * under the asked name), as providers do at a zone's apex.
 */
export async function localAnswers(
  name: string,
  type: 'A' | 'CNAME' | 'TXT',
  depth = 0,
): Promise<{ name: string; type: 'A' | 'CNAME' | 'TXT'; value: string }[]> {
  const asked = clean(name);
  if (type === 'A' && isLocalhost(asked)) return [{ name: asked, type: 'A', value: '127.0.0.1' }];
  if (type !== 'A' || depth > 4) {
    return (await localRecords(asked, type)).map((r) => ({ name: asked, type, value: r.value }));
  }
  const all = await localRecords(asked);
  const a = all.filter((r) => r.type === 'A').map((r) => ({ name: asked, type: 'A' as const, value: r.value }));
  if (a.length > 0) return a;
  const cname = all.find((r) => r.type === 'CNAME');
  if (cname)
    return [{ name: asked, type: 'CNAME', value: cname.value }, ...(await localAnswers(cname.value, 'A', depth + 1))];
  const alias = all.find((r) => r.type === 'ALIAS');
  if (alias) {
    const target = await localAnswers(alias.value, 'A', depth + 1);
    return target.filter((r) => r.type === 'A').map((r) => ({ name: asked, type: 'A' as const, value: r.value }));
  }
  return [];
}

/** The `local` provider kind: it holds every zone; records go to the table the local server reads. */
export function localProvider(): DnsProvider {
  return {
    listZones: localZones,
    holdsZone: async () => true,
    upsert: async (zone, records) => {
      for (const r of records) {
        // One value per name and type, as a provider's upsert replaces a record set.
        for (const old of await localRecords(r.name, r.type)) await removeLocalRecord(old);
        await setLocalRecord(zone, r);
      }
    },
    remove: async (_zone, records) => {
      for (const r of records) await removeLocalRecord(r);
    },
  };
}

/**
 * One machine: lookups through `DNS_SERVERS` (the local authoritative server of `npm start`),
 * Route 53 and Cloudflare (a stand-in on loopback allowed), and the `local` kind.
 */
export const localDns = (): DnsPort => ({
  ...lookups,
  provider: async (kind, credentials) => (await remoteProvider(kind, credentials, true)) ?? localProvider(),
});
