import { type COLORS, createCalendar } from '../../shared/domains/calendar/records';
import { aliasOf, putAlias } from '../../shared/domains/dav/aliases';
import { parseSegment, placesOf, roleAllows } from '../../shared/domains/dav/places';
import { child, childrenOf, is, NS } from '../../shared/domains/dav/xml';
import { DomainError, forbidden, invalid } from '../../shared/kernel/ground/errors';
import { isOneLine } from '../../shared/kernel/ground/text';
import { answer, type DavAnswer, type MethodInput, requireWrite } from './answers';
import { nearestColor } from './props';

/**
 * MKCALENDAR (RFC 4791 5.3.1) at `/dav/calendars/<name>/`: a new calendar of the person's mailbox
 * (the one mailbox they have, or the one `<orgId>.<mailboxId>.` at the start of the name), made
 * with the API's create (at most 50 a mailbox), with the name, color and description the body
 * sets; the person's alias keeps it at the URL the program chose.
 */
export const MKCALENDAR_MESSAGES = {
  where: 'MKCALENDAR makes a calendar in /dav/calendars/.',
  exists: 'Something is already at this URL.',
  whichMailbox:
    'You are a member of several mailboxes: name the calendar /dav/calendars/<orgId>.<mailboxId>.<name>/ to say which, or make it with the API.',
  noMailbox: 'You have no mailbox whose calendars you may change.',
  eventsOnly: 'Calendars here hold events (VEVENT) only.',
} as const;

export async function mkcalendar({ signed, segs, resource, body }: MethodInput): Promise<DavAnswer> {
  if (resource) {
    return answer(405, MKCALENDAR_MESSAGES.exists, { allow: 'OPTIONS, PROPFIND, PROPPATCH, REPORT, DELETE' });
  }
  const name = segs[2];
  if (segs.length !== 3 || segs[0] !== 'dav' || segs[1] !== 'calendars' || !name)
    throw forbidden(MKCALENDAR_MESSAGES.where);
  if (name.length > 200 || !isOneLine(name))
    throw invalid('A calendar URL name is one line of at most 200 characters.');
  if (await aliasOf(signed.userId, name)) return answer(405, MKCALENDAR_MESSAGES.exists);
  if (signed.password.access !== 'readwrite') requireWrite(signed, { kind: 'root', href: '/dav/' });
  const places = (await placesOf(signed.userId, 'calendars')).filter((p) => roleAllows(p, 'calendars', true));
  const prefix = /^(org_[0-9a-z]+)\.(mbx_[0-9a-z]+)\./.exec(name);
  const place = prefix
    ? places.find((p) => p.org.orgId === prefix[1] && p.mailbox.mailboxId === prefix[2])
    : places.length === 1
      ? places[0]
      : undefined;
  if (!place)
    throw forbidden(places.length === 0 || prefix ? MKCALENDAR_MESSAGES.noMailbox : MKCALENDAR_MESSAGES.whichMailbox);
  if (parseSegment(name)) throw forbidden(MKCALENDAR_MESSAGES.exists);

  const root = body();
  const props =
    root && is(root, NS.caldav, 'mkcalendar')
      ? childrenOf(root, NS.dav, 'set').flatMap((s) => child(s, NS.dav, 'prop')?.children ?? [])
      : [];
  const input: { name: string; color?: (typeof COLORS)[number]; description?: string } = { name: 'Calendar' };
  for (const p of props) {
    const value = p.text.trim();
    if (is(p, NS.dav, 'displayname') && value) input.name = value.slice(0, 100);
    if (is(p, NS.apple, 'calendar-color')) input.color = nearestColor(value) as (typeof COLORS)[number] | undefined;
    if (is(p, NS.caldav, 'calendar-description')) input.description = value.slice(0, 1000);
    if (is(p, NS.caldav, 'supported-calendar-component-set')) {
      const comps = childrenOf(p, NS.caldav, 'comp').map((c) => (c.attrs.name ?? '').toUpperCase());
      if (!comps.includes('VEVENT'))
        throw new DomainError('forbidden', MKCALENDAR_MESSAGES.eventsOnly, {
          condition: `{${NS.caldav}}supported-calendar-component`,
        });
    }
  }
  if (!isOneLine(input.name)) throw invalid('The calendar name must be one line of plain text.');
  const calendar = await createCalendar(place.mailbox.mailboxId, input);
  await putAlias(signed.userId, {
    name,
    orgId: place.org.orgId,
    mailboxId: place.mailbox.mailboxId,
    calendarId: calendar.calendarId,
  });
  return answer(201);
}
