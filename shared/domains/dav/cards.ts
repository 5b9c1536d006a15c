import { DomainError, invalid } from '../../kernel/ground/errors';
import { isPlainText } from '../../kernel/ground/text';
import { db } from '../../kernel/store/client';
import { PutCommand } from '../../kernel/store/commands';
import { getItem, TABLE } from '../../kernel/store/table';
import { CARD_CHANGE_KEYS, cardNameOf, cardsGoneSince } from '../contacts/changes';
import {
  contactsOf,
  deleteContact,
  EMPTY_CONTACT,
  getContact,
  merge,
  newContact,
  putContact,
  replaceContact,
  uidsOf,
} from '../contacts/contacts';
import { checkPhoto, deletePhoto, setPhoto } from '../contacts/photos';
import type { ContactRecord } from '../contacts/records';
import { cardToContact, parseCard, splitCards } from '../contacts/vcard-in';
import { contactToVCard, type VCardVersion } from '../contacts/vcard-out';
import { getObject } from '../mail/objects';
import { checkPreconditions, DAV_CALENDAR_MESSAGES } from './calendars';
import { NS, qname } from './xml';

/**
 * An address book's contacts as CardDAV objects (RFC 6352), the API's records themselves: each
 * contact is one vCard named by the program that PUT it, or `<contactId>.vcf`. A PUT is read by
 * the contacts' vCard reader (2.1, 3.0, 4.0; inline photos), held to the API's rules (a contact
 * needs a name, an organization, an email or a phone; plain text; dates; photos of at most 1 MB),
 * and written with the contacts' own writes. Answered as vCard 3.0, or 4.0 when asked.
 */
export const MAX_VCF_BYTES = 2 * 1024 * 1024;

export const DAV_CARD_MESSAGES = {
  notVCard: 'The body is not a vCard (BEGIN:VCARD … END:VCARD).',
  oneCard: 'An address book object holds one vCard.',
  noUid: 'A vCard needs a UID.',
  uidChanged: "An object's UID can't change: PUT the contact under a new name.",
  uidTaken: 'A contact with this UID is already in this address book, at another URL.',
  control: 'Control characters are not allowed in a contact.',
  tooLarge: `An address book object can be at most ${MAX_VCF_BYTES} bytes.`,
  notFound: 'No such address book object.',
} as const;

const cond = (name: string) => ({ condition: qname(NS.carddav, name) });

export const etagOfCard = (c: Pick<ContactRecord, 'version' | 'updatedAt'>) =>
  `"${c.version}-${c.updatedAt.toString(36)}"`;

export { cardNameOf };

export const cardsIn = (mailboxId: string, addressBookId: string) => contactsOf(mailboxId, addressBookId);

const CARD_NAME = /^(ctc_[0-9a-z]{26})\.vcf$/;

export async function cardNamed(
  mailboxId: string,
  addressBookId: string,
  name: string,
): Promise<ContactRecord | undefined> {
  const own = CARD_NAME.exec(name);
  const contactId =
    own?.[1] ??
    (await getItem<{ contactId: string }>(CARD_CHANGE_KEYS.name(mailboxId, addressBookId, name), true))?.contactId;
  if (!contactId) return undefined;
  const c = await getContact(mailboxId, contactId, addressBookId).catch(() => undefined);
  return c && cardNameOf(c) === name ? c : undefined;
}

/** The object's text: the contact as vCard `version`, its photo inline. */
export async function vcardOf(c: ContactRecord, version: VCardVersion = '3.0'): Promise<string> {
  const photo = c.photoKey ? await getObject(c.photoKey) : undefined;
  return contactToVCard(c, version, photo);
}

/** The one card of a PUT's text, held to the API's limits. */
export function readCard(text: string) {
  if (Buffer.byteLength(text) > MAX_VCF_BYTES)
    throw new DomainError('forbidden', DAV_CARD_MESSAGES.tooLarge, cond('max-resource-size'));
  const cards = splitCards(text);
  if (cards.length === 0) throw invalid(DAV_CARD_MESSAGES.notVCard, cond('valid-address-data'));
  if (cards.length > 1) throw invalid(DAV_CARD_MESSAGES.oneCard, cond('valid-address-data'));
  const parsed = parseCard(cards[0] as (typeof cards)[number]);
  if ('error' in parsed) throw invalid(`The vCard can't be read: ${parsed.error}`, cond('valid-address-data'));
  const card = cardToContact(parsed.props);
  if (!card.uid) throw invalid(DAV_CARD_MESSAGES.noUid, cond('valid-address-data'));
  const strings: string[] = [card.uid];
  const walk = (v: unknown) => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(card.input);
  if (strings.some((s) => !isPlainText(s))) throw invalid(DAV_CARD_MESSAGES.control, cond('valid-address-data'));
  // The contact's own rules (a name or something to reach it by; dates) before anything is written.
  merge(EMPTY_CONTACT, card.input);
  return card as typeof card & { uid: string };
}

