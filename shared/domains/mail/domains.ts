import { randomBytes } from 'node:crypto';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { DeleteCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, putNew, TABLE, versionedUpdate } from '../../kernel/store/table';
import { dns } from '../../ports/dns';
import { inboundMxHost, mail } from '../../ports/mail-transport';
import { CLAIM_MESSAGES } from '../custom-domains/claims';
import { getDomain, getMailbox, MAIL_MESSAGES, type MailDomainRecord, mailKeys } from './records';

/** Top-level names no one can register: domains under them verify at once (tests, examples, this machine). */
const RESERVED_TLDS = new Set(['test', 'example', 'localhost']);
const reserved = (domain: string) => RESERVED_TLDS.has(domain.split('.').pop() ?? '');

/** How long a domain may stay pending before it is failed. */
const PENDING_MS = 72 * 3_600_000;

const STALE = 'This domain changed since it was read. Reload and try again.';

/**
 * A domain is claimed by any number of organizations until one proves it owns it (the TXT
 * record): that one takes its platform-wide claim item (`MAILDOMAIN#<domain>`) in the verifying
 * transaction, and the others' records fail, saying why. Every organization's record of a domain
 * is on gsi1 under `MAILCLAIM#<domain>`.
 */
const claimIndex = (domain: string) => ({ gsi1pk: `${PREFIXES.mail.claimIndex}${domain}`, gsi1sk: 'MAILDOM' });

const claimsOf = (domain: string) =>
  queryAll<MailDomainRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :c',
    ExpressionAttributeValues: { ':c': claimIndex(domain).gsi1pk },
  });

const holderOf = (domain: string) => getItem<{ orgId: string }>(mailKeys.domainClaim(domain), true);

/** The organization's record, read consistently. */
const readDomain = (orgId: string, domain: string) => getItem<MailDomainRecord>(mailKeys.domain(orgId, domain), true);

/** Thrown inside a verify whose claim item another organization took first. */
class ClaimTaken extends Error {}

export interface PublishRecord {
  purpose: 'verification' | 'dkim' | 'spf' | 'dmarc' | 'mx';
  type: 'TXT' | 'CNAME' | 'MX';
  name: string;
  value: string;
  /** What the last check found (unchecked before the first). */
  found: boolean | null;
}

const verificationName = (domain: string) => `_platform-mail.${domain}`;
const verificationValue = (token: string) => `platform-mail-verification=${token}`;

/** The records a domain's owner publishes: ownership, Easy DKIM, SPF, DMARC, MX. */
export function recordsOf(d: MailDomainRecord, found: Partial<Record<string, boolean>> = {}): PublishRecord[] {
  const checked = (name: string) => (d.checkedAt === null ? null : (found[name] ?? d.status === 'verified'));
  return [
    {
      purpose: 'verification',
      type: 'TXT',
      name: verificationName(d.domain),
      value: verificationValue(d.verificationToken),
      found: checked('verification'),
    },
    ...d.dkimTokens.map((t) => ({
      purpose: 'dkim' as const,
      type: 'CNAME' as const,
      name: `${t}._domainkey.${d.domain}`,
      value: `${t}.dkim.amazonses.com`,
      found: null,
    })),
    { purpose: 'spf', type: 'TXT', name: d.domain, value: 'v=spf1 include:amazonses.com ~all', found: null },
    {
      purpose: 'dmarc',
      type: 'TXT',
      name: `_dmarc.${d.domain}`,
      value: `v=DMARC1; p=quarantine; rua=mailto:postmaster@${d.domain}`,
      found: null,
    },
    { purpose: 'mx', type: 'MX', name: d.domain, value: `10 ${inboundMxHost()}`, found: null },
  ];
}

export const shownDomain = (d: MailDomainRecord) => ({
  domain: d.domain,
  status: d.status,
  receiving: d.receiving,
  catchAll: d.catchAll,
  createdAt: d.createdAt,
  checkedAt: d.checkedAt,
  verifiedAt: d.verifiedAt,
  version: d.version,
  records: recordsOf(d),
  ...(d.message ? { message: d.message } : {}),
});

/**
 * Adds a domain, a claim of this organization that blocks no other (reserved names verify at once
 * and take the platform-wide claim now). 409 when another organization has verified it, or this
 * one has it already; 400 for a public suffix. Then its sending identity.
 */
export async function addDomain(orgId: string, domain: string): Promise<MailDomainRecord> {
  // The Public Suffix List is loaded by the add alone (out of the mail group's cold start).
  const { isPublicSuffix } = await import('../custom-domains/suffix');
  if (isPublicSuffix(domain)) throw invalid(CLAIM_MESSAGES.publicSuffix(domain));
  const holder = await holderOf(domain);
  if (holder && holder.orgId !== orgId) throw conflict(MAIL_MESSAGES.domainTaken);
  const now = Date.now();
  const { dkimTokens } = await mail().createDomain(domain);
  const verifiedAtOnce = reserved(domain);
  const record: MailDomainRecord = {
    orgId,
    domain,
    status: verifiedAtOnce ? 'verified' : 'pending',
    verificationToken: randomBytes(16).toString('hex'),
    dkimTokens,
    receiving: true,
    catchAll: null,
    createdAt: now,
    checkedAt: verifiedAtOnce ? now : null,
    verifiedAt: verifiedAtOnce ? now : null,
    version: 1,
  };
  const claimKey = mailKeys.domainClaim(domain);
  await transact(
    [
      verifiedAtOnce
        ? putNew({ ...claimKey, orgId, domain })
        : { ConditionCheck: { TableName: TABLE(), Key: claimKey, ConditionExpression: 'attribute_not_exists(pk)' } },
      putNew({ ...mailKeys.domain(orgId, domain), ...claimIndex(domain), ...record }),
    ],
    async () => {
      const claim = await holderOf(domain);
      return conflict(claim && claim.orgId !== orgId ? MAIL_MESSAGES.domainTaken : MAIL_MESSAGES.domainExists);
    },
  );
  return record;
}

