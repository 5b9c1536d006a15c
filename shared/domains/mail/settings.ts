import { notFound } from '../../kernel/ground/errors';
import { updateVersioned } from '../../kernel/store/ops';
import { getItem } from '../../kernel/store/table';
import { MAIL_MESSAGES, type MailboxRecord, type MailboxSettings, mailKeys } from './records';

/** Changes the given settings of a mailbox (`ifVersion`: the mailbox's version, 409 when it changed). */
export async function updateSettings(
  orgId: string,
  mailboxId: string,
  input: Partial<MailboxSettings> & { ifVersion?: number },
): Promise<MailboxRecord> {
  const current = await getItem<MailboxRecord>(mailKeys.mailbox(orgId, mailboxId), true);
  if (!current || current.deleting) throw notFound(MAIL_MESSAGES.mailboxNotFound);
  const { ifVersion, ...given } = input;
  const settings: MailboxSettings = {
    ...current.settings,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  };
  settings.vipSenders = [...new Set(settings.vipSenders.map((a) => a.toLowerCase()))];
  return updateVersioned<MailboxRecord>(
    mailKeys.mailbox(orgId, mailboxId),
    ifVersion ?? current.version,
    { settings, updatedAt: Date.now() },
    MAIL_MESSAGES.stale,
  );
}
