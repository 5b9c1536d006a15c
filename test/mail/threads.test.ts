import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createTransport } from 'nodemailer';
import { db } from '../../shared/kernel/store/client';
import { queryAll } from '../../shared/kernel/store/ops';
import { TABLE } from '../../shared/kernel/store/table';
import { setLocalRecord } from '../../shared/ports/dns/local';
import { type MailWorld, mailboxFor, startMailWorld, unique, until } from './helpers';

/**
 * Labels, threads and actions (issue 17, Labels and Threads): Gmail's model; counters moved in
 * each thread's own transaction equal a recount after parallel actions; a label's page from its
 * index; searches; sending's refusals.
 */
let w: MailWorld;
let box: { domain: string; address: string; mailboxId: string };
beforeAll(async () => {
  w = await startMailWorld({ smtp: true });
  box = await mailboxFor(w.p, [w.p.owner.userId]);
});
afterAll(async () => {
  await w?.close();
});

const mb = () => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}`;

/** `n` messages from outside, each its own thread; answers their thread ids, newest first. */
async function receive(n: number, tag: string, extra: { attachments?: { filename: string; content: string }[] } = {}) {
  const client = createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true });
  for (let i = 0; i < n; i++) {
    await client.sendMail({
      from: `Sender ${i} <s${i}-${tag}@outside.example>`,
      to: box.address,
      subject: `${tag} number ${i}`,
      text: `Body ${i} of ${tag}`,
      ...extra,
    });
  }
  client.close();
  const res = await until(async () => {
    const r = await w.p.get(`${mb()}/threads?q=${encodeURIComponent(tag)}&limit=100`);
    return r.body.threads?.length === n ? r : undefined;
  });
  return res.body.threads.map((t: { threadId: string }) => t.threadId) as string[];
}

const labels = async () => {
  const res = await w.p.get(`${mb()}/labels`);
  return new Map(res.body.labels.map((l: { labelId: string }) => [l.labelId, l])) as Map<string, any>;
};

/** Threads and unread threads per label, counted from the threads themselves. */
async function recount() {
  const threads = await queryAll<{ labels: string[]; unread: boolean }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :t)',
    ExpressionAttributeValues: { ':pk': `MBX#${box.mailboxId}`, ':t': 'T#' },
  });
  const counts = new Map<string, { total: number; unread: number }>();
  for (const t of threads) {
    for (const l of t.labels) {
      const c = counts.get(l) ?? { total: 0, unread: 0 };
      c.total++;
      if (t.unread) c.unread++;
      counts.set(l, c);
    }
  }
  return counts;
}

test('labels: system ones first, user ones unique case-insensitively, nested by /, deleted off every thread', async () => {
  const list = await w.p.get(`${mb()}/labels`);
  expect(list.status).toBe(200);
  expect(list.body.labels.slice(0, 6).map((l: { labelId: string }) => l.labelId)).toEqual([
    'INBOX',
    'SENT',
    'DRAFTS',
    'SPAM',
    'TRASH',
    'STARRED',
  ]);
  const made = await w.p.post(`${mb()}/labels`, { name: 'Work/Clients' });
  expect(made.status).toBe(201);
  expect(made.body.label).toMatchObject({ name: 'Work/Clients', type: 'user', parent: 'Work', total: 0, unread: 0 });
  const dup = await w.p.post(`${mb()}/labels`, { name: 'work/clients' });
  expect(dup.status).toBe(409);
  expect(dup.body).toEqual({ error: 'A label with this name exists.' });
  expect((await w.p.post(`${mb()}/labels`, { name: 'Work//x' })).status).toBe(400);
  expect((await w.p.post(`${mb()}/labels`, { name: 'inbox' })).body).toEqual({
    error: "System labels can't be created or deleted.",
  });
  expect((await w.p.delete(`${mb()}/labels/INBOX`)).status).toBe(400);
  expect((await w.p.delete(`${mb()}/labels/lbl_nope`)).body).toEqual({ error: 'Label not found' });

  const tag = unique('lbl');
  const [t1] = await receive(1, tag);
  const labelId = made.body.label.labelId;
  const add = await w.p.post(`${mb()}/threads/actions`, { threadIds: [t1], action: 'addLabels', labelIds: [labelId] });
  expect(add.body.results).toEqual([{ threadId: t1, ok: true }]);
  expect((await labels()).get(labelId)).toMatchObject({ total: 1, unread: 1 });
  const byLabel = await w.p.get(`${mb()}/threads?label=${labelId}`);
  expect(byLabel.body.threads.map((t: { threadId: string }) => t.threadId)).toEqual([t1]);
  expect((await w.p.get(`${mb()}/threads?q=${encodeURIComponent('label:work/clients')}`)).body.threads).toHaveLength(1);
  expect((await w.p.post(`${mb()}/threads/actions`, { threadIds: [t1], action: 'addLabels' })).status).toBe(400);

  expect((await w.p.delete(`${mb()}/labels/${labelId}`)).status).toBe(204);
  const after = await w.p.get(`${mb()}/threads/${t1}`);
  expect(after.body.thread.labels).toEqual(['INBOX']);
  expect(after.body.messages).toHaveLength(1);
  expect((await w.p.get(`${mb()}/threads?label=${labelId}`)).body).toEqual({ error: 'Label not found' });
});

