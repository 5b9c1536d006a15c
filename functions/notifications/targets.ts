import { DEVICE_MESSAGES, requireDevice } from '../../shared/domains/agents/devices';
import { CALENDAR_MESSAGES, calKeys, defaultCalendarId } from '../../shared/domains/calendar/records';
import { getMailbox, listMailboxes, MAIL_MESSAGES } from '../../shared/domains/mail/records';
import type { ResourceType } from '../../shared/domains/notifications/kinds';
import { getProject, PROJECT_NOT_FOUND } from '../../shared/domains/projects/records';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { TK } from '../../shared/domains/tracker/store';
import { invalid, notFound } from '../../shared/kernel/ground/errors';
import { getItem, getMany } from '../../shared/kernel/store/table';

/**
 * What a protocol's attachment may name: a resource of the organization, checked before it is
 * attached. Here, not in the notifications domain: every product below notifies, so notifications
 * may not import them (test/layers.unit.test.ts, PRODUCT_IMPORTS).
 */
const ID_PREFIX: Record<Exclude<ResourceType, 'org' | 'project' | 'agent'>, string> = {
  space: 'spc_',
  calendar: 'cal_',
  mailbox: 'mbx_',
};
export const NOT_ATTACHABLE = {
  org: 'An org attachment names this organization.',
  project: PROJECT_NOT_FOUND,
  agent: DEVICE_MESSAGES.deviceNotFound,
  space: TRACKER_MESSAGES.spaceNotFound,
  mailbox: MAIL_MESSAGES.mailboxNotFound,
  calendar: CALENDAR_MESSAGES.calendarNotFound,
  prefix: 'The id does not name a resource of this type.',
} as const;

/** Whether a calendar of one of the organization's mailboxes has this id (a mailbox's default one exists with it). */
async function calendarExists(orgId: string, calendarId: string): Promise<boolean> {
  const mailboxes = await listMailboxes(orgId);
  if (mailboxes.some((m) => defaultCalendarId(m.mailboxId) === calendarId)) return true;
  const found = await getMany(mailboxes.map((m) => calKeys.calendar(m.mailboxId, calendarId)));
  return found.some((c) => c !== undefined);
}

/** What an attachment names exists in this organization: itself, or its project, device, space, mailbox or calendar. */
export async function checkTarget(orgId: string, type: ResourceType, id: string): Promise<void> {
  if (type === 'org') {
    if (id !== orgId) throw invalid(NOT_ATTACHABLE.org);
    return;
  }
  if (type === 'project') {
    if (!(await getProject(orgId, id))) throw notFound(NOT_ATTACHABLE.project);
    return;
  }
  if (type === 'agent') {
    await requireDevice(orgId, id);
    return;
  }
  if (!id.startsWith(ID_PREFIX[type])) throw invalid(NOT_ATTACHABLE.prefix);
  const exists =
    type === 'space'
      ? (await getItem(TK.space(orgId, id))) !== undefined
      : type === 'mailbox'
        ? (await getMailbox(orgId, id)) !== undefined
        : await calendarExists(orgId, id);
  if (!exists) throw notFound(NOT_ATTACHABLE[type]);
}
