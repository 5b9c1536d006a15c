import { type CalendarFilter, calendarChanges, matchesFilter } from '../../shared/domains/dav/calendars';
import { bookChanges, type CardFilter, matchesCard } from '../../shared/domains/dav/cards';
import { sinceOf } from '../../shared/domains/dav/sync';
import { child, childrenOf, NS, text, type XNode } from '../../shared/domains/dav/xml';
import { DomainError, invalid } from '../../shared/kernel/ground/errors';
import { answer, type DavAnswer, type MethodInput, multistatus, statusResponse, xmlAnswer } from './answers';
import { type PropContext, response, wantedProps } from './props';
import { type DavNode, encodeName, loaded, memberResources, membersOf, segmentsOf } from './resources';

/**
 * REPORTs: calendar-query (component, time range, text matches; `expand` in UTC) and
 * calendar-multiget (RFC 4791), addressbook-query and addressbook-multiget (RFC 6352), and
 * sync-collection (RFC 6578) on calendars and address books.
 */
export async function report(m: MethodInput): Promise<DavAnswer> {
  const r = m.resource as DavNode;
  const root = m.body();
  if (!root) throw invalid('A REPORT needs a body.');
  const c: PropContext = { signed: m.signed };
  const { props } = wantedProps(root);
  const collection = r.kind === 'calendar' || r.kind === 'book';
  const key = `${root.ns}|${root.name}`;
  if (key === `${NS.dav}|sync-collection`) {
    if (!collection) return unsupported();
    return syncCollection(r, root, props, c);
  }
  if (
    r.kind === 'calendar' &&
    root.ns === NS.caldav &&
    (root.name === 'calendar-query' || root.name === 'calendar-multiget')
  ) {
    const data = child(child(root, NS.dav, 'prop'), NS.caldav, 'calendar-data');
    const expand = child(data, NS.caldav, 'expand');
    if (expand) {
      const from = utcOf(expand.attrs.start);
      const to = utcOf(expand.attrs.end);
      if (from === undefined || to === undefined || to <= from)
        throw invalid('expand takes a start and an end (UTC, start first).');
      c.expand = { from, to };
    }
    if (root.name === 'calendar-multiget') return multiget(r, root, props, c);
    const filter = calendarFilter(child(root, NS.caldav, 'filter'));
    const members = await membersOf(r);
    const found = memberResources(r, members as NonNullable<typeof members>).filter(
      (x) => x.kind === 'event' && x.event && matchesFilter(x.event, filter),
    );
    return multistatus(await Promise.all(found.map((x) => response(x, props, c))));
  }
  if (
    r.kind === 'book' &&
    root.ns === NS.carddav &&
    (root.name === 'addressbook-query' || root.name === 'addressbook-multiget')
  ) {
    const data = child(child(root, NS.dav, 'prop'), NS.carddav, 'address-data');
    if (data?.attrs.version === '4.0') c.vcardVersion = '4.0';
    if (root.name === 'addressbook-multiget') return multiget(r, root, props, c);
    const filter = cardFilter(child(root, NS.carddav, 'filter'));
    const members = await membersOf(r);
    let found = memberResources(r, members as NonNullable<typeof members>).filter(
      (x) => x.kind === 'card' && x.card && matchesCard(x.card, filter),
    );
    const limit = Number(child(child(root, NS.carddav, 'limit'), NS.carddav, 'nresults')?.text.trim());
    if (Number.isInteger(limit) && limit > 0) found = found.slice(0, limit);
    return multistatus(await Promise.all(found.map((x) => response(x, props, c))));
  }
  return unsupported();
}

const unsupported = () =>
  xmlAnswer(403, '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:supported-report/></D:error>');

/** `20240101T000000Z` as UTC ms. */
export function utcOf(v: string | undefined): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v?.trim() ?? '');
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
}

async function multiget(r: DavNode, root: XNode, props: [string, string][], c: PropContext): Promise<DavAnswer> {
  const out: string[] = [];
  for (const h of childrenOf(root, NS.dav, 'href')) {
    const raw = h.text.trim();
    let path = raw;
    try {
      path = new URL(raw, 'http://local').pathname;
    } catch {
      // kept as given
    }
    const segs = segmentsOf(path);
    const dir = segmentsOf(r.href) ?? [];
    const name =
      segs && segs.length === dir.length + 1 && dir.every((s, i) => segs[i] === s) ? segs[segs.length - 1] : undefined;
    const member: DavNode | undefined =
      name === undefined
        ? undefined
        : r.kind === 'calendar'
          ? { kind: 'event', href: `${r.href}${encodeName(name)}`, place: r.place, calendar: r.calendar, name }
          : r.kind === 'book'
            ? { kind: 'card', href: `${r.href}${encodeName(name)}`, place: r.place, book: r.book, name }
            : undefined;
    const found = member ? await loaded(member) : undefined;
    out.push(found ? await response(found, props, c) : statusResponse(raw, 'HTTP/1.1 404 Not Found'));
  }
  return multistatus(out);
}

