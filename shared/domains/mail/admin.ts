import { artifactsBucket } from '../../kernel/config';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, putNew, TABLE, versionedUpdate } from '../../kernel/store/table';
import { storage } from '../../ports/object-storage';
import { definedOnly } from './domains';
import {
  DEFAULT_SETTINGS,
  domainOf,
  getDomain,
  MAIL_MESSAGES,
  type MailboxRecord,
  mailKeys,
  orgMembers,
  resolveMembers,
} from './records';

/** An address's claim: which mailbox of which organization it reaches. */
export interface AddressClaim {
  address: string;
  orgId: string;
  mailboxId: string;
  kind: 'primary' | 'alias';
}

export const shownMailbox = (m: MailboxRecord) => ({
  mailboxId: m.mailboxId,
  address: m.address,
  name: m.name,
  kind: m.kind,
  members: m.members,
  aliases: m.aliases,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
  version: m.version,
});

/**
 * An address on one of the organization's domains (400 otherwise) that it has verified (409
 * otherwise): addresses are claimed platform-wide and reach their mailbox, so an unproven claim of
 * a domain must not take the addresses of whoever owns it.
 */
async function requireOrgAddress(orgId: string, address: string): Promise<string> {
  const domain = domainOf(address);
  const record = await getDomain(orgId, domain);
  if (!record) throw invalid(MAIL_MESSAGES.notOrgDomain);
  if (record.status !== 'verified') throw conflict(MAIL_MESSAGES.addressesNeedVerified(domain));
  return domain;
}

const claim = (c: AddressClaim) => putNew({ ...mailKeys.address(c.address), ...c });