export async function requireDomain(orgId: string, domain: string): Promise<MailDomainRecord> {
  const d = await getDomain(orgId, domain);
  if (!d) throw notFound(MAIL_MESSAGES.domainNotFound);
  return d;
}

/**
 * Checks the domain's TXT record now: verified when found, taking the domain's platform-wide
 * claim in the same transaction (other organizations' claims then fail); failed after 72 hours
 * pending, or at once when another organization verified it first.
 */
export async function verifyDomain(orgId: string, domain: string): Promise<MailDomainRecord> {
  const d = await requireDomain(orgId, domain);
  if (d.status === 'verified') return d;
  const now = Date.now();
  const holder = await holderOf(domain);
  if (holder && holder.orgId !== orgId) return claimedElsewhere(d, now);
  const txt = reserved(domain) ? [] : await dns().txt(verificationName(domain));
  const found = reserved(domain) || txt.includes(verificationValue(d.verificationToken));
  if (!found) {
    return updateVersioned<MailDomainRecord>(mailKeys.domain(orgId, domain), undefined, {
      status: now - d.createdAt > PENDING_MS ? 'failed' : 'pending',
      checkedAt: now,
      verifiedAt: null,
    });
  }
  const claimKey = mailKeys.domainClaim(domain);
  try {
    await transact(
      [
        holder
          ? {
              ConditionCheck: {
                TableName: TABLE(),
                Key: claimKey,
                ConditionExpression: 'orgId = :o',
                ExpressionAttributeValues: { ':o': orgId },
              },
            }
          : putNew({ ...claimKey, orgId, domain }),
        {
          Update: versionedUpdate(mailKeys.domain(orgId, domain), d.version, {
            status: 'verified',
            checkedAt: now,
            verifiedAt: now,
            message: undefined,
          }),
        },
      ],
      [() => new ClaimTaken(), STALE],
    );
  } catch (err) {
    if (err instanceof ClaimTaken) return claimedElsewhere(d, now);
    throw err;
  }
  await failOtherClaims(domain, orgId, now);
  return (await readDomain(orgId, domain)) as MailDomainRecord;
}

/** The claim fails: another organization verified the domain. */
function claimedElsewhere(d: MailDomainRecord, now: number): Promise<MailDomainRecord> {
  return updateVersioned<MailDomainRecord>(
    mailKeys.domain(d.orgId, d.domain),
    d.version,
    { status: 'failed', checkedAt: now, verifiedAt: null, message: CLAIM_MESSAGES.claimedElsewhere(d.domain) },
    STALE,
  );
}

/** Other organizations' claims of a domain just verified fail, each saying why (one that fails to write is logged). */
async function failOtherClaims(domain: string, winner: string, now: number): Promise<void> {
  for (const claim of await claimsOf(domain)) {
    if (claim.orgId === winner) continue;
    try {
      const current = await readDomain(claim.orgId, domain);
      if (current && current.status !== 'verified') await claimedElsewhere(current, now);
    } catch (err) {
      log.warn('mail domain claim not failed', { orgId: claim.orgId, domain, error: describeError(err) });
    }
  }
}

/** Receiving on or off; the catch-all mailbox (one of the organization's, or null). */
export async function updateDomain(
  orgId: string,
  domain: string,
  input: { receiving?: boolean; catchAll?: string | null; ifVersion?: number },
): Promise<MailDomainRecord> {
  await requireDomain(orgId, domain);
  if (input.catchAll) {
    const m = await getMailbox(orgId, input.catchAll);
    if (!m) throw notFound(MAIL_MESSAGES.catchAllNotFound);
  }
  return updateVersioned<MailDomainRecord>(
    mailKeys.domain(orgId, domain),
    input.ifVersion,
    definedOnly({ receiving: input.receiving, catchAll: input.catchAll }),
    STALE,
  );
}

/** Fields given (updateVersioned removes an attribute set to undefined). */
export const definedOnly = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

/**
 * Removes the organization's record and, when it holds it, the domain's claim; the sending
 * identity goes too unless another organization still has a record of the domain. Its mailboxes
 * stay (they can no longer send).
 */
export async function removeDomain(orgId: string, domain: string): Promise<void> {
  await requireDomain(orgId, domain);
  const shared = (await claimsOf(domain)).some((c) => c.orgId !== orgId);
  if (!shared) await mail().deleteDomain(domain);
  await deleteMany([mailKeys.domain(orgId, domain)]);
  try {
    await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: mailKeys.domainClaim(domain),
        ConditionExpression: 'orgId = :o',
        ExpressionAttributeValues: { ':o': orgId },
      }),
    );
  } catch (err) {
    // Another organization's claim (or none) stays as it is.
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/** What a mailbox may send from: its domain still the organization's and verified. */
export async function requireSendingDomain(orgId: string, domain: string): Promise<MailDomainRecord> {
  const d = await getDomain(orgId, domain);
  if (!d) throw conflict(MAIL_MESSAGES.domainRemoved);
  if (d.status !== 'verified') throw conflict(MAIL_MESSAGES.notVerified(domain));
  return d;
}