function calendarFilter(filter: XNode | undefined): CalendarFilter {
  const f: CalendarFilter = { component: 'ANY', props: [] };
  const cal = child(filter, NS.caldav, 'comp-filter');
  if (!cal) return f;
  if ((cal.attrs.name ?? '').toUpperCase() !== 'VCALENDAR') return { ...f, component: 'OTHER' };
  const comp = child(cal, NS.caldav, 'comp-filter');
  if (!comp) return f;
  if ((comp.attrs.name ?? '').toUpperCase() !== 'VEVENT' || child(comp, NS.caldav, 'is-not-defined'))
    return { ...f, component: 'OTHER' };
  f.component = 'VEVENT';
  const range = child(comp, NS.caldav, 'time-range');
  if (range) {
    const from = utcOf(range.attrs.start) ?? -8.64e15;
    const to = utcOf(range.attrs.end) ?? 8.64e15;
    if ((range.attrs.start && from === -8.64e15) || (range.attrs.end && to === 8.64e15))
      throw new DomainError('invalid', 'time-range takes UTC date-times (20240101T000000Z).', {
        condition: `{${NS.caldav}}valid-filter`,
      });
    f.range = { from, to };
  }
  for (const p of childrenOf(comp, NS.caldav, 'prop-filter')) {
    const match = child(p, NS.caldav, 'text-match');
    f.props.push({
      name: (p.attrs.name ?? '').toUpperCase(),
      defined: !child(p, NS.caldav, 'is-not-defined'),
      ...(match ? { text: match.text } : {}),
      negate: match?.attrs['negate-condition'] === 'yes',
    });
  }
  return f;
}

function cardFilter(filter: XNode | undefined): CardFilter {
  const f: CardFilter = { anyOf: (filter?.attrs.test ?? 'anyof') === 'anyof', props: [] };
  for (const p of childrenOf(filter, NS.carddav, 'prop-filter')) {
    const match = child(p, NS.carddav, 'text-match');
    f.props.push({
      name: (p.attrs.name ?? '').toUpperCase(),
      ...(match ? { text: match.text } : {}),
      match: (['equals', 'starts-with', 'ends-with'].includes(match?.attrs['match-type'] ?? '')
        ? match?.attrs['match-type']
        : 'contains') as CardFilter['props'][number]['match'],
      negate: match?.attrs['negate-condition'] === 'yes',
    });
  }
  return f;
}

/** RFC 6578: with no token, every member; with one, the members changed and those gone since. */
async function syncCollection(r: DavNode, root: XNode, props: [string, string][], c: PropContext): Promise<DavAnswer> {
  const level = child(root, NS.dav, 'sync-level')?.text.trim();
  if (level && level !== '1') {
    return xmlAnswer(
      403,
      '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:number-of-matches-within-limits/></D:error>',
    );
  }
  const given = child(root, NS.dav, 'sync-token')?.text.trim() ?? '';
  const members = await membersOf(r);
  if (!members) return answer(404, 'Not found');
  const all = memberResources(r, members);
  const token = text(NS.dav, 'sync-token', members.token);
  if (!given) return multistatus(await Promise.all(all.map((x) => response(x, props, c))), token);
  const since = sinceOf(given);
  if (since === undefined) {
    return xmlAnswer(
      403,
      '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>',
    );
  }
  const changes =
    r.kind === 'calendar'
      ? await calendarChanges(r.place.mailbox.mailboxId, r.calendar.calendarId, since)
      : r.kind === 'book'
        ? await bookChanges(r.place.mailbox.mailboxId, r.book.addressBookId, since)
        : { changed: [], gone: [] };
  const changedIds = new Set(
    changes.changed.map((x) => ('eventId' in x ? x.eventId : (x as { contactId: string }).contactId)),
  );
  const changed = all.filter((x) =>
    x.kind === 'event'
      ? changedIds.has(x.event?.eventId ?? '')
      : x.kind === 'card' && changedIds.has(x.card?.contactId ?? ''),
  );
  const out = await Promise.all(changed.map((x) => response(x, props, c)));
  for (const name of changes.gone) out.push(statusResponse(`${r.href}${encodeName(name)}`, 'HTTP/1.1 404 Not Found'));
  return multistatus(out, token);
}
