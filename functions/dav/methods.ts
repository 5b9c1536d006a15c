import { deleteCalendar, updateCalendar } from '../../shared/domains/calendar/records';
import { deleteBook, renameBook } from '../../shared/domains/contacts/books';
import { removeAlias } from '../../shared/domains/dav/aliases';
import {
  deleteEventObject,
  etagOfEvent,
  icsOfEvent,
  putEventObject,
  readObject,
} from '../../shared/domains/dav/calendars';
import { deleteCardObject, etagOfCard, putCardObject, readCard, vcardOf } from '../../shared/domains/dav/cards';
import { parseSegment } from '../../shared/domains/dav/places';
import { child, is, NS, qname } from '../../shared/domains/dav/xml';
import { DomainError, invalid } from '../../shared/kernel/ground/errors';
import { isOneLine, isPlainText } from '../../shared/kernel/ground/text';
import { ALLOW, answer, type DavAnswer, type MethodInput, multistatus, requireWrite, xmlAnswer } from './answers';
import { mkcalendar } from './mkcalendar';
import { COLOR_HEX, nearestColor, needsMembers, type PropContext, response, wantedProps } from './props';
import { report } from './reports';
import {
  booksOf,
  calendarsOf,
  type DavNode,
  HOME,
  loaded,
  memberResources,
  membersOf,
  principalHref,
  ROOT,
} from './resources';

/** What each method does to a resource (./serve.ts routes to them). */
export const methods: Record<string, (m: MethodInput) => Promise<DavAnswer>> = {
  PROPFIND: propfind,
  REPORT: report,
  GET: (m) => get(m, true),
  HEAD: (m) => get(m, false),
  PUT: put,
  DELETE: remove,
  PROPPATCH: proppatch,
  MKCALENDAR: mkcalendar,
};

async function propfind({ req, signed, resource, body }: MethodInput): Promise<DavAnswer> {
  const depthHeader = (req.headers.depth ?? 'infinity').trim().toLowerCase();
  if (depthHeader === 'infinity') {
    return xmlAnswer(
      403,
      '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>',
    );
  }
  const depth = depthHeader === '0' ? 0 : 1;
  const root = body();
  if (root && !is(root, NS.dav, 'propfind')) throw invalid('A PROPFIND body is a DAV:propfind.');
  const { props, allprop } = wantedProps(root);
  const self = await loaded(resource as DavNode);
  if (!self) return answer(404, 'Not found');
  const c: PropContext = { signed };
  const out: string[] = [];
  const withMembers = async (r: DavNode) =>
    needsMembers(props) || (depth === 1 && r === self) ? await membersOf(r) : undefined;
  const selfMembers = await withMembers(self);
  out.push(await response(self, props, { ...c, members: selfMembers }, allprop));
  if (depth === 1) {
    let children: DavNode[] = [];
    if (self.kind === 'root') {
      children = [
        { kind: 'principal', href: principalHref(signed) },
        ...(signed.password.scopes.includes('calendars')
          ? [{ kind: 'home' as const, of: 'calendars' as const, href: HOME.calendars }]
          : []),
        ...(signed.password.scopes.includes('contacts')
          ? [{ kind: 'home' as const, of: 'contacts' as const, href: HOME.contacts }]
          : []),
      ];
    } else if (self.kind === 'principals') children = [{ kind: 'principal', href: principalHref(signed) }];
    else if (self.kind === 'home')
      children = self.of === 'calendars' ? await calendarsOf(signed) : await booksOf(signed);
    else if (selfMembers) children = memberResources(self, selfMembers);
    const listed = await Promise.all(
      children.map(async (r) =>
        response(r, props, { ...c, members: needsMembers(props) ? await membersOf(r) : undefined }, allprop),
      ),
    );
    out.push(...listed);
  }
  return multistatus(out);
}

