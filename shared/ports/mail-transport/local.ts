import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { readEnv } from '../../kernel/ground/env';
import { outboxFile } from '../../kernel/ground/outbox';
import { type MailPort, mailFrom, simulated } from './port';

/** The local engine's figures: those of a new SES account in its sandbox. */
export const LOCAL_QUOTA = { max24HourSend: 200, maxSendRate: 1 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** When this process sent each message of the last 24 hours (the local engine's count). */
const sends: number[] = [];

let transport: Transporter | undefined;
let transportPort: string | undefined;

/** nodemailer's SMTP transport to the local SMTP server (`SMTP_PORT`, read at each send: tests start their own). */
function smtp(): Transporter {
  const port = readEnv('SMTP_PORT');
  if (!port) throw new Error('SMTP_PORT is not set.');
  if (!transport || transportPort !== port) {
    transport?.close();
    transport = createTransport({ host: '127.0.0.1', port: Number(port), secure: false, ignoreTLS: true });
    transportPort = port;
  }
  return transport;
}

/**
 * One machine: the platform's own messages are written as `.eml` files (RFC 5322, as a mail
 * client opens them) to `OUTBOX_DIR`, named so that a listing is in the order they were sent.
 * Mailboxes' messages go over SMTP to the local SMTP server (lib/local/smtp.ts), which writes them
 * there too and delivers the platform's own addresses.
 */
export const localMail = (): MailPort => ({
  async send(message) {
    const messageId = `<${randomUUID()}@outbox.localhost>`;
    const raw = await new MailComposer({
      from: message.from ?? mailFrom(),
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      messageId,
    })
      .compile()
      .build();
    const file = outboxFile('eml');
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, raw);
    sends.push(Date.now());
    return { messageId };
  },

  async sendRaw(message) {
    const info = await smtp().sendMail({ envelope: { from: message.from, to: message.to }, raw: message.raw });
    sends.push(Date.now());
    const rejected = ((info.rejected ?? []) as (string | { address: string })[]).map((r) =>
      typeof r === 'string' ? r : r.address,
    );
    return { messageId: info.messageId, rejected };
  },

  async createDomain() {
    return { dkimTokens: [0, 1, 2].map(() => randomBytes(16).toString('hex')) };
  },

  async deleteDomain() {},

  async suppressed(addresses) {
    return new Set(addresses.filter((a) => simulated(a) === 'suppressionlist'));
  },

  async quota() {
    const since = Date.now() - DAY_MS;
    while (sends.length > 0 && (sends[0] as number) < since) sends.shift();
    return { ...LOCAL_QUOTA, sentLast24Hours: sends.length, sendingEnabled: true, productionAccess: false };
  },
});
