import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { mail } from '../../shared/ports/mail-transport';
import { phone } from '../../shared/ports/phone';

/**
 * The mail and phone ports on one machine: what AWS would send lands in the outbox folder, mail
 * as `.eml` files a mail client (or a MIME parser) reads back, texts and calls as JSON, in order.
 */
let outbox: string;
beforeAll(() => {
  outbox = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'outbox-contract-'));
  process.env.OUTBOX_DIR = outbox;
  process.env.MAIL_FROM = 'notifications@localhost';
});

it('writes a message as RFC 5322 that parses back to what was sent', async () => {
  const { messageId } = await mail().send({
    to: ['ana@example.com'],
    subject: 'Grüße: deploy failed',
    text: 'Exit code 1.\n',
  });
  const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
  expect(files).toHaveLength(1);
  const parsed = await PostalMime.parse(readFileSync(join(outbox, files[0] as string)));
  expect(parsed.subject).toBe('Grüße: deploy failed');
  expect(parsed.from?.address).toBe('notifications@localhost');
  expect(parsed.to?.[0]?.address).toBe('ana@example.com');
  expect(parsed.text?.trim()).toBe('Exit code 1.');
  expect(parsed.messageId).toBe(messageId);
});

it('writes texts and calls in the order they were made', async () => {
  await phone().text('+4915112345678', 'first');
  await phone().call('+4915112345678', 'second');
  await phone().text('+4915112345678', 'third');
  const files = readdirSync(outbox)
    .filter((f) => f.endsWith('.json'))
    .sort();
  expect(files.map((f) => f.split('.').slice(-2, -1)[0])).toEqual(['sms', 'voice', 'sms']);
  expect(files.map((f) => JSON.parse(readFileSync(join(outbox, f), 'utf8')).body)).toEqual([
    'first',
    'second',
    'third',
  ]);
});
