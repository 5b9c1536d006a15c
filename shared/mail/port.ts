/** The mail port: messages the platform sends (SES on AWS, an outbox folder of `.eml` files locally). */
export interface MailMessage {
  /** Default: `MAIL_FROM`. */
  from?: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

export interface MailPort {
  /** Sends one message; answers the id the mail system gave it. */
  send(message: MailMessage): Promise<{ messageId: string }>;
}

/** The sender of the platform's own messages (`MAIL_FROM`). */
export function mailFrom(): string {
  const from = process.env.MAIL_FROM;
  if (!from) throw new Error('MAIL_FROM is not set.');
  return from;
}
