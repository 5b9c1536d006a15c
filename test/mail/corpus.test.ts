import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { createTransport } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import PostalMime from 'postal-mime';
import { type MailWorld, mailboxFor, startMailWorld, unique, until } from './helpers';

/**
 * Real messages (issue 17, Tests): Python's email test corpus (CPython 3.11's
 * Lib/test/test_email/data, © Python Software Foundation, PSF License; kept in
 * test/fixtures/mail-corpus/python-email; see the SOURCES.md beside it): nested multipart, message/rfc822,
 * RFC 2047 headers, odd charsets. Each is delivered over SMTP into a mailbox of its own and read
 * back through the API: subject, sender, text, and every attachment byte-equal by its link,
 * against postal-mime's parse of the file itself.
 * SpamAssassin's samples: the GTUBE one lands in SPAM (the verdict header SES's scan adds, which
 * the local SMTP server adds too), the other in INBOX.
 * Then a property: random messages built by MailComposer and parsed by postal-mime come back equal.
 */
const FIXTURES = join(__dirname, '..', 'fixtures', 'mail-corpus');
const CORPUS = process.env.MAIL_CORPUS_DIR ?? join(FIXTURES, 'python-email');
/** SpamAssassin's two samples (Apache License 2.0; kept in test/fixtures/mail-corpus/spamassassin). */
const SPAMASSASSIN = process.env.SPAMASSASSIN_SAMPLES_DIR ?? join(FIXTURES, 'spamassassin');

let w: MailWorld;
beforeAll(async () => {
  w = await startMailWorld({ smtp: true });
});
afterAll(async () => {
  await w?.close();
});

const sha = (b: Buffer | ArrayBuffer | Uint8Array | string) =>
  createHash('sha256')
    .update(typeof b === 'string' ? Buffer.from(b) : Buffer.from(b as ArrayBuffer))
    .digest('hex');

test("Python's email corpus: every message delivered over SMTP reads back as parsed, attachments byte-equal", async () => {
  expect(existsSync(CORPUS)).toBe(true);
  const files = readdirSync(CORPUS).filter((f) => /^msg_\d+a?\.txt$/.test(f));
  expect(files.length).toBeGreaterThanOrEqual(40);
  const client = createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true, pool: true });
  const mb = (id: string) => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${id}`;
  const boxes = await Promise.all(files.map(() => mailboxFor(w.p, [w.p.owner.userId])));
  const checked: string[] = [];
  for (let i = 0; i < files.length; i += 8) {
    await Promise.all(
      files.slice(i, i + 8).map(async (file, j) => {
        const box = boxes[i + j] as { mailboxId: string; address: string };
        const raw = readFileSync(join(CORPUS, file));
        const expected = await PostalMime.parse(raw);
        await client.sendMail({ envelope: { from: 'corpus@outside.example', to: [box.address] }, raw });
        const thread = await until(async () => (await w.p.get(`${mb(box.mailboxId)}/threads`)).body.threads?.[0]);
        const full = await w.p.get(`${mb(box.mailboxId)}/threads/${thread.threadId}`);
        const [m] = full.body.messages;
        expect({ file, subject: m.subject }).toEqual({ file, subject: expected.subject ?? '' });
        expect({ file, from: m.from?.address ?? null }).toEqual({
          file,
          from: expected.from?.address?.toLowerCase() || null,
        });
        const body = await w.p.get(`${mb(box.mailboxId)}/threads/${thread.threadId}/messages/${m.messageId}/body`);
        expect({ file, text: body.body.text }).toEqual({ file, text: expected.text ?? '' });
        expect({ file, attachments: m.attachments.length }).toEqual({ file, attachments: expected.attachments.length });
        for (const [index, a] of expected.attachments.entries()) {
          const link = await w.p.get(`${mb(box.mailboxId)}/messages/${m.messageId}/attachments/${index}`);
          const bytes = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
          expect({ file, index, sha: sha(bytes) }).toEqual({ file, index, sha: sha(a.content) });
        }
        const rawLink = await w.p.get(`${mb(box.mailboxId)}/messages/${m.messageId}/raw`);
        const stored = Buffer.from(await (await fetch(rawLink.body.url)).arrayBuffer());
        expect((await PostalMime.parse(stored)).subject).toBe(expected.subject);
        checked.push(file);
      }),
    );
  }
  client.close();
  expect(checked).toHaveLength(files.length);
}, 120_000);

test("SpamAssassin's samples: the GTUBE message is filed in SPAM, the other in INBOX, both read back as parsed", async () => {
  const client = createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true });
  const mb = (id: string) => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${id}`;
  for (const [file, label] of [
    ['sample-spam.txt', 'SPAM'],
    ['sample-nonspam.txt', 'INBOX'],
  ] as const) {
    const box = await mailboxFor(w.p, [w.p.owner.userId]);
    const raw = readFileSync(join(SPAMASSASSIN, file));
    const expected = await PostalMime.parse(raw);
    await client.sendMail({ envelope: { from: 'samples@outside.example', to: [box.address] }, raw });
    const thread = await until(
      async () => (await w.p.get(`${mb(box.mailboxId)}/threads?label=${label}`)).body.threads?.[0],
    );
    expect({ file, labels: thread.labels, subject: thread.subject }).toEqual({
      file,
      labels: [label],
      subject: expected.subject,
    });
    const full = await w.p.get(`${mb(box.mailboxId)}/threads/${thread.threadId}`);
    const body = await w.p.get(
      `${mb(box.mailboxId)}/threads/${thread.threadId}/messages/${full.body.messages[0].messageId}/body`,
    );
    expect(body.body.text).toBe(expected.text);
  }
  client.close();
});

