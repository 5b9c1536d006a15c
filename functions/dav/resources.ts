import { lastGone } from '../../shared/domains/calendar/changes';
import { type CalEvent, type CalendarRecord, getCalendar, listCalendars } from '../../shared/domains/calendar/records';
import { getBook, listBooks } from '../../shared/domains/contacts/books';
import { lastCardGone } from '../../shared/domains/contacts/changes';
import type { AddressBookRecord, ContactRecord } from '../../shared/domains/contacts/records';
import { aliasesOf, aliasOf } from '../../shared/domains/dav/aliases';
import { etagOfEvent, eventNamed, eventsIn, objectNameOf } from '../../shared/domains/dav/calendars';
import { cardNamed, cardNameOf, cardsIn, etagOfCard } from '../../shared/domains/dav/cards';
import {
  type Kind,
  type Place,
  parseSegment,
  placeOf,
  placesOf,
  roleAllows,
  type Signed,
  segmentOf,
} from '../../shared/domains/dav/places';
import { ctagOf, syncTokenOf } from '../../shared/domains/dav/sync';

/**
 * The resources of the DAV tree and how a path finds them:
 *
 * | path | resource |
 * |---|---|
 * | `/dav/` | the root (where programs start: it names the principal) |
 * | `/dav/principals/<userId>/` | the signed-in person |
 * | `/dav/calendars/`, `/dav/addressbooks/` | the person's homes |
 * | `/dav/calendars/<orgId>.<mailboxId>.<calendarId>/` | a calendar of a mailbox of theirs |
 * | `/dav/calendars/…/<name>` | an event (`.ics`) |
 * | `/dav/addressbooks/<orgId>.<mailboxId>.<addressBookId>/` | an address book |
 * | `/dav/addressbooks/…/<name>` | a contact (`.vcf`) |
 */
export const ROOT = '/dav/';
export const principalHref = (s: Signed) => `/dav/principals/${s.userId}/`;
export const HOME: Record<Kind, string> = { calendars: '/dav/calendars/', contacts: '/dav/addressbooks/' };

export type DavNode =
  | { kind: 'root' | 'principals' | 'principal'; href: string }
  | { kind: 'home'; of: Kind; href: string }
  | { kind: 'calendar'; href: string; place: Place; calendar: CalendarRecord; multi: boolean }
  | { kind: 'event'; href: string; place: Place; calendar: CalendarRecord; name: string; event?: CalEvent }
  | { kind: 'book'; href: string; place: Place; book: AddressBookRecord; multi: boolean }
  | { kind: 'card'; href: string; place: Place; book: AddressBookRecord; name: string; card?: ContactRecord };

export const encodeName = (name: string) => encodeURIComponent(name).replace(/%40/g, '@');