async function get(m: MethodInput, withBody: boolean): Promise<DavAnswer> {
  const r = await loaded(m.resource as DavNode);
  if (!r) return answer(404, 'Not found');
  if (r.kind === 'event' && r.event) {
    const body = icsOfEvent(r.event);
    return {
      status: 200,
      headers: {
        'content-type': 'text/calendar; charset=utf-8',
        etag: etagOfEvent(r.event),
        ...(withBody ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
      },
      body: withBody ? body : '',
    };
  }
  if (r.kind === 'card' && r.card) {
    const wants4 = /version=("?)4\.0/.test(m.req.headers.accept ?? '');
    const body = await vcardOf(r.card, wants4 ? '4.0' : '3.0');
    return {
      status: 200,
      headers: {
        'content-type': 'text/vcard; charset=utf-8',
        etag: etagOfCard(r.card),
        ...(withBody ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
      },
      body: withBody ? body : '',
    };
  }
  if (r.kind === 'root' && withBody) {
    return answer(
      200,
      `CalDAV and CardDAV of the platform. Add ${ROOT} (or /.well-known/caldav) to your calendar program.`,
    );
  }
  return answer(405, `GET is not served for collections: use PROPFIND and REPORT.`, { allow: ALLOW });
}

const TYPES = { event: /^text\/calendar\b/i, card: /^text\/(x-)?vcard\b/i };

async function put({ req, signed, resource }: MethodInput): Promise<DavAnswer> {
  const r = resource as DavNode;
  if (r.kind !== 'event' && r.kind !== 'card')
    return answer(405, 'PUT takes a calendar or address book object.', { allow: ALLOW });
  requireWrite(signed, r);
  const type = req.headers['content-type'];
  if (type && !TYPES[r.kind].test(type.trim())) {
    return answer(
      415,
      r.kind === 'event' ? 'A calendar object is text/calendar.' : 'An address book object is text/vcard.',
    );
  }
  const textBody = req.body.toString('utf8');
  const conditions = { ifMatch: req.headers['if-match'], ifNoneMatch: req.headers['if-none-match'] };
  if (r.kind === 'event') {
    const parsed = readObject(r.place.mailbox, textBody);
    const { created } = await putEventObject(r.place.mailbox, r.calendar.calendarId, r.name, parsed, conditions);
    return answer(created ? 201 : 204);
  }
  const card = readCard(textBody);
  const { created } = await putCardObject(r.place.mailbox.mailboxId, r.book.addressBookId, r.name, card, conditions);
  return answer(created ? 201 : 204);
}

async function remove({ req, signed, segs, resource }: MethodInput): Promise<DavAnswer> {
  const r = resource as DavNode;
  const ifMatch = req.headers['if-match'];
  if (r.kind === 'event') {
    requireWrite(signed, r);
    await deleteEventObject(r.place.mailbox, r.calendar.calendarId, r.name, { ifMatch });
    return answer(204);
  }
  if (r.kind === 'card') {
    requireWrite(signed, r);
    await deleteCardObject(r.place.mailbox.mailboxId, r.book.addressBookId, r.name, { ifMatch });
    return answer(204);
  }
  if (r.kind === 'calendar') {
    requireWrite(signed, r);
    await deleteCalendar(r.place.mailbox.mailboxId, r.calendar.calendarId).catch(forbidDefault);
    if (!parseSegment(segs[2] ?? '')) await removeAlias(signed.userId, segs[2] as string);
    return answer(204);
  }
  if (r.kind === 'book') {
    requireWrite(signed, r);
    await deleteBook(r.place.mailbox.mailboxId, r.book.addressBookId).catch(forbidDefault);
    return answer(204);
  }
  return answer(405, 'DELETE takes an object, a calendar or an address book.', { allow: ALLOW });
}

/** The default calendar or address book can't be deleted: 403, as WebDAV says of a refused delete. */
const forbidDefault = (err: unknown) => {
  if (err instanceof DomainError && err.kind === 'invalid') throw new DomainError('forbidden', err.message);
  throw err;
};

/** PROPPATCH of a calendar (name, color, description) or an address book (name): all or nothing. */
async function proppatch({ signed, resource, body }: MethodInput): Promise<DavAnswer> {
  const r = resource as DavNode;
  const root = body();
  if (!root || !is(root, NS.dav, 'propertyupdate')) throw invalid('A PROPPATCH body is a DAV:propertyupdate.');
  const changes: { ns: string; name: string; value: string | null }[] = [];
  for (const op of root.children) {
    const set = is(op, NS.dav, 'set');
    if (!set && !is(op, NS.dav, 'remove')) continue;
    for (const p of child(op, NS.dav, 'prop')?.children ?? [])
      changes.push({ ns: p.ns, name: p.name, value: set ? p.text.trim() : null });
  }
  const fields: Record<string, string> = {};
  const refused = new Set<number>();
  changes.forEach((ch, i) => {
    const key = qname(ch.ns, ch.name);
    const value = ch.value ?? '';
    if (r.kind === 'calendar' || r.kind === 'book') {
      if (key === qname(NS.dav, 'displayname') && value && value.length <= 100 && isOneLine(value)) fields.name = value;
      else if (
        r.kind === 'calendar' &&
        key === qname(NS.apple, 'calendar-color') &&
        nearestColor(value || (COLOR_HEX.blue as string))
      )
        fields.color = nearestColor(value || (COLOR_HEX.blue as string)) as string;
      else if (
        r.kind === 'calendar' &&
        key === qname(NS.caldav, 'calendar-description') &&
        value.length <= 1000 &&
        isPlainText(value)
      )
        fields.description = value;
      else refused.add(i);
    } else refused.add(i);
  });
  if (refused.size === 0 && changes.length > 0) {
    requireWrite(signed, r);
    if (r.kind === 'calendar') await updateCalendar(r.place.mailbox.mailboxId, r.calendar.calendarId, fields as never);
    else if (r.kind === 'book' && fields.name)
      await renameBook(r.place.mailbox.mailboxId, r.book.addressBookId, fields.name);
  }
  const stat = (i: number) =>
    refused.size === 0
      ? 'HTTP/1.1 200 OK'
      : refused.has(i)
        ? 'HTTP/1.1 403 Forbidden'
        : 'HTTP/1.1 424 Failed Dependency';
  const props = changes.map((ch, i) => ({ el: `<X${i}:${ch.name} xmlns:X${i}="${ch.ns}"/>`, status: stat(i) }));
  const inner = props
    .map((p) => `<D:propstat><D:prop>${p.el}</D:prop><D:status>${p.status}</D:status></D:propstat>`)
    .join('');
  return multistatus([`<D:response><D:href>${r.href}</D:href>${inner}</D:response>`]);
}