test('actions: star, archive, trash and delete from TRASH only; one result per thread', async () => {
  const tag = unique('act');
  const [a, b2] = await receive(2, tag);
  const act = (action: string, threadIds: string[]) => w.p.post(`${mb()}/threads/actions`, { threadIds, action });
  expect((await act('star', [a as string])).body.results[0].ok).toBe(true);
  expect(
    (await w.p.get(`${mb()}/threads?label=STARRED`)).body.threads.map((t: { threadId: string }) => t.threadId),
  ).toContain(a);
  await act('read', [a as string]);
  await act('archive', [a as string]);
  const inbox = await w.p.get(`${mb()}/threads?q=${tag}`);
  expect(inbox.body.threads.map((t: { threadId: string }) => t.threadId)).toEqual([b2]);

  const refused = await act('delete', [b2 as string, 'thr_nope']);
  expect(refused.body.results).toEqual([
    { threadId: b2, ok: false, error: 'Only threads in TRASH or SPAM can be deleted.' },
    { threadId: 'thr_nope', ok: false, error: 'Thread not found' },
  ]);
  await act('trash', [b2 as string]);
  expect((await w.p.get(`${mb()}/threads/${b2}`)).body.thread.labels).toEqual(['TRASH']);
  await act('untrash', [b2 as string]);
  expect((await w.p.get(`${mb()}/threads/${b2}`)).body.thread.labels).toEqual(['INBOX']);
  await act('spam', [b2 as string]);
  await act('notSpam', [b2 as string]);
  await act('spam', [b2 as string]);
  expect((await act('delete', [b2 as string])).body.results).toEqual([{ threadId: b2, ok: true }]);
  expect((await w.p.get(`${mb()}/threads/${b2}`)).status).toBe(404);
  await act('unstar', [a as string]);
  await act('unread', [a as string]);
  expect((await w.p.get(`${mb()}/threads/${a}`)).body.thread).toMatchObject({ labels: [], unread: true });
});

test('label counters equal a recount after 50 parallel actions', async () => {
  const tag = unique('par');
  const ids = await receive(6, tag);
  const actions = ['read', 'unread', 'star', 'unstar', 'archive', 'trash', 'untrash', 'spam', 'notSpam'];
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      w.p.post(`${mb()}/threads/actions`, {
        threadIds: ids.filter((_, j) => (i + j) % 2 === 0),
        action: actions[i % actions.length],
      }),
    ),
  );
  const counted = await recount();
  const shown = await labels();
  for (const id of ['INBOX', 'STARRED', 'TRASH', 'SPAM']) {
    expect({ id, total: shown.get(id).total, unread: shown.get(id).unread }).toEqual({
      id,
      total: counted.get(id)?.total ?? 0,
      unread: counted.get(id)?.unread ?? 0,
    });
  }
});

