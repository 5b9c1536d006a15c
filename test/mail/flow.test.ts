import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Person } from '../helpers/platform';
import { type MailWorld, mailboxFor, startMailWorld, unique, until } from './helpers';

/**
 * Mail end to end on the local platform (issue 17, Compose and Inbound): A mails B with an
 * uploaded attachment over the local SMTP server, B reads it and replies in the thread, A sees
 * the reply in the same thread; an outside SMTP client delivers into a mailbox; unknown platform
 * addresses are refused 550 5.1.1; everything lands in the outbox as .eml.
 */
let w: MailWorld;
let b: Person;
let boxA: { domain: string; address: string; mailboxId: string };
let boxB: string;
let addressB: string;

beforeAll(async () => {
  w = await startMailWorld({ smtp: true });
  b = await w.p.person('developer');
  boxA = await mailboxFor(w.p, [w.p.owner.userId]);
  addressB = `b-${unique()}@${boxA.domain}`;
  const res = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes`, {
    address: addressB,
    name: 'B',
    members: [b.userId],
  });
  boxB = res.body.mailbox.mailboxId;
});
afterAll(async () => {
  await w?.close();
});

const mb = (id: string) => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${id}`;
const inboxOf = (id: string, token: string, query = '') => w.p.get(`${mb(id)}/threads${query}`, { token });

async function upload(mailboxId: string, token: string, filename: string, contentType: string, bytes: Buffer) {
  const res = await w.p.post(`${mb(mailboxId)}/uploads`, { filename, contentType, size: bytes.length }, { token });
  expect(res.status).toBe(201);
  const put = await fetch(res.body.upload.url, { method: 'PUT', headers: res.body.upload.headers, body: bytes });
  expect(put.status).toBe(200);
  return res.body.upload.uploadId as string;
}

test("an upload link takes only the type and size it was made for, as S3's signature does", async () => {
  const bytes = Buffer.from('attachment bytes');
  const res = await w.p.post(`${mb(boxA.mailboxId)}/uploads`, {
    filename: 'a.txt',
    contentType: 'text/plain',
    size: bytes.length,
  });
  expect(res.status).toBe(201);
  const { url, headers } = res.body.upload as { url: string; headers: Record<string, string> };
  const put = (h: Record<string, string>, body: Buffer) => fetch(url, { method: 'PUT', headers: h, body });
  const otherType = await put({ ...headers, 'content-type': 'text/html' }, bytes);
  expect(otherType.status).toBe(403);
  expect(await otherType.text()).toContain('SignatureDoesNotMatch');
  expect((await put(headers, Buffer.concat([bytes, Buffer.from('!')]))).status).toBe(403);
  expect((await put(headers, bytes)).status).toBe(200);
});

const smtpClient = () => createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true });

test('A mails B with an attachment; B reads it, replies in the thread; A sees the reply', async () => {
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
  const uploadId = await upload(boxA.mailboxId, w.p.owner.token, 'data.bin', 'application/octet-stream', bytes);
  const subject = `Quarterly figures ${unique()}`;
  const sent = await w.p.post(`${mb(boxA.mailboxId)}/send`, {
    to: [addressB],
    subject,
    text: 'Figures attached.',
    html: '<p>Figures <b>attached</b>.</p>',
    attachments: [{ uploadId }],
  });
  expect(sent.status).toBe(200);
  expect(sent.body.rejected).toEqual([]);
  expect(sent.body.thread.labels).toEqual(['SENT']);
  expect(sent.body.message).toMatchObject({ direction: 'out', subject, to: [{ address: addressB }] });

  const thread = await until(async () => {
    const res = await inboxOf(boxB, b.token);
    return res.body.threads?.find((t: { subject: string }) => t.subject === subject);
  });
  expect(thread).toMatchObject({ unread: true, labels: ['INBOX'], hasAttachment: true, messageCount: 1 });
  expect(thread.from[0].address).toBe(boxA.address);

  const full = await w.p.get(`${mb(boxB)}/threads/${thread.threadId}`, { token: b.token });
  expect(full.status).toBe(200);
  const [received] = full.body.messages;
  expect(received.attachments).toEqual([
    expect.objectContaining({ index: 0, filename: 'data.bin', contentType: 'application/octet-stream', size: 3000 }),
  ]);
  const link = await w.p.get(`${mb(boxB)}/messages/${received.messageId}/attachments/0`, { token: b.token });
  expect(link.status).toBe(200);
  expect(Buffer.from(await (await fetch(link.body.url)).arrayBuffer()).equals(bytes)).toBe(true);
  const body = await w.p.get(`${mb(boxB)}/threads/${thread.threadId}/messages/${received.messageId}/body`, {
    token: b.token,
  });
  // As the MIME parts carry them (each ends with its line break).
  expect(body.body.text.trim()).toBe('Figures attached.');
  expect(body.body.html.trim()).toBe('<p>Figures <b>attached</b>.</p>');

  const reply = await w.p.post(
    `${mb(boxB)}/send`,
    { to: [boxA.address], subject: `Re: ${subject}`, text: 'Thanks!', inReplyTo: received.messageId },
    { token: b.token },
  );
  expect(reply.status).toBe(200);
  expect(reply.body.thread.threadId).toBe(thread.threadId);
  expect(reply.body.message.inReplyTo).toBe(received.headerId);

  const aThread = await until(async () => {
    const res = await w.p.get(`${mb(boxA.mailboxId)}/threads/${sent.body.thread.threadId}`);
    return res.body.messages?.length === 2 ? res.body : undefined;
  });
  expect(aThread.thread.labels.sort()).toEqual(['INBOX', 'SENT']);
  expect(aThread.messages.map((m: { direction: string }) => m.direction)).toEqual(['out', 'in']);
  expect(aThread.messages[1].from.address).toBe(addressB);

  // B forwards the attachment it got: the part travels again, byte-equal.
  const fwd = await w.p.post(
    `${mb(boxB)}/send`,
    {
      to: ['carol@outside.example'],
      subject: `Fwd: ${subject}`,
      text: 'See attached.',
      attachments: [{ messageId: received.messageId, index: 0 }],
    },
    { token: b.token },
  );
  expect(fwd.status).toBe(200);
  expect(fwd.body.message.attachments).toEqual([expect.objectContaining({ filename: 'data.bin', size: 3000 })]);
  const fwdLink = await w.p.get(`${mb(boxB)}/messages/${fwd.body.message.messageId}/attachments/0`, { token: b.token });
  expect(Buffer.from(await (await fetch(fwdLink.body.url)).arrayBuffer()).equals(bytes)).toBe(true);

  // Both messages are in the outbox as .eml files.
  const files = readdirSync(w.outbox).map((f) => readFileSync(join(w.outbox, f), 'utf8'));
  expect(files.filter((f) => f.includes(subject)).length).toBeGreaterThanOrEqual(2);
});

