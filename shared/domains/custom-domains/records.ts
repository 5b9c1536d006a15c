import { randomBytes } from 'node:crypto';
import { readEnv } from '../../kernel/ground/env';
import { describeError, log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { DeleteCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll } from '../../kernel/store/ops';
import { getItem, keys, TABLE } from '../../kernel/store/table';
import { cdn } from '../../ports/cdn';
import type { DnsRecord } from '../../ports/dns/port';
import { normalizeHost, releaseHosts } from '../host-registry/registry';
import { appsDomain } from '../projects/hosts';
import { DOMAIN_PREFIX } from '../projects/records';
import { CLAIM_MESSAGES } from './claims';
import { connectedProvider } from './provider';

/**
 * A custom domain of a project: `DOM#<hostname>` in the organization's partition (it moves and
 * goes with the project, shared/domains/projects/records.ts). Until it is verified it is a claim of this
 * organization only: several organizations may claim one hostname (each record on gsi1 under
 * `DOMCLAIM#<hostname>`), and the first to prove ownership takes its host in the global registry
 * (shared/domains/host-registry/registry.ts) in the verifying write; the others' claims then fail. Spec part A's Domain record, plus what the platform keeps to
 * check and undo it: the ownership token, the records it wrote through the provider, the end of
 * its checks.
 */
export type DomainStatus = 'pending' | 'verifying' | 'active' | 'error';

export interface DomainRecord {
  pk: string;
  sk: string;
  /** The claims index (gsi1): every organization's record of one hostname, pending ones included. */
  gsi1pk?: string;
  gsi1sk?: string;
  hostname: string;
  orgId: string;
  projectId: string;
  status: DomainStatus;
  message?: string;
  createdAt: number;
  updatedAt: number;
  createdBy: string;
  /** The records to create, one a line, in zone-file form. */
  records: string;
  zone: string;
  dnsProvider?: string;
  checkedAt?: number;
  redirectTo?: string;
  tenantId?: string;
  certificateArn?: string;
  version: number;
  /** The ownership token (the TXT record's value). */
  token: string;
  /** The re-checks stop then (72 hours after the add): the domain ends in `error`. */
  checksUntil: number;
  /** When the next re-check is due: a check message for another time is a stale repeat. */
  nextCheckAt?: number;
  /** What the platform wrote through the connected provider (removed with the domain). */
  written?: { kind: string; zone: string; records: DnsRecord[] };
}

export const DOMAIN_MESSAGES = {
  notFound: 'Domain not found',
  tooLong: 'A hostname has at most 253 characters.',
  labelTooLong: 'Each label of a hostname has at most 63 characters.',
  twoLabels: 'A hostname has two labels at least, like example.com.',
  wildcard: 'Wildcard hostnames are not supported. Add each hostname.',
  ipLiteral: 'An IP address is not a hostname.',
  invalid: 'Letters, digits and hyphens only, like shop.example.com.',
  appsDomain: (apps: string) => `Hostnames under ${apps} belong to the platform.`,
  tooMany: 'A project has at most 50 domains.',
  connectFirst: 'Connect a DNS provider first.',
  providerLacksZone: (zone: string) => `The connected DNS provider does not hold the zone ${zone}.`,
  redirectUnknown: 'redirectTo must be another domain of the same project.',
  redirectChain: 'redirectTo must name a domain that does not redirect itself.',
  redirectedTo: 'Other domains redirect to this one: change them first.',
  changed: 'The domain changed since it was read. Reload and try again.',
  publicSuffix: CLAIM_MESSAGES.publicSuffix,
  claimedElsewhere: CLAIM_MESSAGES.claimedElsewhere,
} as const;

export const MAX_PER_PROJECT = 50;
/** The re-checks of an unverified domain: every 5 minutes, for 72 hours. */
export const CHECK_EVERY_MS = 5 * 60_000;
export const CHECK_FOR_MS = 72 * 3_600_000;

export const domainKey = (orgId: string, hostname: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${DOMAIN_PREFIX}${hostname}`,
});

/** The record's place in the claims index (gsi1): all organizations' records of the hostname. */
export const claimIndex = (hostname: string) => ({
  gsi1pk: `${PREFIXES.customDomains.claim}${hostname}`,
  gsi1sk: 'DOM',
});

/** Every organization's record of the hostname (gsi1, eventually consistent). */
export function claimsOf(hostname: string): Promise<DomainRecord[]> {
  return queryAll<DomainRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :c',
    ExpressionAttributeValues: { ':c': claimIndex(hostname).gsi1pk },
  });
}

export function getDomainRecord(orgId: string, hostname: string, consistent = false) {
  return getItem<DomainRecord>(domainKey(orgId, hostname), consistent);
}

/** Where domains point: `ROUTING_TARGET`, else `cname.<apps domain>` (locally `cname.localhost`, loopback). */
export const routingTarget = () => readEnv('ROUTING_TARGET') ?? `cname.${normalizeHost(appsDomain())}`;

export const newToken = () => randomBytes(16).toString('hex');

/** The TXT record that proves ownership. */
export const ownershipRecord = (hostname: string, token: string): DnsRecord => ({
  name: `_platform-verify.${hostname}`,
  type: 'TXT',
  value: `platform-verify=${token}`,
});

/** The routing record: a CNAME, or an ALIAS (flattening) at the zone's apex, where a CNAME can't be. */
export const routingRecord = (hostname: string, zone: string): DnsRecord => ({
  name: hostname,
  type: hostname === zone ? 'ALIAS' : 'CNAME',
  value: routingTarget(),
});

export const recordsOf = (hostname: string, zone: string, token: string) => [
  routingRecord(hostname, zone),
  ownershipRecord(hostname, token),
];

/** The records as text, one a line in zone-file form (the Domain record's `records`). */
export const recordsText = (records: DnsRecord[]) =>
  records
    .map((r) => `${r.name}. 300 IN ${r.type} ${r.type === 'TXT' ? JSON.stringify(r.value) : `${r.value}.`}`)
    .join('\n');

/** The project's domains (consistent: deletes and transfers read them). */
export function domainsOfProject(orgId: string, projectId: string): Promise<DomainRecord[]> {
  return queryAll<DomainRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: 'projectId = :project',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': DOMAIN_PREFIX, ':project': projectId },
    ConsistentRead: true,
  });
}

/**
 * Removes a domain: the records the platform wrote through the connected provider (when it wrote
 * any and the same kind is still connected; a provider that refuses is logged, the domain goes
 * anyway), the record, then its host in the registry. Each step can run again.
 */
export async function removeDomain(domain: DomainRecord): Promise<void> {
  // Its tenant at the CDN (routing and certificate) first: a failure leaves the domain to delete again.
  if (domain.tenantId) await cdn().removeDomain(domain.tenantId);
  if (domain.written) {
    try {
      const connected = await connectedProvider(domain.orgId);
      if (connected?.record.kind === domain.written.kind) {
        await connected.provider.remove(domain.written.zone, domain.written.records);
      }
    } catch (err) {
      log.warn('domain records not removed from the provider', {
        hostname: domain.hostname,
        error: describeError(err),
      });
    }
  }
  await db.send(new DeleteCommand({ TableName: TABLE(), Key: { pk: domain.pk, sk: domain.sk } }));
  await releaseHosts([domain.hostname], domain.projectId);
}
