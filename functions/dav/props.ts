import { etagOfEvent, expandedIcs, icsOfEvent, MAX_ICS_BYTES } from '../../shared/domains/dav/calendars';
import { etagOfCard, MAX_VCF_BYTES, vcardOf } from '../../shared/domains/dav/cards';
import type { Signed } from '../../shared/domains/dav/places';
import { roleAllows } from '../../shared/domains/dav/places';
import { child, el, escapeXml, NS, qname, text, type XNode } from '../../shared/domains/dav/xml';
import { type DavNode, HOME, type Members, principalHref } from './resources';

/**
 * The properties of each resource (RFC 4918, 4791, 6352, 5397 current-user-principal, 6578
 * sync-token, and the ctag and calendar-color of CalendarServer and Apple that programs ask for):
 * a property the resource has is answered 200 with its value, any other 404.
 */
export const COLOR_HEX: Record<string, string> = {
  blue: '#3B82F6FF',
  orange: '#F97316FF',
  teal: '#14B8A6FF',
  amber: '#F59E0BFF',
  pink: '#EC4899FF',
  green: '#22C55EFF',
  red: '#EF4444FF',
  gray: '#6B7280FF',
};

/** The nearest of the platform's colors to a program's `#RRGGBB[AA]`. */
export function nearestColor(hex: string): string | undefined {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(hex.trim());
  if (!m) return undefined;
  const rgb = [m[1], m[2], m[3]].map((x) => Number.parseInt(x as string, 16));
  let best: [string, number] | undefined;
  for (const [name, value] of Object.entries(COLOR_HEX)) {
    const c = [1, 3, 5].map((i) => Number.parseInt(value.slice(i, i + 2), 16));
    const d = c.reduce((sum, v, i) => sum + (v - (rgb[i] as number)) ** 2, 0);
    if (!best || d < best[1]) best = [name, d];
  }
  return best?.[0];
}

export interface PropContext {
  signed: Signed;
  members?: Members;
  /** calendar-data's `expand` of a REPORT: occurrences in that range, in UTC. */
  expand?: { from: number; to: number };
  /** address-data's vCard version asked. */
  vcardVersion?: '3.0' | '4.0';
}

const href = (h: string) => text(NS.dav, 'href', h);
const collection = el(NS.dav, 'collection');
const privileges = (write: boolean) =>
  [
    el(NS.dav, 'privilege', el(NS.dav, 'read')),
    el(NS.dav, 'privilege', el(NS.dav, 'read-current-user-privilege-set')),
    ...(write
      ? ['write', 'write-properties', 'write-content', 'bind', 'unbind'].map((p) =>
          el(NS.dav, 'privilege', el(NS.dav, p)),
        )
      : []),
  ].join('');
const reports = (names: [string, string][]) =>
  names.map(([ns, n]) => el(NS.dav, 'supported-report', el(NS.dav, 'report', el(ns, n)))).join('');

const canWrite = (c: PropContext, r: DavNode) =>
  c.signed.password.access === 'readwrite' &&
  'place' in r &&
  roleAllows(r.place, r.kind === 'calendar' || r.kind === 'event' ? 'calendars' : 'contacts', true);

const has = (c: PropContext, scope: 'calendars' | 'contacts') => c.signed.password.scopes.includes(scope);

