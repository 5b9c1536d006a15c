import { PREFIXES } from '../../kernel/store/keys';
import { getItem, getMany } from '../../kernel/store/table';

/** Limits of a mailbox's sending (SES's own per-message limit is 40 MB; a message here is at most 25 MB). */
export const LIMITS = {
  messageBytes: 25 * 1024 * 1024,
  recipients: 100,
  dailyQuota: 500,
  /** The largest message received (SES's receiving limit). */
  inboundBytes: 40 * 1024 * 1024,
} as const;

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const month = (at: number) => new Date(at).toISOString().slice(0, 7);

/**
 * Counters of a mailbox, in its partition, moved by ADD in the transactions that store or send:
 * `STATS` (bytes and messages held), `DAY#<yyyy-mm-dd>` (sent that day, for the quota),
 * `MONTH#<yyyy-mm>` (sent and received that month; bounces and complaints, by the mail-feedback worker).
 */
export const usageKeys = {
  stats: (mailboxId: string) => ({ pk: `${PREFIXES.mail.mailbox}${mailboxId}`, sk: 'STATS' }),
  day: (mailboxId: string, at: number) => ({
    pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
    sk: `${PREFIXES.mail.day}${day(at)}`,
  }),
  month: (mailboxId: string, at: number) => ({
    pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
    sk: `${PREFIXES.mail.month}${month(at)}`,
  }),
};

/** The next UTC midnight: when the daily quota resets. */
export const resetAt = (at: number) => {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
};

export async function sentToday(mailboxId: string, at = Date.now()): Promise<number> {
  const item = await getItem<{ sent?: number }>(usageKeys.day(mailboxId, at), true);
  return item?.sent ?? 0;
}

export async function limitsOf(mailboxId: string) {
  const now = Date.now();
  const sent = await sentToday(mailboxId, now);
  return {
    maxMessageBytes: LIMITS.messageBytes,
    maxRecipients: LIMITS.recipients,
    dailyQuota: LIMITS.dailyQuota,
    sentToday: sent,
    remainingToday: Math.max(0, LIMITS.dailyQuota - sent),
    resetsAt: resetAt(now),
  };
}

/** Per mailbox: bytes and messages held, sent, received, bounced and complained of this month, sent today. */
export async function usageOf(mailboxIds: string[]) {
  const now = Date.now();
  const keys = mailboxIds.flatMap((m) => [usageKeys.stats(m), usageKeys.month(m, now), usageKeys.day(m, now)]);
  const items = await getMany<{
    bytes?: number;
    messages?: number;
    sent?: number;
    received?: number;
    bounces?: number;
    complaints?: number;
  }>(keys);
  return mailboxIds.map((mailboxId, i) => {
    const [stats, monthItem, dayItem] = [items[3 * i], items[3 * i + 1], items[3 * i + 2]];
    return {
      mailboxId,
      bytes: Math.max(0, stats?.bytes ?? 0),
      messages: Math.max(0, stats?.messages ?? 0),
      sentThisMonth: monthItem?.sent ?? 0,
      receivedThisMonth: monthItem?.received ?? 0,
      bouncesThisMonth: monthItem?.bounces ?? 0,
      complaintsThisMonth: monthItem?.complaints ?? 0,
      sentToday: dayItem?.sent ?? 0,
      dailyQuota: LIMITS.dailyQuota,
    };
  });
}