/** Writes a PUT's card at `name`: a new contact (its UID new to the address book), or the one there. */
export async function putCardObject(
  mailboxId: string,
  addressBookId: string,
  name: string,
  card: ReturnType<typeof readCard>,
  conditions: { ifMatch?: string; ifNoneMatch?: string },
): Promise<{ created: boolean }> {
  const existing = await cardNamed(mailboxId, addressBookId, name);
  checkPreconditions(existing ? etagOfCard(existing) : undefined, conditions.ifMatch, conditions.ifNoneMatch);
  if (existing && existing.uid !== card.uid)
    throw new DomainError('forbidden', DAV_CARD_MESSAGES.uidChanged, cond('no-uid-conflict'));
  let record: ContactRecord;
  if (existing) {
    const fields = merge(EMPTY_CONTACT, card.input);
    const { birthday: _b, anniversary: _a, ...kept } = existing;
    record = await replaceContact(existing, { ...kept, ...fields });
  } else {
    if ((await uidsOf(mailboxId, addressBookId)).has(card.uid))
      throw new DomainError('forbidden', DAV_CARD_MESSAGES.uidTaken, cond('no-uid-conflict'));
    const fresh = newContact(mailboxId, addressBookId, card.input, card.uid);
    if (name !== `${fresh.contactId}.vcf`) {
      fresh.davName = name;
      await db.send(
        new PutCommand({
          TableName: TABLE(),
          Item: { ...CARD_CHANGE_KEYS.name(mailboxId, addressBookId, name), contactId: fresh.contactId },
        }),
      );
    }
    record = await putContact(fresh);
  }
  if (card.photo) await setPhoto(record, card.photo, checkPhoto(card.photo));
  else if (record.photoKey) await deletePhoto(mailboxId, record.contactId);
  return { created: !existing };
}

export async function deleteCardObject(
  mailboxId: string,
  addressBookId: string,
  name: string,
  conditions: { ifMatch?: string },
): Promise<void> {
  const existing = await cardNamed(mailboxId, addressBookId, name);
  if (!existing) {
    if (conditions.ifMatch !== undefined) throw new DomainError('precondition', DAV_CALENDAR_MESSAGES.stale);
    throw new DomainError('notFound', DAV_CARD_MESSAGES.notFound);
  }
  checkPreconditions(etagOfCard(existing), conditions.ifMatch);
  await deleteContact(mailboxId, addressBookId, existing.contactId);
}

/** An address book's changes since `since`: the contacts updated since, and the names that left it. */
export async function bookChanges(mailboxId: string, addressBookId: string, since: number) {
  const [cards, gone] = await Promise.all([
    cardsIn(mailboxId, addressBookId),
    cardsGoneSince(mailboxId, addressBookId, since),
  ]);
  const present = new Set(cards.map(cardNameOf));
  return {
    changed: cards.filter((c) => c.updatedAt >= since),
    gone: [...new Set(gone.map((g) => g.name))].filter((n) => !present.has(n)),
  };
}

/** An addressbook-query's text match (RFC 6352 10.5), on the properties the platform keeps. */
export interface CardFilter {
  anyOf: boolean;
  props: { name: string; text?: string; match: 'contains' | 'equals' | 'starts-with' | 'ends-with'; negate: boolean }[];
}

const CARD_PROP: Record<string, (c: ContactRecord) => string[]> = {
  UID: (c) => [c.uid],
  FN: (c) => [c.fullName],
  NICKNAME: (c) => (c.nickname ? [c.nickname] : []),
  EMAIL: (c) => c.emails.map((e) => e.value),
  TEL: (c) => c.phones.map((p) => p.value),
  ORG: (c) => (c.organization ? [c.organization] : []),
  N: (c) => [[c.name.family, c.name.given].join(';')],
};

export function matchesCard(c: ContactRecord, f: CardFilter): boolean {
  if (f.props.length === 0) return true;
  const test = (p: CardFilter['props'][number]) => {
    const values = (CARD_PROP[p.name]?.(c) ?? []).map((v) => v.toLowerCase());
    if (p.text === undefined) return values.length > 0;
    const t = p.text.toLowerCase();
    const hit = values.some((v) =>
      p.match === 'equals'
        ? v === t
        : p.match === 'starts-with'
          ? v.startsWith(t)
          : p.match === 'ends-with'
            ? v.endsWith(t)
            : v.includes(t),
    );
    return hit !== p.negate;
  };
  return f.anyOf ? f.props.some(test) : f.props.every(test);
}
