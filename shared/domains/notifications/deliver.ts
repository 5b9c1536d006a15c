import type { Role } from '../../kernel/auth/scopes';
import type { Member } from '../../kernel/identity/schema';
import { getUser } from '../../kernel/identity/users';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { putOnce, queryPrefix } from '../../kernel/store/ops';
import { getItem, ORG_PREFIX, orgPk, TABLE } from '../../kernel/store/table';
import { mail } from '../../ports/mail-transport';
import { phone } from '../../ports/phone';
import { scheduler, timerKey } from '../../ports/scheduler';
import type { Channel, NotifyEvent, Rule, Step } from './kinds';
import { type NoticeRecord, noticeIdOf, noticeKey } from './notices';
import { protocolsFor } from './protocols';
import type { NotifyMessage } from './raise';
import { quietUntil, readSettings } from './settings';

/** What applies to one person: the rule's steps (a plain in-app notice when no protocol applies). */
interface Plan {
  steps: Step[];
  beforeEvent: boolean;
  overrideQuietHours: boolean;
  protocolId?: string;
}

const PLAIN: Plan = {
  steps: [{ afterMinutes: 0, channels: ['inapp'] }],
  beforeEvent: false,
  overrideQuietHours: false,
};

/** A rule fits an event of its kinds whose attributes hold one of the listed values for each key of `match`. */
export function ruleFits(rule: Rule, event: Pick<NotifyEvent, 'kind' | 'attributes'>): boolean {
  if (!rule.events.includes(event.kind)) return false;
  return Object.entries(rule.match ?? {}).every(([key, values]) => {
    const value = event.attributes[key];
    return value !== undefined && values.includes(value);
  });
}

/**
 * Who gets what for an event: the first fitting rule that names a person decides for them
 * (protocols oldest first, rules in order). A rule's recipients are the members with its `roles`
 * and its `userIds` (members only), else the event's own people. No fitting rule at all: the
 * event's people get a plain in-app notice.
 */
export async function planEvent(event: NotifyEvent): Promise<Map<string, Plan>> {
  const protocols = await protocolsFor(event.orgId, event.resources);
  const fitting = protocols.flatMap((p) =>
    p.rules.filter((r) => ruleFits(r, event)).map((rule) => ({ rule, protocolId: p.protocolId })),
  );
  const plans = new Map<string, Plan>();
  if (fitting.length === 0) {
    for (const person of event.people) plans.set(person, PLAIN);
    return plans;
  }
  let members: Member[] | undefined;
  for (const { rule, protocolId } of fitting) {
    let recipients = event.people;
    if (rule.roles?.length || rule.userIds?.length) {
      members ??= await queryPrefix<Member>(orgPk(event.orgId), ORG_PREFIX.member);
      const roles = new Set<Role>(rule.roles ?? []);
      const ids = new Set(rule.userIds ?? []);
      recipients = members.filter((m) => roles.has(m.role) || ids.has(m.userId)).map((m) => m.userId);
    }
    for (const person of recipients) {
      if (plans.has(person)) continue;
      plans.set(person, {
        steps: rule.steps,
        beforeEvent: rule.beforeEvent === true,
        overrideQuietHours: rule.overrideQuietHours === true,
        protocolId,
      });
    }
  }
  return plans;
}

/**
 * Delivers an event: one notice per person (a conditional put: a redelivered event makes none
 * again), then its first step, which runs once (runStep's condition): a repeat of an event whose
 * first delivery failed after the put sends the step then, and one that was delivered sends nothing.
 */
export async function deliverEvent(event: NotifyEvent, now = Date.now()): Promise<string[]> {
  const plans = await planEvent(event);
  const made: string[] = [];
  await Promise.all(
    [...plans].map(async ([userId, plan]) => {
      const noticeId = noticeIdOf(event, userId);
      const notice: NoticeRecord = {
        ...noticeKey(userId, noticeId),
        noticeId,
        userId,
        orgId: event.orgId,
        eventId: event.eventId,
        event: event.kind,
        title: event.title,
        ...(event.body !== undefined ? { body: event.body } : {}),
        ...(event.url !== undefined ? { url: event.url } : {}),
        read: false,
        requireAck: plan.steps.length > 1,
        createdAt: event.at,
        steps: plan.steps,
        escalationStep: -1,
        stepsFrom: plan.beforeEvent ? (event.startsAt ?? event.at) : event.at,
        beforeEvent: plan.beforeEvent,
        overrideQuietHours: plan.overrideQuietHours,
        ...(plan.protocolId ? { protocolId: plan.protocolId } : {}),
        sent: [],
      };
      try {
        await putOnce({ Item: notice, ConditionExpression: 'attribute_not_exists(pk)' });
        made.push(noticeId);
      } catch (err) {
        if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
      }
      await runStep(userId, noticeId, 0, now);
    }),
  );
  return made;
}

