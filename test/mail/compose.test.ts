import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { MAIL_MESSAGES } from '../../shared/domains/mail/records';
import type { Person } from '../helpers/platform';
import { type MailWorld, mailboxFor, startMailWorld, unique, until } from './helpers';

/**
 * Compose (issue 17): drafts with ifVersion, send by draftId, recipients/check, settings with VIP
 * senders raising mail.vip through the notify worker.
 */
let w: MailWorld;
let box: { domain: string; address: string; mailboxId: string };
let member: Person;
beforeAll(async () => {
  w = await startMailWorld({ smtp: true, workers: ['notify'] });
  member = await w.p.person('viewer');
  box = await mailboxFor(w.p, [w.p.owner.userId, member.userId]);
});
afterAll(async () => {
  await w?.close();
});

const mb = () => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}`;

test('drafts: saved, read, replaced with ifVersion (stale is 409), sent by draftId, deleted', async () => {
  const made = await w.p.post(`${mb()}/drafts`, { to: ['ann@outside.example'], subject: 'Plan', text: 'v1' });
  expect(made.status).toBe(201);
  expect(made.body.draft).toMatchObject({ subject: 'Plan', text: 'v1', cc: [], html: null, version: 1 });
  const id = made.body.draft.draftId;
  expect(
    (await w.p.get(`${mb()}/labels`)).body.labels.find((l: { labelId: string }) => l.labelId === 'DRAFTS').total,
  ).toBe(1);

  const put = await w.p.put(`${mb()}/drafts/${id}`, {
    to: ['ann@outside.example'],
    subject: 'Plan B',
    text: 'v2',
    ifVersion: 1,
  });
  expect(put.status).toBe(200);
  expect(put.body.draft).toMatchObject({ subject: 'Plan B', version: 2 });
  const stale = await w.p.put(`${mb()}/drafts/${id}`, { subject: 'Plan C', ifVersion: 1 });
  expect(stale.status).toBe(409);
  expect(stale.body).toEqual({ error: 'This draft changed since it was read. Reload and try again.' });
  expect((await w.p.get(`${mb()}/drafts/${id}`)).body.draft.text).toBe('v2');

  const sent = await w.p.post(`${mb()}/send`, { draftId: id });
  expect(sent.status).toBe(200);
  expect(sent.body.message).toMatchObject({ subject: 'Plan B', to: [{ address: 'ann@outside.example' }] });
  expect((await w.p.get(`${mb()}/drafts/${id}`)).body).toEqual({ error: 'Draft not found' });
  expect((await w.p.post(`${mb()}/send`, { draftId: id })).status).toBe(404);

  const other = await w.p.post(`${mb()}/drafts`, { subject: 'Scrap' });
  expect((await w.p.delete(`${mb()}/drafts/${other.body.draft.draftId}`)).status).toBe(204);
  expect((await w.p.delete(`${mb()}/drafts/${other.body.draft.draftId}`)).status).toBe(404);
  expect((await w.p.put(`${mb()}/drafts/drf_nope`, { subject: 'x' })).status).toBe(404);
  expect(
    (await w.p.get(`${mb()}/labels`)).body.labels.find((l: { labelId: string }) => l.labelId === 'DRAFTS').total,
  ).toBe(0);
});

test('the Drafts folder: drafts listed newest first, paged with the cursor; members only', async () => {
  const other = await mailboxFor(w.p, [w.p.owner.userId]);
  const path = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${other.mailboxId}/drafts`;
  expect((await w.p.get(path)).body).toEqual({ drafts: [], cursor: null });
  const ids: string[] = [];
  for (const subject of ['First', 'Second', 'Third']) {
    ids.push((await w.p.post(path, { to: ['ann@outside.example'], subject })).body.draft.draftId);
  }
  const first = await w.p.get(`${path}?limit=2`);
  expect(first.status).toBe(200);
  expect(first.body.drafts.map((d: { subject: string }) => d.subject)).toEqual(['Third', 'Second']);
  expect(first.body.drafts[0]).toMatchObject({ to: ['ann@outside.example'], version: 1, attachments: [] });
  const rest = await w.p.get(`${path}?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`);
  expect(rest.body).toMatchObject({ drafts: [{ draftId: ids[0], subject: 'First' }], cursor: null });
  // Sent or deleted, a draft leaves the folder.
  await w.p.delete(`${path}/${ids[1]}`);
  expect((await w.p.get(path)).body.drafts.map((d: { draftId: string }) => d.draftId)).toEqual([ids[2], ids[0]]);
  const elsewhere = await w.p.get(
    `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/drafts?cursor=${encodeURIComponent(first.body.cursor)}`,
  );
  expect(elsewhere.status).toBe(400);
  expect((await w.p.get(path, { token: member.token })).body).toEqual({ error: MAIL_MESSAGES.membersOnly });
});