/** The value (inner XML) of a property of a resource, or undefined when it has none. */
export async function propValue(r: DavNode, ns: string, name: string, c: PropContext): Promise<string | undefined> {
  const key = qname(ns, name);
  const s = c.signed;
  // Every resource.
  switch (key) {
    case qname(NS.dav, 'current-user-principal'):
      return href(principalHref(s));
    case qname(NS.dav, 'principal-collection-set'):
      return href('/dav/principals/');
    case qname(NS.dav, 'current-user-privilege-set'):
      return privileges(canWrite(c, r));
  }
  if (r.kind === 'root' || r.kind === 'principals' || r.kind === 'principal') {
    switch (key) {
      case qname(NS.dav, 'resourcetype'):
        return r.kind === 'principal' ? collection + el(NS.dav, 'principal') : collection;
      case qname(NS.dav, 'displayname'):
        return r.kind === 'principal' ? escapeXml(s.name ?? s.email) : r.kind === 'root' ? 'Platform' : 'Principals';
      case qname(NS.dav, 'principal-URL'):
        return r.kind === 'principal' ? href(principalHref(s)) : undefined;
      case qname(NS.caldav, 'calendar-home-set'):
        return has(c, 'calendars') ? href(HOME.calendars) : undefined;
      case qname(NS.carddav, 'addressbook-home-set'):
        return has(c, 'contacts') ? href(HOME.contacts) : undefined;
      case qname(NS.caldav, 'calendar-user-address-set'):
        return href(`mailto:${s.email}`);
      case qname(NS.caldav, 'calendar-user-type'):
        return r.kind === 'principal' ? 'INDIVIDUAL' : undefined;
    }
    return undefined;
  }
  if (r.kind === 'home') {
    if (key === qname(NS.dav, 'resourcetype')) return collection;
    if (key === qname(NS.dav, 'displayname')) return r.of === 'calendars' ? 'Calendars' : 'Address books';
    if (key === qname(NS.dav, 'owner')) return href(principalHref(s));
    return undefined;
  }
  if (r.kind === 'calendar' || r.kind === 'book') {
    const m = c.members;
    const isCal = r.kind === 'calendar';
    const base = isCal ? r.calendar.name : r.book.name;
    switch (key) {
      case qname(NS.dav, 'resourcetype'):
        return collection + (isCal ? el(NS.caldav, 'calendar') : el(NS.carddav, 'addressbook'));
      case qname(NS.dav, 'displayname'):
        return escapeXml(r.multi ? `${base} (${r.place.mailbox.address})` : base);
      case qname(NS.dav, 'owner'):
        return href(principalHref(s));
      case qname(NS.cs, 'getctag'):
      case qname(NS.dav, 'getetag'):
        return m ? escapeXml(m.ctag) : undefined;
      case qname(NS.dav, 'sync-token'):
        return m ? escapeXml(m.token) : undefined;
      case qname(NS.dav, 'supported-report-set'):
        return isCal
          ? reports([
              [NS.caldav, 'calendar-query'],
              [NS.caldav, 'calendar-multiget'],
              [NS.dav, 'sync-collection'],
            ])
          : reports([
              [NS.carddav, 'addressbook-query'],
              [NS.carddav, 'addressbook-multiget'],
              [NS.dav, 'sync-collection'],
            ]);
    }
    if (r.kind === 'calendar') {
      switch (key) {
        case qname(NS.caldav, 'supported-calendar-component-set'):
          return '<C:comp name="VEVENT"/>';
        case qname(NS.caldav, 'supported-calendar-data'):
          return '<C:calendar-data content-type="text/calendar" version="2.0"/>';
        case qname(NS.caldav, 'calendar-description'):
          return r.calendar.description ? escapeXml(r.calendar.description) : undefined;
        case qname(NS.apple, 'calendar-color'):
          return COLOR_HEX[r.calendar.color];
        case qname(NS.caldav, 'max-resource-size'):
          return String(MAX_ICS_BYTES);
      }
      return undefined;
    }
    switch (key) {
      case qname(NS.carddav, 'supported-address-data'):
        return '<CR:address-data-type content-type="text/vcard" version="3.0"/><CR:address-data-type content-type="text/vcard" version="4.0"/>';
      case qname(NS.carddav, 'max-resource-size'):
        return String(MAX_VCF_BYTES);
    }
    return undefined;
  }
  if (r.kind === 'event') {
    const e = r.event;
    if (!e) return undefined;
    switch (key) {
      case qname(NS.dav, 'resourcetype'):
        return '';
      case qname(NS.dav, 'getetag'):
        return escapeXml(etagOfEvent(e));
      case qname(NS.dav, 'getcontenttype'):
        return 'text/calendar; charset=utf-8; component=VEVENT';
      case qname(NS.dav, 'getlastmodified'):
        return new Date(e.updatedAt).toUTCString();
      case qname(NS.caldav, 'calendar-data'):
        return escapeXml(c.expand ? expandedIcs(e, c.expand.from, c.expand.to) : icsOfEvent(e));
    }
    return undefined;
  }
  if (r.kind !== 'card' || !r.card) return undefined;
  const card = r.card;
  switch (key) {
    case qname(NS.dav, 'resourcetype'):
      return '';
    case qname(NS.dav, 'getetag'):
      return escapeXml(etagOfCard(card));
    case qname(NS.dav, 'getcontenttype'):
      return 'text/vcard; charset=utf-8';
    case qname(NS.dav, 'getlastmodified'):
      return new Date(card.updatedAt).toUTCString();
    case qname(NS.carddav, 'address-data'):
      return escapeXml(await vcardOf(card, c.vcardVersion));
  }
  return undefined;
}

/** What `allprop` answers (RFC 4918: the live properties, not calendar or address data). */
export const ALLPROP: [string, string][] = [
  [NS.dav, 'resourcetype'],
  [NS.dav, 'displayname'],
  [NS.dav, 'getetag'],
  [NS.dav, 'getcontenttype'],
  [NS.dav, 'getlastmodified'],
  [NS.dav, 'current-user-principal'],
];

/** One `<D:response>` of a multistatus: found properties under 200, the rest under 404. */
export async function response(r: DavNode, wanted: [string, string][], c: PropContext, allprop = false) {
  const found: string[] = [];
  const missing: string[] = [];
  for (const [ns, name] of wanted) {
    const value = await propValue(r, ns, name, c);
    if (value !== undefined) found.push(el(ns, name, value));
    else if (!allprop) missing.push(el(ns, name));
  }
  const stat = (props: string[], status: string) =>
    el(NS.dav, 'propstat', el(NS.dav, 'prop', props.join('')) + text(NS.dav, 'status', status));
  return el(
    NS.dav,
    'response',
    href(r.href) +
      (found.length ? stat(found, 'HTTP/1.1 200 OK') : '') +
      (missing.length ? stat(missing, 'HTTP/1.1 404 Not Found') : '') +
      (found.length + missing.length === 0 ? stat([], 'HTTP/1.1 200 OK') : ''),
  );
}

/** The properties a PROPFIND or REPORT asks for (`<D:prop>`), or allprop. */
export function wantedProps(root: XNode | undefined): { props: [string, string][]; allprop: boolean } {
  const prop = child(root, NS.dav, 'prop');
  if (!prop) return { props: ALLPROP, allprop: true };
  return { props: prop.children.map((c) => [c.ns, c.name] as [string, string]), allprop: false };
}

export const needsMembers = (props: [string, string][]) =>
  props.some(([ns, n]) =>
    [qname(NS.cs, 'getctag'), qname(NS.dav, 'sync-token'), qname(NS.dav, 'getetag')].includes(qname(ns, n)),
  );