/** Path segments, decoded; undefined when one is not valid percent-encoding. */
export function segmentsOf(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** What a path names for the signed-in person; undefined: nothing (404). `objectName`: a member not yet there. */
export async function resolve(s: Signed, segs: string[]): Promise<DavNode | undefined> {
  const [top, second, third, ...rest] = segs.slice(1);
  if (segs[0] !== 'dav' || rest.length > 0) return undefined;
  if (top === undefined) return { kind: 'root', href: ROOT };
  if (top === 'principals') {
    if (second === undefined) return { kind: 'principals', href: '/dav/principals/' };
    return second === s.userId && third === undefined ? { kind: 'principal', href: principalHref(s) } : undefined;
  }
  const kind: Kind | undefined = top === 'calendars' ? 'calendars' : top === 'addressbooks' ? 'contacts' : undefined;
  if (!kind) return undefined;
  if (second === undefined) return { kind: 'home', of: kind, href: HOME[kind] };
  const alias = kind === 'calendars' && !parseSegment(second) ? await aliasOf(s.userId, second) : undefined;
  const seg = alias ? { orgId: alias.orgId, mailboxId: alias.mailboxId, id: alias.calendarId } : parseSegment(second);
  if (!seg) return undefined;
  const place = await placeOf(s.userId, seg.orgId, seg.mailboxId);
  if (!place || !roleAllows(place, kind, false)) return undefined;
  const href = `${HOME[kind]}${encodeName(second)}/`;
  if (kind === 'calendars') {
    if (!seg.id.startsWith('cal_')) return undefined;
    const calendar = await getCalendar(place.mailbox.mailboxId, seg.id).catch(() => undefined);
    if (!calendar) return undefined;
    if (third === undefined) return { kind: 'calendar', href, place, calendar, multi: false };
    return { kind: 'event', href: `${href}${encodeName(third)}`, place, calendar, name: third };
  }
  if (!seg.id.startsWith('abk_')) return undefined;
  const book = await getBook(place.mailbox.mailboxId, seg.id).catch(() => undefined);
  if (!book) return undefined;
  if (third === undefined) return { kind: 'book', href, place, book, multi: false };
  return { kind: 'card', href: `${href}${encodeName(third)}`, place, book, name: third };
}

/** The calendars of a home: every mailbox's, named with the mailbox's address when there are several. */
export async function calendarsOf(s: Signed): Promise<DavNode[]> {
  const [places, aliases] = await Promise.all([placesOf(s.userId, 'calendars'), aliasesOf(s.userId)]);
  const named = new Map(aliases.map((a) => [`${a.mailboxId}/${a.calendarId}`, a.name]));
  const multi = places.length > 1;
  const lists = await Promise.all(places.map((p) => listCalendars(p.mailbox.mailboxId)));
  return places.flatMap((place, i) =>
    (lists[i] ?? []).map((calendar) => ({
      kind: 'calendar' as const,
      href: `${HOME.calendars}${encodeName(named.get(`${place.mailbox.mailboxId}/${calendar.calendarId}`) ?? segmentOf(place, calendar.calendarId))}/`,
      place,
      calendar,
      multi,
    })),
  );
}

export async function booksOf(s: Signed): Promise<DavNode[]> {
  const places = await placesOf(s.userId, 'contacts');
  const multi = places.length > 1;
  const lists = await Promise.all(places.map((p) => listBooks(p.mailbox.mailboxId)));
  return places.flatMap((place, i) =>
    (lists[i] ?? []).map((book) => ({
      kind: 'book' as const,
      href: `${HOME.contacts}${segmentOf(place, book.addressBookId)}/`,
      place,
      book,
      multi,
    })),
  );
}

/** A collection's members with their names, ETags, the ctag and the sync token. */
export interface Members {
  events?: CalEvent[];
  cards?: ContactRecord[];
  ctag: string;
  token: string;
}

export async function membersOf(r: DavNode): Promise<Members | undefined> {
  if (r.kind === 'calendar') {
    const mailboxId = r.place.mailbox.mailboxId;
    const [events, gone] = await Promise.all([
      eventsIn(mailboxId, r.calendar.calendarId),
      lastGone(mailboxId, r.calendar.calendarId),
    ]);
    return {
      events,
      ctag: ctagOf(events.map((e) => ({ name: objectNameOf(e), etag: etagOfEvent(e) }))),
      token: syncTokenOf([gone, r.calendar.createdAt, ...events.map((e) => e.updatedAt)]),
    };
  }
  if (r.kind === 'book') {
    const mailboxId = r.place.mailbox.mailboxId;
    const [cards, gone] = await Promise.all([
      cardsIn(mailboxId, r.book.addressBookId),
      lastCardGone(mailboxId, r.book.addressBookId),
    ]);
    return {
      cards,
      ctag: ctagOf(cards.map((c) => ({ name: cardNameOf(c), etag: etagOfCard(c) }))),
      token: syncTokenOf([gone, r.book.createdAt, ...cards.map((c) => c.updatedAt)]),
    };
  }
  return undefined;
}

/** The member resources of a calendar or an address book. */
export function memberResources(r: DavNode, m: Members): DavNode[] {
  if (r.kind === 'calendar')
    return (m.events ?? []).map((event) => {
      const name = objectNameOf(event);
      return { kind: 'event', href: `${r.href}${encodeName(name)}`, place: r.place, calendar: r.calendar, name, event };
    });
  if (r.kind === 'book')
    return (m.cards ?? []).map((card) => {
      const name = cardNameOf(card);
      return { kind: 'card', href: `${r.href}${encodeName(name)}`, place: r.place, book: r.book, name, card };
    });
  return [];
}

/** Loads an object resource's record (undefined: not there). */
export async function loaded(r: DavNode): Promise<DavNode | undefined> {
  if (r.kind === 'event') {
    const event = r.event ?? (await eventNamed(r.place.mailbox.mailboxId, r.calendar.calendarId, r.name));
    return event ? { ...r, event } : undefined;
  }
  if (r.kind === 'card') {
    const card = r.card ?? (await cardNamed(r.place.mailbox.mailboxId, r.book.addressBookId, r.name));
    return card ? { ...r, card } : undefined;
  }
  return r;
}