test('recipients/check: valid, internal, known contact, suppressed', async () => {
  const known = `known-${unique()}@outside.example`;
  expect((await w.p.post(`${mb()}/send`, { to: [known], subject: 'Hi', text: 'x' })).status).toBe(200);
  const res = await w.p.post(`${mb()}/recipients/check`, {
    addresses: [known, box.address, 'not an address', 'suppressionlist@simulator.amazonses.com', 'new@outside.example'],
  });
  expect(res.status).toBe(200);
  expect(res.body.recipients).toEqual([
    { address: known, valid: true, internal: false, contact: true, suppressed: false },
    { address: box.address, valid: true, internal: true, contact: false, suppressed: false },
    { address: 'not an address', valid: false, internal: false, contact: false, suppressed: false },
    {
      address: 'suppressionlist@simulator.amazonses.com',
      valid: true,
      internal: false,
      contact: false,
      suppressed: true,
    },
    { address: 'new@outside.example', valid: true, internal: false, contact: false, suppressed: false },
  ]);
});

test('settings: display name on sent mail, ifVersion; a VIP sender raises mail.vip for the members', async () => {
  const version = (await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes`)).body.mailboxes[0].version;
  const vip = `boss-${unique()}@outside.example`;
  const res = await w.p.patch(`${mb()}/settings`, {
    displayName: 'Front Desk',
    vipSenders: [vip.toUpperCase()],
    vacation: { enabled: false, subject: 'Away', text: 'Back soon' },
    ifVersion: version,
  });
  expect(res.status).toBe(200);
  expect(res.body.settings).toEqual({
    displayName: 'Front Desk',
    signature: null,
    vacation: { enabled: false, subject: 'Away', text: 'Back soon', startsAt: null, endsAt: null },
    vipSenders: [vip],
  });
  const stale = await w.p.patch(`${mb()}/settings`, { signature: '--', ifVersion: version });
  expect(stale.status).toBe(409);
  expect(stale.body).toEqual({ error: MAIL_MESSAGES.stale });

  const sent = await w.p.post(`${mb()}/send`, { to: ['x@outside.example'], subject: 'Named', text: 'x' });
  expect(sent.body.message.from).toEqual({ name: 'Front Desk', address: box.address });

  const client = createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true });
  await client.sendMail({ from: `The Boss <${vip}>`, to: box.address, subject: 'Urgent', text: 'Call me' });
  client.close();
  const notice = await until(async () => {
    const r = await w.p.get('/v1/me/notifications', { token: member.token });
    return r.body.notices?.find((n: { event: string }) => n.event === 'mail.vip');
  }, 20_000);
  expect(notice).toMatchObject({ event: 'mail.vip', title: 'Mail from The Boss', body: 'Urgent' });
});

test('a vacation reply answers each sender once, never list mail, marked Auto-Submitted', async () => {
  const version = (await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes`)).body.mailboxes[0].version;
  const on = await w.p.patch(`${mb()}/settings`, {
    vacation: { enabled: true, subject: 'Out of office', text: 'Back on Monday.' },
    ifVersion: version,
  });
  expect(on.status).toBe(200);
  const eve = `eve-${unique()}@outside.example`;
  const list = `news-${unique()}@outside.example`;
  const client = createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true });
  await client.sendMail({ from: eve, to: box.address, subject: 'One', text: '1' });
  await client.sendMail({ from: eve, to: box.address, subject: 'Two', text: '2' });
  await client.sendMail({ from: list, to: box.address, subject: 'Digest', text: 'd', headers: { Precedence: 'bulk' } });
  client.close();
  const repliesTo = (who: string) =>
    readdirSync(w.outbox)
      .map((f) => readFileSync(join(w.outbox, f), 'utf8'))
      .filter((t) => t.includes('Auto-Submitted: auto-replied') && t.includes(`To: ${who}`));
  await until(async () => {
    const r = await w.p.get(`${mb()}/threads?q=${encodeURIComponent('subject:digest')}`);
    return r.body.threads?.length === 1 && repliesTo(eve).length > 0;
  });
  // Both of eve's messages and the digest were filed; give a second reply time to show up.
  await until(
    async () => (await w.p.get(`${mb()}/threads?q=${encodeURIComponent(`from:${eve}`)}`)).body.threads?.length === 2,
  );
  await new Promise((r) => setTimeout(r, 500));
  expect(repliesTo(eve)).toHaveLength(1);
  expect(repliesTo(eve)[0]).toContain('Subject: Out of office');
  expect(repliesTo(list)).toHaveLength(0);
});

test('a send retried with its Idempotency-Key (no answer seen, a client retry) sends one message', async () => {
  const subject = `retried-${unique()}`;
  const body = { to: [`zed-${unique()}@outside.example`], subject, text: 'Once.' };
  const headers = { 'idempotency-key': `send-${unique()}` };
  const first = await w.p.post(`${mb()}/send`, body, { headers });
  expect(first.status).toBe(200);
  const again = await w.p.post(`${mb()}/send`, body, { headers });
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
  const sent = readdirSync(w.outbox).filter((f) => readFileSync(join(w.outbox, f), 'utf8').includes(subject));
  expect(sent).toHaveLength(1);
  const threads = await w.p.get(`${mb()}/threads?label=SENT`);
  expect(threads.body.threads.filter((t: { subject: string }) => t.subject === subject)).toEqual([
    expect.objectContaining({ messageCount: 1 }),
  ]);
});
