import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand, QueryCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll } from '../../kernel/store/ops';
import { TABLE } from '../../kernel/store/table';
import { contactKeys } from './records';

/**
 * What contacts programs (CardDAV, shared/domains/dav) need of an address book's history beyond
 * its contacts, in the mailbox's partition:
 *
 * | record | sk | notes |
 * |---|---|---|
 * | a tombstone: a deleted contact | `CTS#GONE#<addressBookId>#<at>#<contactId>` | `name`, `at`; gone by TTL after 30 days |
 * | a program's name for a contact | `CTS#NAME#<addressBookId>#<name>` | `contactId`: the program PUT it at `<name>` |
 *
 * A contact's name in its address book is the program's (`dav`, kept on the contact) or
 * `<contactId>.vcf`. Every write stamps the contact's `updatedAt`; an address book's changes since
 * an instant are its contacts updated since then and its tombstones since then. Written by
 * ./contacts.ts's delete, whoever deletes (the API or a program), so no change escapes the log.
 */
export const CARD_TOMBSTONE_DAYS = 30;
const { pk } = contactKeys;
const stamp = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

export const CARD_CHANGE_KEYS = {
  gonePrefix: (addressBookId: string) => `${PREFIXES.contacts.gone}${addressBookId}#`,
  name: (mailboxId: string, addressBookId: string, name: string) => ({
    pk: pk(mailboxId),
    sk: `${PREFIXES.contacts.name}${addressBookId}#${name}`,
  }),
};

interface Named {
  mailboxId: string;
  contactId: string;
  addressBookId: string;
  /** A contacts program's name for it. */
  davName?: string;
}

/** The contact's name in its address book (`<name>` of its URL). */
export const cardNameOf = (c: Named) => c.davName ?? `${c.contactId}.vcf`;

/** Records that `c` left its address book (deleted). */
export async function recordCardGone(c: Named): Promise<void> {
  const at = Date.now();
  await db.send(
    new PutCommand({
      TableName: TABLE(),
      Item: {
        pk: pk(c.mailboxId),
        sk: `${CARD_CHANGE_KEYS.gonePrefix(c.addressBookId)}${stamp(at)}#${c.contactId}`,
        contactId: c.contactId,
        name: cardNameOf(c),
        at,
        ttl: Math.floor(at / 1000) + CARD_TOMBSTONE_DAYS * 86_400,
      },
    }),
  );
  if (c.davName) {
    await db.send(
      new DeleteCommand({ TableName: TABLE(), Key: CARD_CHANGE_KEYS.name(c.mailboxId, c.addressBookId, c.davName) }),
    );
  }
}

/** The tombstones of an address book since `since` (UTC ms), oldest first. */
export async function cardsGoneSince(
  mailboxId: string,
  addressBookId: string,
  since: number,
): Promise<{ contactId: string; name: string; at: number }[]> {
  const prefix = CARD_CHANGE_KEYS.gonePrefix(addressBookId);
  return queryAll<{ contactId: string; name: string; at: number }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk(mailboxId), ':from': `${prefix}${stamp(since)}`, ':to': `${prefix}~` },
    ProjectionExpression: 'contactId, #n, #at',
    ExpressionAttributeNames: { '#n': 'name', '#at': 'at' },
  });
}

/** The latest tombstone's instant of an address book (0: none). */
export async function lastCardGone(mailboxId: string, addressBookId: string): Promise<number> {
  const prefix = CARD_CHANGE_KEYS.gonePrefix(addressBookId);
  const page = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :p AND :end',
      ExpressionAttributeValues: { ':pk': pk(mailboxId), ':p': prefix, ':end': `${prefix}~` },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  return (page.Items?.[0]?.at as number | undefined) ?? 0;
}
