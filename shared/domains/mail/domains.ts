import { randomBytes } from 'node:crypto';
import { conflict, notFound } from '../../kernel/ground/errors';
import { deleteMany, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, putNew } from '../../kernel/store/table';
import { lookup } from '../../ports/dns';
import { inboundMxHost, mail } from '../../ports/mail-transport';
import { getDomain, getMailbox, type MailDomain, MM, mailKeys } from './records';

/** Top-level names no one can register: domains under them verify at once (tests, examples, this machine). */
const RESERVED_TLDS = new Set(['test', 'example', 'localhost']);
const reserved = (domain: string) => RESERVED_TLDS.has(domain.split('.').pop() ?? '');

/** How long a domain may stay pending before it is failed. */
const PENDING_MS = 72 * 3_600_000;

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
export function recordsOf(d: MailDomain, found: Partial<Record<string, boolean>> = {}): PublishRecord[] {
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

export const shownDomain = (d: MailDomain) => ({
  domain: d.domain,
  status: d.status,
  receiving: d.receiving,
  catchAll: d.catchAll,
  createdAt: d.createdAt,
  checkedAt: d.checkedAt,
  verifiedAt: d.verifiedAt,
  version: d.version,
  records: recordsOf(d),
});

/**
 * Adds a domain: its platform-wide claim and the organization's record in one transaction (a domain
 * held by another organization is 409), then its sending identity. Reserved names verify at once.
 */
export async function addDomain(orgId: string, domain: string): Promise<MailDomain> {
  const now = Date.now();
  const { dkimTokens } = await mail().createDomain(domain);
  const verifiedAtOnce = reserved(domain);
  const record: MailDomain = {
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
  await transact(
    [
      putNew({ ...mailKeys.domainClaim(domain), orgId, domain }),
      putNew({ ...mailKeys.domain(orgId, domain), ...record }),
    ],
    async () => {
      const claim = await getItem<{ orgId: string }>(mailKeys.domainClaim(domain), true);
      return conflict(claim && claim.orgId !== orgId ? MM.domainTaken : MM.domainExists);
    },
  );
  return record;
}

export async function requireDomain(orgId: string, domain: string): Promise<MailDomain> {
  const d = await getDomain(orgId, domain);
  if (!d) throw notFound(MM.domainNotFound);
  return d;
}

/** Checks the domain's TXT record now: verified when found; failed after 72 hours pending. */
export async function verifyDomain(orgId: string, domain: string): Promise<MailDomain> {
  const d = await requireDomain(orgId, domain);
  if (d.status === 'verified') return d;
  const now = Date.now();
  const txt = reserved(domain) ? [] : await lookup().txt(verificationName(domain));
  const found = reserved(domain) || txt.includes(verificationValue(d.verificationToken));
  const status = found ? 'verified' : now - d.createdAt > PENDING_MS ? 'failed' : 'pending';
  return updateVersioned<MailDomain>(mailKeys.domain(orgId, domain), undefined, {
    status,
    checkedAt: now,
    verifiedAt: found ? now : null,
  });
}

/** Receiving on or off; the catch-all mailbox (one of the organization's, or null). */
export async function updateDomain(
  orgId: string,
  domain: string,
  input: { receiving?: boolean; catchAll?: string | null; ifVersion?: number },
): Promise<MailDomain> {
  await requireDomain(orgId, domain);
  if (input.catchAll) {
    const m = await getMailbox(orgId, input.catchAll);
    if (!m) throw notFound(MM.catchAllNotFound);
  }
  return updateVersioned<MailDomain>(
    mailKeys.domain(orgId, domain),
    input.ifVersion,
    definedOnly({ receiving: input.receiving, catchAll: input.catchAll }),
    'This domain changed since it was read. Reload and try again.',
  );
}

/** Fields given (updateVersioned removes an attribute set to undefined). */
export const definedOnly = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

/** Removes the domain, its claim and its sending identity; its mailboxes stay (they can no longer send). */
export async function removeDomain(orgId: string, domain: string): Promise<void> {
  await requireDomain(orgId, domain);
  await mail().deleteDomain(domain);
  await deleteMany([mailKeys.domain(orgId, domain), mailKeys.domainClaim(domain)]);
}

/** What a mailbox may send from: its domain still the organization's and verified. */
export async function requireSendingDomain(orgId: string, domain: string): Promise<MailDomain> {
  const d = await getDomain(orgId, domain);
  if (!d) throw conflict(MM.domainRemoved);
  if (d.status !== 'verified') throw conflict(MM.notVerified(domain));
  return d;
}
