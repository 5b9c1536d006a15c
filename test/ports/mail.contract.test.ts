import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import PostalMime from 'postal-mime';
import { type SmtpServer, startSmtpServer } from '../../lib/local/smtp';
import { mail } from '../../shared/ports/mail-transport';

/**
 * The mail port's mailbox calls on one machine: raw sends go over SMTP to the local SMTP server,
 * which keeps them byte for byte in the outbox and takes SES's simulator addresses as SES's API does
 * (their bounces come later, as feedback); domains get three DKIM tokens; the simulator's
 * suppression-list address is suppressed.
 */
let smtp: SmtpServer;
let outbox: string;
beforeAll(async () => {
  outbox = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'mail-contract-'));
  process.env.OUTBOX_DIR = outbox;
  smtp = await startSmtpServer({ port: 0 });
  process.env.SMTP_PORT = String(smtp.port);
});
afterAll(async () => {
  await smtp.close();
});

it('sends raw bytes over SMTP; the outbox holds them as sent', async () => {
  const raw = await new MailComposer({
    from: 'a@acme.test',
    to: 'x@outside.example',
    subject: 'Ünïcode ✓',
    text: 'Hello',
    messageId: '<contract-1@acme.test>',
  })
    .compile()
    .build();
  const out = await mail().sendRaw({ from: 'a@acme.test', to: ['x@outside.example'], raw });
  expect(out.rejected).toEqual([]);
  const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
  expect(files).toHaveLength(1);
  const stored = readFileSync(join(outbox, files[0] as string));
  const parsed = await PostalMime.parse(stored);
  expect(parsed.subject).toBe('Ünïcode ✓');
  expect(parsed.messageId).toBe('<contract-1@acme.test>');
});

it("takes SES's simulator addresses as SES's API does: nothing refused at once", async () => {
  const raw = Buffer.from('From: a@acme.test\r\nTo: x@outside.example\r\nSubject: s\r\n\r\nx\r\n');
  const out = await mail().sendRaw({
    from: 'a@acme.test',
    to: ['x@outside.example', 'bounce@simulator.amazonses.com', 'complaint@simulator.amazonses.com'],
    raw,
  });
  expect(out.rejected).toEqual([]);
});

it('makes DKIM tokens for a domain and knows the suppression list', async () => {
  const { dkimTokens } = await mail().createDomain('acme.test');
  expect(dkimTokens).toHaveLength(3);
  await expect(mail().deleteDomain('acme.test')).resolves.toBeUndefined();
  expect(await mail().suppressed(['suppressionlist@simulator.amazonses.com', 'a@b.example'])).toEqual(
    new Set(['suppressionlist@simulator.amazonses.com']),
  );
});