test('pages: newest first, limit and signed cursor; searches by operator', async () => {
  const tag = unique('pg');
  const ids = await receive(5, tag, { attachments: [{ filename: 'a.txt', content: 'A' }] });
  const first = await w.p.get(`${mb()}/threads?limit=2`);
  expect(first.body.threads).toHaveLength(2);
  expect(first.body.threads.map((t: { threadId: string }) => t.threadId)).toEqual(ids.slice(0, 2));
  const second = await w.p.get(`${mb()}/threads?limit=2&cursor=${first.body.cursor}`);
  expect(second.body.threads.map((t: { threadId: string }) => t.threadId)).toEqual(ids.slice(2, 4));
  expect((await w.p.get(`${mb()}/threads?cursor=forged.cursor`)).body).toEqual({
    error: 'Invalid page cursor. Run the request again.',
  });
  const q = (s: string) => w.p.get(`${mb()}/threads?limit=100&q=${encodeURIComponent(s)}`);
  expect((await q(`${tag} has:attachment`)).body.threads).toHaveLength(5);
  expect((await q(`subject:"${tag} number 3"`)).body.threads).toHaveLength(1);
  expect((await q(`from:s2-${tag}`)).body.threads).toHaveLength(1);
  expect((await q(`to:${box.address} ${tag} is:unread`)).body.threads).toHaveLength(5);
  expect((await q(`${tag} before:2000/01/01`)).body.threads).toHaveLength(0);
  expect((await q(`${tag} after:2000/01/01`)).body.threads).toHaveLength(5);
  // Usage counts what was filed.
  const usage = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/usage`);
  const mine = usage.body.mailboxes.find((m: { mailboxId: string }) => m.mailboxId === box.mailboxId);
  expect(mine.receivedThisMonth).toBeGreaterThanOrEqual(5);
  expect(mine.messages).toBeGreaterThanOrEqual(5);
  expect(mine.bytes).toBeGreaterThan(5 * 300);
  const paged = await w.p.get(`${mb()}/threads?limit=3&q=${tag}`);
  const rest = await w.p.get(`${mb()}/threads?limit=3&q=${tag}&cursor=${paged.body.cursor}`);
  expect([...paged.body.threads, ...rest.body.threads].map((t: { threadId: string }) => t.threadId)).toEqual(ids);
});

test("a search matches a thread when any of its messages matches: the first one's subject after a reply renamed it", async () => {
  const tag = unique('any');
  const label = await w.p.post(`${mb()}/labels`, { name: `Projects ${tag}` });
  const client = createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true });
  const messageId = `<first-${tag}@outside.example>`;
  await client.sendMail({
    from: `Ann <ann-${tag}@outside.example>`,
    to: box.address,
    subject: `Quarterly figures ${tag}`,
    text: 'The figures.',
    messageId,
  });
  const [threadId] = await until(async () => {
    const r = await w.p.get(`${mb()}/threads?q=${encodeURIComponent(`subject:figures ${tag}`)}`);
    return r.body.threads?.length === 1 ? [r.body.threads[0].threadId as string] : undefined;
  });
  await w.p.post(`${mb()}/threads/actions`, {
    threadIds: [threadId],
    action: 'addLabels',
    labelIds: [label.body.label.labelId],
  });
  await client.sendMail({
    from: `Bob <bob-${tag}@outside.example>`,
    to: box.address,
    subject: `Lunch on Friday? ${tag}`,
    text: 'Also: lunch.',
    inReplyTo: messageId,
    references: [messageId],
  });
  client.close();
  await until(async () => {
    const t = await w.p.get(`${mb()}/threads/${threadId}`);
    return t.body.messages?.length === 2 ? t : undefined;
  });

  const ids = async (query: string, where = '') => {
    const r = await w.p.get(`${mb()}/threads?limit=100&q=${encodeURIComponent(query)}${where}`);
    expect(r.status).toBe(200);
    return r.body.threads.map((t: { threadId: string }) => t.threadId);
  };
  const underLabel = `&label=${label.body.label.labelId}`;
  for (const where of ['', underLabel]) {
    expect(await ids(`subject:"quarterly figures ${tag}"`, where)).toEqual([threadId]);
    expect(await ids(`subject:lunch subject:quarterly ${tag}`, where)).toEqual([threadId]);
    expect(await ids(`quarterly ${tag}`, where)).toEqual([threadId]);
    expect(await ids(`from:ann-${tag}`, where)).toEqual([threadId]);
    expect(await ids(`subject:"quarterly figures ${tag}" subject:nothing-like-it`, where)).toEqual([]);
  }
  // The list shows the latest subject; what a search matches beyond it stays out of the answer.
  const listed = await w.p.get(`${mb()}/threads?limit=100&q=${encodeURIComponent(tag)}${underLabel}`);
  expect(listed.body.threads).toHaveLength(1);
  expect(listed.body.threads[0].subject).toBe(`Lunch on Friday? ${tag}`);
  expect(Object.keys(listed.body.threads[0])).not.toContain('subjects');
});

test("send's refusals: recipients, line breaks, from, reply, parts, domains, quota, size", async () => {
  const send = (body: object) => w.p.post(`${mb()}/send`, body);
  expect((await send({ subject: 'x' })).body).toEqual({ error: 'Add at least one recipient.' });
  const many = Array.from({ length: 101 }, (_, i) => `r${i}@outside.example`);
  expect((await send({ to: many.slice(0, 100), cc: many.slice(100) })).body).toEqual({
    error: 'A message can have at most 100 recipients.',
  });
  expect((await send({ to: ['a@outside.example'], subject: 'Hi\r\nBcc: x@y.example' })).body).toEqual({
    error: 'Headers cannot contain line breaks.',
  });
  expect((await send({ to: ['a@outside.example'], from: 'other@outside.example' })).body).toEqual({
    error: "from must be the mailbox's address or one of its aliases.",
  });
  expect((await send({ to: ['a@outside.example'], inReplyTo: 'msg_nope' })).body).toEqual({
    error: 'The message answered was not found.',
  });
  expect((await send({ to: ['a@outside.example'], attachments: [{ messageId: 'msg_nope', index: 0 }] })).body).toEqual({
    error: 'A forwarded attachment was not found.',
  });
  expect((await send({ to: ['a@outside.example'], attachments: [{ uploadId: 'upl_nope' }] })).body).toEqual({
    error: 'Upload upl_nope not found or not uploaded yet.',
  });
  expect(
    (
      await w.p.post(`${mb()}/uploads`, {
        filename: 'big.bin',
        contentType: 'application/octet-stream',
        size: 26 * 1024 * 1024,
      })
    ).status,
  ).toBe(413);

  // A domain no longer verified (removed and added again, its mailbox kept), then a removed one.
  const domain = `${unique('pend')}.org`;
  const domains = `/v1/orgs/${w.p.org.orgId}/mail/domains`;
  const txt = (await w.p.post(domains, { domain })).body.domain.records[0];
  await setLocalRecord(domain, { name: txt.name, type: 'TXT', value: txt.value });
  expect((await w.p.post(`${domains}/${domain}/verify`)).body.domain.status).toBe('verified');
  const pending = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes`, {
    address: `p@${domain}`,
    name: 'P',
    members: [w.p.owner.userId],
  });
  expect(pending.status).toBe(201);
  expect((await w.p.delete(`${domains}/${domain}`)).status).toBe(204);
  expect((await w.p.post(domains, { domain })).body.domain.status).toBe('pending');
  const pendingSend = await w.p.post(
    `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${pending.body.mailbox.mailboxId}/send`,
    {
      to: ['a@outside.example'],
    },
  );
  expect(pendingSend.status).toBe(409);
  expect(pendingSend.body).toEqual({ error: `${domain} isn't verified for sending yet.` });
  await w.p.delete(`/v1/orgs/${w.p.org.orgId}/mail/domains/${domain}`);
  expect(
    (
      await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${pending.body.mailbox.mailboxId}/send`, {
        to: ['a@outside.example'],
      })
    ).body,
  ).toEqual({ error: "This mailbox's domain was removed." });

  // A message over 25 MB.
  const big = Buffer.alloc(19 * 1024 * 1024, 7);
  const up = await w.p.post(`${mb()}/uploads`, {
    filename: 'big.bin',
    contentType: 'application/octet-stream',
    size: big.length,
  });
  await fetch(up.body.upload.url, { method: 'PUT', headers: up.body.upload.headers, body: big });
  const tooLarge = await send({ to: ['a@outside.example'], attachments: [{ uploadId: up.body.upload.uploadId }] });
  expect(tooLarge.status).toBe(413);
  expect(tooLarge.body).toEqual({ error: 'Messages can be at most 25 MB.' });

  // The daily quota: today's count at the quota.
  const day = new Date().toISOString().slice(0, 10);
  await db.send(
    new PutCommand({ TableName: TABLE(), Item: { pk: `MBX#${box.mailboxId}`, sk: `DAY#${day}`, sent: 500 } }),
  );
  const quota = await send({ to: ['a@outside.example'], text: 'x' });
  expect(quota.status).toBe(429);
  expect(quota.body).toEqual({ error: 'The daily sending quota is used up. It resets at midnight UTC.' });
  expect((await w.p.get(`${mb()}/limits`)).body.limits).toMatchObject({ sentToday: 500, remainingToday: 0 });
});