test('random messages built by MailComposer come back equal through postal-mime', async () => {
  const text = fc.string({ unit: 'grapheme', maxLength: 200 });
  const word = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
    // A header keeps no whitespace at its ends: a subject is what a person would type.
    .filter((s) => /\S/.test(s) && !/[\r\n]/.test(s) && s.trim() === s);
  const file = fc.record({
    filename: fc.stringMatching(/^[\w .-]{1,30}\.(bin|txt|png)$/).filter((s) => s.trim() === s),
    content: fc.uint8Array({ maxLength: 2000 }),
  });
  await fc.assert(
    fc.asyncProperty(
      word,
      text,
      fc.array(file, { maxLength: 3 }),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      async (subject, body, files, name) => {
        const cleanName = name.replace(/[\r\n"\\]/g, '').trim();
        const raw = await new MailComposer({
          from: { name: cleanName, address: 'sender@acme.test' },
          to: 'to@outside.example',
          subject,
          text: body,
          attachments: files.map((f) => ({
            filename: f.filename,
            content: Buffer.from(f.content),
            contentType: 'application/octet-stream',
          })),
        })
          .compile()
          .build();
        const parsed = await PostalMime.parse(raw);
        expect(parsed.subject).toBe(subject);
        expect(parsed.from?.address).toBe('sender@acme.test');
        expect(parsed.from?.name).toBe(cleanName);
        expect((parsed.text ?? '').replace(/\r\n/g, '\n').replace(/\n$/, '')).toBe(
          body.replace(/\r\n|\r/g, '\n').replace(/\n$/, ''),
        );
        expect(parsed.attachments.map((a) => [a.filename, sha(a.content)])).toEqual(
          files.map((f) => [f.filename, sha(f.content)]),
        );
      },
    ),
    { numRuns: 100 },
  );
});

test('a stranger to the mailbox gets 403 on its thread routes, even an admin', async () => {
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  const stranger = await w.p.person('admin');
  const path = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/threads/thr_${unique()}`;
  expect((await w.p.get(path, { token: stranger.token })).status).toBe(403);
});
