import { readEnv } from '../../kernel/ground/env';
import { isDomainError } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { transact, updateVersioned } from '../../kernel/store/ops';
import { versionedUpdate } from '../../kernel/store/table';
import { cdn } from '../../ports/cdn';
import { dns } from '../../ports/dns';
import { queue } from '../../ports/queue';
import { getHost, HostTaken, hostEntry, reserveHost } from '../host-registry/registry';
import { peopleOf, raiseEvent } from '../notifications/raise';
import type { CheckMessage } from './queue-messages';
import {
  CHECK_EVERY_MS,
  claimsOf,
  DOMAIN_MESSAGES,
  type DomainRecord,
  domainKey,
  getDomainRecord,
  ownershipRecord,
  routingRecord,
  routingTarget,
} from './records';

/**
 * Verification of a custom domain: the ownership TXT record and the routing record (a CNAME to
 * the routing endpoint, or at the apex any record, ALIAS or flattened, that resolves where the
 * endpoint does) looked up through the dns port now. Both found: the domain becomes a tenant of
 * the CDN (the cdn port: CloudFront's multi-tenant distribution on AWS) and stays `verifying`
 * while its certificate is issued, then `active`; where no CDN serves domains (one machine, a
 * stack without an apps domain) it goes `active` at once. Missing: `message` names what is
 * missing, and the domain stays `pending`. Either wait ends in `error` when its checks end (72
 * hours). Unsettled domains are re-checked by the domain-checks worker every 5 minutes.
 */
export async function checkDns(d: Pick<DomainRecord, 'hostname' | 'zone' | 'token'>): Promise<string[]> {
  const lookups = dns();
  const txt = ownershipRecord(d.hostname, d.token);
  const route = routingRecord(d.hostname, d.zone);
  const target = routingTarget();
  const [txts, cnames] = await Promise.all([
    lookups.txt(txt.name),
    route.type === 'CNAME' ? lookups.cname(d.hostname) : Promise.resolve([] as string[]),
  ]);
  const missing: string[] = [];
  if (!txts.includes(txt.value)) missing.push(`the TXT record ${txt.name} with the value ${txt.value}`);
  let routed = cnames.includes(target);
  if (!routed) {
    // An apex (ALIAS, flattening) or a provider that answers with addresses: the endpoint's addresses.
    const [mine, endpoint] = await Promise.all([lookups.a(d.hostname), lookups.a(target)]);
    routed = endpoint.length > 0 && mine.some((a) => endpoint.includes(a));
  }
  if (!routed) missing.push(`the ${route.type} record ${route.name} pointing to ${target}`);
  return missing;
}

const missingMessage = (missing: string[]) => `DNS does not show ${missing.join(', nor ')} yet.`;

/**
 * Checks the domain's DNS now and writes what was found (guarded by its version): `active` and
 * `domain.verified`, or `message` (and `error` with `domain.failed` once its checks are over).
 * Ownership proven (both records found), the host is reserved in the global registry in the same
 * transaction, and other organizations' claims of the hostname fail; a host another organization
 * verified first fails this claim instead (`error`, saying so). `next`: when the worker checks
 * again (kept on the record; a check message for another time is a repeat and does nothing).
 */
export async function verifyDomain(d: DomainRecord, now = Date.now(), next?: number): Promise<DomainRecord> {
  if (d.status === 'active') return d;
  const holder = await getHost(d.hostname, true);
  const holds = holder?.orgId === d.orgId && holder.projectId === d.projectId;
  if (holder && !holds) return claimedElsewhere(d, now);
  const over = now >= d.checksUntil;
  let status: DomainRecord['status'];
  let message: string | undefined;
  let tenant: { tenantId: string } | undefined = d.tenantId ? { tenantId: d.tenantId } : undefined;
  let certificateArn: string | undefined;
  const missing = d.status === 'verifying' && tenant ? [] : await checkDns(d);
  if (missing.length > 0) {
    status = over || d.status === 'error' ? 'error' : 'pending';
    message = missingMessage(missing);
  } else {
    tenant ??= await cdn().addDomain(d.hostname, now);
    const certificate = tenant ? await cdn().certificate(tenant.tenantId, now) : { status: 'issued' as const };
    certificateArn = certificate.certificateArn;
    if (certificate.status === 'issued') status = 'active';
    else if (certificate.status === 'failed') {
      status = 'error';
      message = certificate.detail ?? 'The certificate could not be issued.';
    } else if (over) {
      status = 'error';
      message = 'The certificate was not issued within 72 hours.';
    } else {
      status = 'verifying';
      message = `DNS is set. ${certificate.detail ?? 'The certificate is being issued.'}`;
    }
  }
  const fields = {
    status,
    message,
    checkedAt: now,
    updatedAt: now,
    nextCheckAt: status === 'pending' || status === 'verifying' ? (next ?? d.nextCheckAt) : undefined,
    ...(tenant ? { tenantId: tenant.tenantId } : {}),
    ...(certificateArn ? { certificateArn } : {}),
  };
  const reserving = missing.length === 0 && !holds;
  let updated: DomainRecord;
  if (!reserving)
    updated = await updateVersioned<DomainRecord>(
      domainKey(d.orgId, d.hostname),
      d.version,
      fields,
      DOMAIN_MESSAGES.changed,
    );
  else {
    // Proven: the host becomes this domain's in the write that records it, unless another got there first.
    try {
      await transact(
        [
          { Update: versionedUpdate(domainKey(d.orgId, d.hostname), d.version, fields) },
          reserveHost(hostEntry(d.hostname, 'domain', { orgId: d.orgId, projectId: d.projectId }, now)),
        ],
        [DOMAIN_MESSAGES.changed, () => new HostTaken(d.hostname)],
      );
    } catch (err) {
      if (err instanceof HostTaken) return claimedElsewhere(d, now);
      throw err;
    }
    updated = (await getDomainRecord(d.orgId, d.hostname, true)) as DomainRecord;
    await failOtherClaims(updated, now);
  }
  if (status === 'active') await raiseDomainEvent(updated, 'domain.verified');
  else if (status === 'error' && d.status !== 'error') await raiseDomainEvent(updated, 'domain.failed');
  return updated;
}