export async function createMailbox(
  orgId: string,
  input: { address: string; name: string; members: string[]; kind: MailboxRecord['kind'] },
): Promise<MailboxRecord> {
  const address = input.address.toLowerCase();
  const domain = await requireOrgAddress(orgId, address);
  const members = await resolveMembers(orgId, input.members);
  const now = Date.now();
  const mailbox: MailboxRecord = {
    orgId,
    mailboxId: newId('mbx_', now),
    address,
    domain,
    name: input.name,
    kind: input.kind,
    members,
    aliases: [],
    settings: DEFAULT_SETTINGS,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await transact(
    [
      claim({ address, orgId, mailboxId: mailbox.mailboxId, kind: 'primary' }),
      putNew({ ...mailKeys.mailbox(orgId, mailbox.mailboxId), ...mailbox }),
    ],
    [MAIL_MESSAGES.addressTaken],
  );
  return mailbox;
}

export async function updateMailbox(
  orgId: string,
  mailboxId: string,
  input: { name?: string; members?: string[]; ifVersion?: number },
): Promise<MailboxRecord> {
  const current = await getItem<MailboxRecord>(mailKeys.mailbox(orgId, mailboxId));
  if (!current || current.deleting) throw notFound(MAIL_MESSAGES.mailboxNotFound);
  const members = input.members ? await resolveMembers(orgId, input.members) : undefined;
  return updateVersioned<MailboxRecord>(
    mailKeys.mailbox(orgId, mailboxId),
    input.ifVersion,
    definedOnly({ name: input.name, members, updatedAt: Date.now() }),
    MAIL_MESSAGES.stale,
  );
}

export async function addAlias(orgId: string, mailboxId: string, alias: string): Promise<MailboxRecord> {
  const address = alias.toLowerCase();
  await requireOrgAddress(orgId, address);
  const current = await getItem<MailboxRecord>(mailKeys.mailbox(orgId, mailboxId));
  if (!current || current.deleting) throw notFound(MAIL_MESSAGES.mailboxNotFound);
  await transact(
    [
      claim({ address, orgId, mailboxId, kind: 'alias' }),
      {
        Update: versionedUpdate(mailKeys.mailbox(orgId, mailboxId), current.version, {
          aliases: [...current.aliases, address],
          updatedAt: Date.now(),
        }),
      },
    ],
    [MAIL_MESSAGES.addressTaken, MAIL_MESSAGES.stale],
  );
  return { ...current, aliases: [...current.aliases, address], version: current.version + 1 };
}

export async function removeAlias(orgId: string, alias: string): Promise<void> {
  const address = alias.toLowerCase();
  const c = await getItem<AddressClaim>(mailKeys.address(address), true);
  if (!c || c.orgId !== orgId || c.kind !== 'alias') throw notFound(MAIL_MESSAGES.aliasNotFound);
  const mailbox = await getItem<MailboxRecord>(mailKeys.mailbox(orgId, c.mailboxId));
  const items: Parameters<typeof transact>[0] = [
    {
      Delete: {
        TableName: TABLE(),
        Key: mailKeys.address(address),
        ConditionExpression: 'mailboxId = :m',
        ExpressionAttributeValues: { ':m': c.mailboxId },
      },
    },
  ];
  if (mailbox) {
    items.push({
      Update: versionedUpdate(mailKeys.mailbox(orgId, c.mailboxId), mailbox.version, {
        aliases: mailbox.aliases.filter((a) => a !== address),
        updatedAt: Date.now(),
      }),
    });
  }
  await transact(items, [MAIL_MESSAGES.aliasNotFound, MAIL_MESSAGES.stale]);
}

/** The mailbox an address reaches on the platform, if any. */
export const addressClaim = (address: string) => getItem<AddressClaim>(mailKeys.address(address));

/** Where a mailbox's objects are kept (the artifacts bucket): raw messages, attachments, uploads. */
export const mailFolder = (mailboxId: string) => `mail/${mailboxId}/`;

/**
 * Deletes a mailbox in steps safe to repeat: hidden at once (routes answer 404), its addresses
 * freed, its mail and objects removed, then its record. A step that fails leaves the mark, and
 * the same DELETE finishes it.
 */
export async function deleteMailbox(orgId: string, mailboxId: string): Promise<void> {
  const m = await getItem<MailboxRecord>(mailKeys.mailbox(orgId, mailboxId), true);
  if (!m) throw notFound(MAIL_MESSAGES.mailboxNotFound);
  if (!m.deleting) {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: mailKeys.mailbox(orgId, mailboxId),
        UpdateExpression: 'SET deleting = :t',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
  }
  const addresses = [m.address, ...m.aliases];
  const claims = await Promise.all(addresses.map((a) => getItem<AddressClaim>(mailKeys.address(a), true)));
  await deleteMany(addresses.filter((_, i) => claims[i]?.mailboxId === mailboxId).map((a) => mailKeys.address(a)));
  // The mailbox's partition: threads, messages, labels, drafts, indexes, counters.
  const items = await queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `${PREFIXES.mail.mailbox}${mailboxId}` },
    ProjectionExpression: 'pk, sk',
  });
  await deleteMany(items);
  const bucket = { name: artifactsBucket() };
  let token: string | undefined;
  do {
    const page = await storage().listKeys(bucket, mailFolder(mailboxId), 1000, token);
    if (page.keys.length > 0)
      await storage().deleteKeys(
        bucket,
        page.keys.map((k) => k.key),
      );
    token = page.truncated ? page.nextToken : undefined;
  } while (token);
  await deleteMany([mailKeys.mailbox(orgId, mailboxId)]);
}

/** The organization's members, each with the mailboxes they belong to. */
export async function membersWithMailboxes(orgId: string, mailboxes: MailboxRecord[]) {
  const members = await orgMembers(orgId);
  return [...members.values()].map((m) => ({
    userId: m.userId,
    email: m.email ?? null,
    name: m.name ?? null,
    role: m.role,
    mailboxes: mailboxes
      .filter((b) => b.members.includes(m.userId))
      .map((b) => ({ mailboxId: b.mailboxId, address: b.address })),
  }));
}
