import { ROLE_SCOPES } from '../../kernel/auth/roles';
import type { Role, Scope } from '../../kernel/auth/scopes';
import type { AppPasswordRecord } from '../../kernel/identity/app-passwords';
import { getOrg, membershipsOf } from '../../kernel/identity/orgs';
import type { Organization } from '../../kernel/identity/schema';
import { getItem, getMany, keys } from '../../kernel/store/table';
import { getMailbox, listMailboxes, type MailboxRecord } from '../mail/records';

/**
 * Where a person's calendars and address books are for calendar programs: every mailbox they are
 * a member of, in every organization they belong to (not being deleted). A collection's URL
 * segment is `<orgId>.<mailboxId>.<calendarId|addressBookId>`: ids, not the organization's slug,
 * so a renamed organization leaves programs' URLs working; one segment, so every collection is a
 * direct child of its home (`/dav/calendars/`, `/dav/addressbooks/`), as programs expect.
 */
export interface Signed {
  userId: string;
  email: string;
  name: string | null;
  password: AppPasswordRecord;
}

export interface Place {
  org: Organization;
  role: Role;
  mailbox: MailboxRecord;
}

export type Kind = 'calendars' | 'contacts';

const SEGMENT = /^(org_[0-9a-z]{10,64})\.(mbx_[0-9a-z]{10,64})\.((?:cal|abk)_[0-9a-z]{10,64})$/;

export const segmentOf = (place: Place, id: string) => `${place.org.orgId}.${place.mailbox.mailboxId}.${id}`;

export function parseSegment(segment: string): { orgId: string; mailboxId: string; id: string } | undefined {
  const m = SEGMENT.exec(segment);
  return m ? { orgId: m[1] as string, mailboxId: m[2] as string, id: m[3] as string } : undefined;
}

const SCOPE: Record<Kind, { read: Scope; write: Scope }> = {
  calendars: { read: 'calendar:read', write: 'calendar:write' },
  contacts: { read: 'contacts:read', write: 'contacts:write' },
};

/** Whether the person's role in the place's organization lets them read or write `kind` there. */
export const roleAllows = (place: Place, kind: Kind, write: boolean) =>
  ROLE_SCOPES[place.role].includes(SCOPE[kind][write ? 'write' : 'read']) && !(write && place.org.suspended);

/** Every mailbox of the person (their organizations' mailboxes they are a member of). */
export async function placesOf(userId: string, kind: Kind): Promise<Place[]> {
  const memberships = await membershipsOf(userId);
  const orgs = await getMany<Organization>(memberships.map((m) => keys.org(m.orgId)));
  const places: Place[] = [];
  await Promise.all(
    memberships.map(async (m, i) => {
      const org = orgs[i];
      if (!org || org.status === 'deleting') return;
      const place = { org, role: m.role };
      if (!roleAllows({ ...place, mailbox: undefined as never }, kind, false)) return;
      for (const mailbox of await listMailboxes(org.orgId)) {
        if (mailbox.members.includes(userId)) places.push({ ...place, mailbox });
      }
    }),
  );
  return places.sort(
    (a, b) => a.org.name.localeCompare(b.org.name) || a.mailbox.address.localeCompare(b.mailbox.address),
  );
}

/** The person's place for a collection's segment, or undefined (not theirs, or gone). */
export async function placeOf(userId: string, orgId: string, mailboxId: string): Promise<Place | undefined> {
  const [org, member, mailbox] = await Promise.all([
    getOrg(orgId),
    getItem<{ role: Role }>(keys.member(orgId, userId)),
    getMailbox(orgId, mailboxId),
  ]);
  if (!org || org.status === 'deleting' || !member || !mailbox || !mailbox.members.includes(userId)) return undefined;
  return { org, role: member.role, mailbox };
}