test('an outside SMTP client delivers into a mailbox; unknown platform addresses are refused 550 5.1.1', async () => {
  const subject = `From outside ${unique()}`;
  const client = smtpClient();
  await client.sendMail({ from: 'Carol <carol@outside.example>', to: addressB, subject, text: 'Hello B' });
  const thread = await until(async () => {
    const res = await inboxOf(boxB, b.token, `?q=${encodeURIComponent('from:carol')}`);
    return res.body.threads?.find((t: { subject: string }) => t.subject === subject);
  });
  expect(thread.from).toEqual([{ name: 'Carol', address: 'carol@outside.example' }]);

  await expect(
    client.sendMail({ from: 'carol@outside.example', to: `nobody-${unique()}@${boxA.domain}`, subject, text: 'x' }),
  ).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('5.1.1') });
  // An outside address is taken (relayed: the outbox keeps it).
  const out = await client.sendMail({
    from: addressB,
    to: 'dave@elsewhere.example',
    subject: `${subject} out`,
    text: 'x',
  });
  expect(out.accepted).toEqual(['dave@elsewhere.example']);
  client.close();

  // Sending to an unknown platform address is refused at once.
  const refused = await w.p.post(
    `${mb(boxB)}/send`,
    { to: [`ghost-${unique()}@${boxA.domain}`], subject: 'Hello', text: 'x' },
    { token: b.token },
  );
  expect(refused.status).toBe(400);
  expect(refused.body.error).toMatch(/^Every recipient was refused: ghost-/);
});