/** The claim fails: another organization verified the hostname (`domain.failed` when it was not failed yet). */
async function claimedElsewhere(d: DomainRecord, now: number): Promise<DomainRecord> {
  const updated = await updateVersioned<DomainRecord>(
    domainKey(d.orgId, d.hostname),
    d.version,
    {
      status: 'error',
      message: DOMAIN_MESSAGES.claimedElsewhere(d.hostname),
      checkedAt: now,
      updatedAt: now,
      nextCheckAt: undefined,
    },
    DOMAIN_MESSAGES.changed,
  );
  if (d.status !== 'error') await raiseDomainEvent(updated, 'domain.failed');
  return updated;
}

/** Other organizations' claims of a hostname just verified fail, each saying why (one that fails to write is logged). */
async function failOtherClaims(winner: DomainRecord, now: number): Promise<void> {
  for (const claim of await claimsOf(winner.hostname)) {
    if (claim.orgId === winner.orgId) continue;
    try {
      const current = await getDomainRecord(claim.orgId, claim.hostname, true);
      if (current && current.status !== 'active') await claimedElsewhere(current, now);
    } catch (err) {
      log.warn('domain claim not failed', { orgId: claim.orgId, hostname: claim.hostname, error: describeError(err) });
    }
  }
}

function raiseDomainEvent(d: DomainRecord, kind: 'domain.verified' | 'domain.failed') {
  return raiseEvent({
    kind,
    orgId: d.orgId,
    resources: [{ type: 'project', id: d.projectId }],
    attributes: { hostname: d.hostname, projectId: d.projectId },
    people: peopleOf(d.createdBy),
    title: kind === 'domain.verified' ? `${d.hostname} is verified` : `${d.hostname} could not be verified`,
    ...(d.message ? { body: d.message } : {}),
    url: `https://${d.hostname}`,
  });
}

export type { CheckMessage } from './queue-messages';

/** The worker's next check of the domain, due at `due` (`DOMAIN_CHECK_DELAY_SECONDS` shortens the wait in tests). */
export async function queueCheck(d: Pick<DomainRecord, 'orgId' | 'hostname'>, due: number, now = Date.now()) {
  const override = readEnv('DOMAIN_CHECK_DELAY_SECONDS');
  const seconds = override !== undefined ? Number(override) : Math.ceil((due - now) / 1000);
  const message: CheckMessage = { orgId: d.orgId, hostname: d.hostname, due };
  await queue().send('DOMAIN_CHECKS_QUEUE_URL', message, { delaySeconds: Math.min(900, Math.max(0, seconds)) });
}

/**
 * One re-check (the domain-checks worker, with its clock): a domain gone, settled, or whose next
 * check is another message's is left alone; otherwise it is checked, and while still pending
 * the next check is queued. Answers the status after the check, or undefined when none ran.
 */
export async function recheck(message: CheckMessage, now = Date.now()): Promise<DomainRecord | undefined> {
  const next = now + CHECK_EVERY_MS;
  for (let attempt = 0; attempt < 3; attempt++) {
    const d = await getDomainRecord(message.orgId, message.hostname, true);
    if (!d || d.status === 'active' || d.status === 'error' || d.nextCheckAt !== message.due) return undefined;
    try {
      const checked = await verifyDomain(d, now, next);
      if (checked.status === 'pending' || checked.status === 'verifying') await queueCheck(checked, next, now);
      return checked;
    } catch (err) {
      // Changed meanwhile (a verify, a patch): read it again.
      if (!isDomainError(err, 'conflict')) throw err;
    }
  }
  return undefined;
}