/** When step `n` of a notice is due (step 0: at once). */
export function stepDue(notice: Pick<NoticeRecord, 'steps' | 'stepsFrom' | 'beforeEvent'>, n: number): number {
  if (n === 0) return 0;
  const minutes = (notice.steps[n] as Step).afterMinutes * 60_000;
  return notice.beforeEvent ? notice.stepsFrom - minutes : notice.stepsFrom + minutes;
}

export const stepTimer = (noticeId: string, n: number) => timerKey(noticeId, n);

/**
 * Sends step `n` of a notice, once: only after moving `escalationStep` from `n - 1` to `n` while
 * the notice is not acknowledged, so a repeated timer, a late one or one after the ack sends
 * nothing. During the person's quiet hours a step with more than `inapp` waits for their end
 * (unless its rule overrides them). Then the next step's timer is set. Answers what happened.
 */
export async function runStep(
  userId: string,
  noticeId: string,
  n: number,
  now = Date.now(),
): Promise<'sent' | 'held' | 'skipped'> {
  const notice = await getItem<NoticeRecord>(noticeKey(userId, noticeId), true);
  if (!notice || notice.ackedAt !== undefined || notice.escalationStep !== n - 1 || !notice.steps[n]) return 'skipped';
  const step = notice.steps[n] as Step;
  const outward = step.channels.filter((c) => c !== 'inapp');
  const settings = outward.length > 0 ? await readSettings(userId) : undefined;
  if (settings && !notice.overrideQuietHours) {
    const until = quietUntil(settings.quietHours, now);
    if (until !== undefined) {
      await scheduler().schedule(stepTimer(noticeId, n), until, stepMessage(userId, noticeId, n, until));
      return 'held';
    }
  }
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: noticeKey(userId, noticeId),
        UpdateExpression: 'SET escalationStep = :n, #sent = list_append(#sent, :s)',
        ConditionExpression: 'escalationStep = :before AND attribute_not_exists(ackedAt)',
        ExpressionAttributeNames: { '#sent': 'sent' },
        ExpressionAttributeValues: {
          ':n': n,
          ':before': n - 1,
          ':s': [{ step: n, channels: step.channels, at: now }],
        },
      }),
    );
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return 'skipped';
    throw err;
  }
  if (outward.length > 0) await send(notice, outward, settings?.phone ?? null);
  const next = n + 1;
  if (notice.steps[next]) {
    const due = Math.max(now, stepDue(notice, next));
    await scheduler().schedule(stepTimer(noticeId, next), due, stepMessage(userId, noticeId, next, due));
  }
  return 'sent';
}

const stepMessage = (userId: string, noticeId: string, step: number, at: number): NotifyMessage => ({
  type: 'step',
  userId,
  noticeId,
  step,
  at,
});

/**
 * Email, text and call of one step. Without a phone number a text or call goes by email (once,
 * with the step's own email if it has one).
 */
async function send(notice: NoticeRecord, channels: Channel[], number: string | null): Promise<void> {
  const user = await getUser(notice.userId);
  const line = `${notice.title}${notice.url ? ` ${notice.url}` : ''}`;
  const byMail = channels.includes('email') || (!number && channels.some((c) => c === 'sms' || c === 'voice'));
  const jobs: Promise<unknown>[] = [];
  if (byMail && user?.email) {
    const ack = notice.requireAck ? '\n\nAcknowledge it to stop further alerts.' : '';
    jobs.push(
      mail().send({
        to: [user.email],
        subject: notice.title,
        text: `${notice.body ?? notice.title}${notice.url ? `\n\n${notice.url}` : ''}${ack}\n`,
      }),
    );
  }
  if (number && channels.includes('sms')) jobs.push(phone().text(number, line));
  if (number && channels.includes('voice')) jobs.push(phone().call(number, notice.title));
  await Promise.all(jobs);
}

/**
 * Where an event goes beside people: the webhook endpoints subscribed to its kind, handed in by the
 * notify worker (shared/domains/webhooks/deliveries.ts `fanOut`). Webhooks sit above notifications
 * (an endpoint subscribes to notification kinds), so notifications import nothing of them.
 */
export type WebhookFanOut = (event: NotifyEvent) => Promise<unknown>;

/** The notify worker's work for one message: an event goes to people and to webhook endpoints. */
export async function handleNotifyMessage(
  message: NotifyMessage,
  webhooks: WebhookFanOut,
  now = Date.now(),
): Promise<void> {
  if (message.type === 'event') await Promise.all([deliverEvent(message.event, now), webhooks(message.event)]);
  else await runStep(message.userId, message.noticeId, message.step, Math.max(now, message.at ?? 0));
}