test('HTML bodies are cleaned: no scripts, handlers or forms; remote images blocked unless images=1; cid parts linked; raw by link', async () => {
  const subject = `Rich ${unique()}`;
  const html =
    '<p onclick="steal()">Hi<script>alert(1)</script></p><form action="https://evil.example"><input name="p"></form>' +
    '<img src="https://tracker.example/p.gif"><img src="cid:logo@x">';
  const client = smtpClient();
  await client.sendMail({
    from: 'news@outside.example',
    to: addressB,
    subject,
    html,
    attachments: [{ filename: 'logo.png', content: Buffer.from('PNGDATA'), cid: 'logo@x', contentType: 'image/png' }],
  });
  client.close();
  const thread = await until(async () => {
    const res = await inboxOf(boxB, b.token);
    return res.body.threads?.find((t: { subject: string }) => t.subject === subject);
  });
  const full = await w.p.get(`${mb(boxB)}/threads/${thread.threadId}`, { token: b.token });
  const message = full.body.messages[0];
  const path = `${mb(boxB)}/threads/${thread.threadId}/messages/${message.messageId}/body`;
  const blocked = await w.p.get(path, { token: b.token });
  expect(blocked.status).toBe(200);
  const clean: string = blocked.body.html;
  expect(clean).not.toMatch(/<script|onclick|<form|<input|alert\(1\)/i);
  expect(clean).toContain('data-blocked-src="https://tracker.example/p.gif"');
  expect(blocked.body.remoteImagesBlocked).toBe(1);
  const cidLink = /<img src="([^"]+)"/.exec(clean)?.[1]?.replace(/&amp;/g, '&') as string;
  expect(Buffer.from(await (await fetch(cidLink)).arrayBuffer()).toString()).toBe('PNGDATA');
  const shown = await w.p.get(`${path}?images=1`, { token: b.token });
  expect(shown.body.html).toContain('src="https://tracker.example/p.gif"');

  const raw = await w.p.get(`${mb(boxB)}/messages/${message.messageId}/raw`, { token: b.token });
  expect(raw.status).toBe(200);
  const eml = await (await fetch(raw.body.url)).text();
  expect(eml).toContain(`Subject: ${subject}`);
  expect(raw.body.size).toBe(Buffer.byteLength(eml));

  expect((await w.p.get(`${mb(boxB)}/messages/msg_nope/raw`, { token: b.token })).body).toEqual({
    error: 'Message not found',
  });
  expect((await w.p.get(`${mb(boxB)}/messages/${message.messageId}/attachments/7`, { token: b.token })).body).toEqual({
    error: 'Attachment not found',
  });
  expect(
    (await w.p.get(`${mb(boxB)}/threads/${thread.threadId}/messages/msg_nope/body`, { token: b.token })).status,
  ).toBe(404);
  expect((await w.p.get(`${mb(boxB)}/threads/thr_nope`, { token: b.token })).body).toEqual({
    error: 'Thread not found',
  });
});

test('deleting a mailbox removes its mail and objects and frees its address', async () => {
  const { storage } = await import('../../shared/ports/object-storage');
  const { queryAll } = await import('../../shared/kernel/store/ops');
  const address = `gone-${unique()}@${boxA.domain}`;
  const made = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes`, {
    address,
    name: 'Gone',
    members: [w.p.owner.userId],
  });
  const id = made.body.mailbox.mailboxId;
  const client = smtpClient();
  await client.sendMail({
    from: 'x@outside.example',
    to: address,
    subject: 'Soon gone',
    text: 'x',
    attachments: [{ filename: 'a.txt', content: 'A' }],
  });
  client.close();
  await until(async () => (await w.p.get(`${mb(id)}/threads`)).body.threads?.length === 1);
  const bucket = { name: process.env.ARTIFACTS_BUCKET as string };
  expect((await storage().listKeys(bucket, `mail/${id}/`, 100)).keys.length).toBeGreaterThanOrEqual(3);

  expect((await w.p.delete(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes/${id}`)).status).toBe(204);
  expect((await storage().listKeys(bucket, `mail/${id}/`, 100)).keys).toEqual([]);
  const left = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `MBX#${id}` },
  });
  expect(left).toEqual([]);
  const again = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes`, { address, name: 'Again' });
  expect(again.status).toBe(201);
});

test("a domain's catch-all mailbox gets mail for its unknown addresses; a domain not receiving refuses all", async () => {
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  const domainPath = `/v1/orgs/${w.p.org.orgId}/mail/domains/${box.domain}`;
  expect((await w.p.patch(domainPath, { catchAll: box.mailboxId })).status).toBe(200);
  const client = smtpClient();
  const subject = `Catch ${unique()}`;
  await client.sendMail({ from: 'x@outside.example', to: `whoever-${unique()}@${box.domain}`, subject, text: 'x' });
  await until(async () =>
    (await w.p.get(`${mb(box.mailboxId)}/threads`)).body.threads?.find(
      (t: { subject: string }) => t.subject === subject,
    ),
  );
  expect((await w.p.patch(domainPath, { receiving: false })).status).toBe(200);
  await expect(
    client.sendMail({ from: 'x@outside.example', to: box.address, subject, text: 'x' }),
  ).rejects.toMatchObject({
    responseCode: 550,
  });
  client.close();
});

test('a body too large for a response comes cut, marked truncated, the whole at …/raw', async () => {
  const subject = `Huge ${unique()}`;
  const text = 'lorem ipsum dolor '.repeat(200_000); // 3.6 MB
  const client = smtpClient();
  await client.sendMail({ from: 'x@outside.example', to: addressB, subject, text, html: `<p>${text}</p>` });
  client.close();
  const thread = await until(async () =>
    (await inboxOf(boxB, b.token)).body.threads?.find((t: { subject: string }) => t.subject === subject),
  );
  const full = await w.p.get(`${mb(boxB)}/threads/${thread.threadId}`, { token: b.token });
  const res = await w.p.get(`${mb(boxB)}/threads/${thread.threadId}/messages/${full.body.messages[0].messageId}/body`, {
    token: b.token,
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ truncated: true, html: null });
  expect(res.body.text).toHaveLength(2_000_000);
  expect(text.startsWith(res.body.text)).toBe(true);
});
