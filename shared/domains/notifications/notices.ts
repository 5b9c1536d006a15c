import { createHash } from 'node:crypto';
import { notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { QueryCommand, UpdateCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { PREFIXES } from '../../kernel/store/keys';
import { getItem, TABLE, userPk } from '../../kernel/store/table';
import type { NotifyEvent } from './kinds';
import type { NoticeRecord } from './record-schemas';

export const NOTICE_MESSAGES = {
  people: 'Notifications belong to people.',
  notFound: 'Notice not found',
} as const;

/**
 * A notice: pk `USER#<userId>`, sk `NOTICE#<noticeId>`. Its id is the event's time and a hash of
 * event and person, so one event makes one notice per person however often it is delivered, and a
 * person's notices sort newest first. `escalationStep` is the last step sent (-1: none yet); each
 * step is sent only after moving it from the one before, and never once acknowledged. Its record
 * schema (./record-schemas.ts) is the source.
 */
export type { NoticeRecord } from './record-schemas';

const NOTICE = PREFIXES.notifications.notice;
export const noticeKey = (userId: string, noticeId: string) => ({ pk: userPk(userId), sk: `${NOTICE}${noticeId}` });

/**
 * `nte_` (spec part A's prefix for a notification) + the event id's 10 time characters + 16 of a
 * hash of event and person.
 */
export function noticeIdOf(event: Pick<NotifyEvent, 'eventId'>, userId: string): string {
  const time = event.eventId.slice(4, 14);
  const hash = createHash('sha256').update(`${event.eventId}\0${userId}`).digest('hex').slice(0, 16);
  return `nte_${time}${hash}`;
}

/**
 * Whether `id` can name a notice: `nte_`, or `ntc_` of the notices stored before ids took the
 * spec's prefix (still read, marked and acknowledged by that id; they sort before every `nte_` one,
 * which are all newer, so newest first still holds).
 */
export const isNoticeId = (id: string) => id.startsWith('nte_') || id.startsWith('ntc_');

/** The notice as its person sees it (spec part B, "Notification"). */
export function shownNotice(n: NoticeRecord) {
  return {
    noticeId: n.noticeId,
    orgId: n.orgId,
    event: n.event,
    title: n.title,
    ...(n.body !== undefined ? { body: n.body } : {}),
    ...(n.url !== undefined ? { url: n.url } : {}),
    read: n.read,
    requireAck: n.requireAck,
    ...(n.ackedAt !== undefined ? { ackedAt: n.ackedAt } : {}),
    createdAt: n.createdAt,
  };
}

/** A page of the person's notices, newest first. */
export async function listNotices(userId: string, limit: number, cursor: string | undefined) {
  const scope = `notices:${userId}`;
  const start = decodeCursor(scope, cursor);
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':p': NOTICE },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return {
    notices: ((out.Items ?? []) as NoticeRecord[]).map(shownNotice),
    cursor: encodeCursor(scope, out.LastEvaluatedKey),
  };
}

const conditionFailed = (err: unknown) => (err as Error).name === 'ConditionalCheckFailedException';

/** Marks the person's notices read; ids that are not theirs (or no notice) are passed over. */
export async function markRead(userId: string, noticeIds: string[]): Promise<void> {
  await Promise.all(
    [...new Set(noticeIds)].map(async (id) => {
      try {
        await db.send(
          new UpdateCommand({
            TableName: TABLE(),
            Key: noticeKey(userId, id),
            UpdateExpression: 'SET #read = :t',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#read': 'read' },
            ExpressionAttributeValues: { ':t': true },
          }),
        );
      } catch (err) {
        if (!conditionFailed(err)) throw err;
      }
    }),
  );
}

/**
 * Acknowledges a notice of the person: `true` for the one call that set `ackedAt`, `false` when
 * it was already acknowledged; 404 for a notice that is not theirs. Answers the notice too, for
 * the timers its later steps leave behind.
 */
export async function ackNotice(userId: string, noticeId: string): Promise<{ acked: boolean; notice: NoticeRecord }> {
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: noticeKey(userId, noticeId),
        UpdateExpression: 'SET ackedAt = :now, #read = :t',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ackedAt)',
        ExpressionAttributeNames: { '#read': 'read' },
        ExpressionAttributeValues: { ':now': Date.now(), ':t': true },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { acked: true, notice: out.Attributes as NoticeRecord };
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
  const notice = isNoticeId(noticeId) ? await getItem<NoticeRecord>(noticeKey(userId, noticeId), true) : undefined;
  if (!notice) throw notFound(NOTICE_MESSAGES.notFound);
  return { acked: false, notice };
}
