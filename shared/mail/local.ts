import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import { outboxFile } from '../ground/outbox';
import { type MailPort, mailFrom } from './port';

/**
 * One machine: each message is written as an `.eml` file (RFC 5322, as a mail client opens it) to
 * `OUTBOX_DIR`, named so that a listing is in the order they were sent.
 */
export const localMail: MailPort = {
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
    return { messageId };
  },
};
