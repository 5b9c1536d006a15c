import type { SQSEvent } from 'aws-lambda';
import { handler } from '../../functions/workers/mail-feedback';
import { type MailWorld, mailboxFor, startMailWorld, unique, until } from './helpers';

/**
 * Bounces and complaints (issue 17, the mail port's feedback): a send to SES's simulator is taken
 * as SES takes it, then the mail-feedback worker counts the bounce and the complaint in the
 * mailbox's usage and files a failure notice in the thread of the message that bounced; a
 * redelivered event changes nothing.
 */
let w: MailWorld;
let box: { domain: string; address: string; mailboxId: string };
beforeAll(async () => {
  w = await startMailWorld({ smtp: true, workers: ['mail-feedback'] });
  box = await mailboxFor(w.p, [w.p.owner.userId]);
});
afterAll(async () => {
  await w?.close();
});

const mb = () => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}`;
const usage = async () => {
  const res = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/usage`);
  return res.body.mailboxes.find((m: { mailboxId: string }) => m.mailboxId === box.mailboxId);
};

test('a bounce files a failure notice in the thread and counts; a complaint counts; each once', async () => {
  const subject = `Launch plan ${unique()}`;
  const sent = await w.p.post(`${mb()}/send`, {
    to: ['bounce@simulator.amazonses.com', 'complaint@simulator.amazonses.com'],
    subject,
    text: 'Here is the plan.',
  });
  expect(sent.status).toBe(200);
  expect(sent.body.rejected).toEqual([]);

  const thread = await until(async () => {
    const res = await w.p.get(`${mb()}/threads?label=INBOX`);
    return res.body.threads?.find((t: { subject: string }) => t.subject.includes(subject));
  });
  expect(thread.subject).toBe(`Delivery Status Notification (Failure): ${subject}`);
  // The notice joined the sent message's thread (it answers it), unread in INBOX.
  expect(thread).toMatchObject({ messageCount: 2, unread: true });
  expect(thread.labels).toEqual(expect.arrayContaining(['INBOX', 'SENT']));
  const page = await w.p.get(`${mb()}/threads/${thread.threadId}`);
  const notice = page.body.messages.find((m: { direction: string }) => m.direction === 'in');
  expect(notice.from.address).toBe(`mailer-daemon@${box.domain}`);
  const body = await w.p.get(`${mb()}/threads/${thread.threadId}/messages/${notice.messageId}/body`);
  expect(body.body.text).toContain('bounce@simulator.amazonses.com');
  expect(body.body.text).not.toContain('complaint@simulator.amazonses.com');

  await until(async () => ((await usage())?.complaintsThisMonth === 1 ? true : undefined));
  expect(await usage()).toMatchObject({ bouncesThisMonth: 1, complaintsThisMonth: 1, sentThisMonth: 1 });
});

test('a redelivered event counts nothing twice and files no second notice; an unknown sender is dropped', async () => {
  const event = (body: unknown): SQSEvent =>
    ({ Records: [{ messageId: unique(), body: JSON.stringify(body) }] }) as unknown as SQSEvent;
  const before = await usage();
  const bounce = {
    eventType: 'Bounce',
    mail: { messageId: unique('ses'), source: box.address, commonHeaders: { subject: 'Twice' } },
    bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 'gone@outside.example' }] },
  };
  expect(await handler(event(bounce))).toEqual({ batchItemFailures: [] });
  expect(await handler(event(bounce))).toEqual({ batchItemFailures: [] });
  expect((await usage()).bouncesThisMonth).toBe(before.bouncesThisMonth + 1);
  const res = await w.p.get(`${mb()}/threads?label=INBOX&q=${encodeURIComponent('subject:Twice')}`);
  expect(res.body.threads).toHaveLength(1);
  expect(res.body.threads[0].messageCount).toBe(1);

  // A transient bounce counts but files nothing; another account's sender is nobody's.
  const transient = { ...bounce, mail: { ...bounce.mail, messageId: unique('ses') } };
  transient.bounce = { ...bounce.bounce, bounceType: 'Transient' };
  expect(await handler(event(transient))).toEqual({ batchItemFailures: [] });
  expect((await usage()).bouncesThisMonth).toBe(before.bouncesThisMonth + 2);
  const stranger = { ...bounce, mail: { ...bounce.mail, messageId: unique('ses'), source: 'x@elsewhere.example' } };
  expect(await handler(event(stranger))).toEqual({ batchItemFailures: [] });
  expect((await usage()).bouncesThisMonth).toBe(before.bouncesThisMonth + 2);
});
