import { readEnv } from '../../kernel/ground/env';
/**
 * The mail port: messages the platform sends (SES on AWS; locally an outbox folder of `.eml` files
 * and the local SMTP server), the sending identities of organizations' domains, and the account's
 * suppression list.
 */
export interface MailMessage {
  /** Default: `MAIL_FROM`. */
  from?: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

/** A message built by the caller (RFC 5322 bytes), sent to the envelope's recipients. */
export interface RawMail {
  from: string;
  /** Envelope recipients (To, Cc and Bcc together). */
  to: string[];
  raw: Buffer;
}

export interface MailPort {
  /** Sends one message of the platform's own (notifications); answers the id the mail system gave it. */
  send(message: MailMessage): Promise<{ messageId: string }>;
  /**
   * Sends a message as built; `rejected` are recipients the mail system refused at once (locally
   * the SMTP server's 550 answers); a message refused for every recipient throws.
   */
  sendRaw(message: RawMail): Promise<{ messageId: string; rejected: string[] }>;
  /** Makes `domain` a sending identity (SES Easy DKIM): answers its three DKIM tokens. */
  createDomain(domain: string): Promise<{ dkimTokens: string[] }>;
  /** Removes the domain's sending identity (none: nothing to do). */
  deleteDomain(domain: string): Promise<void>;
  /** Those of `addresses` on the account's suppression list (bounces, complaints). */
  suppressed(addresses: string[]): Promise<Set<string>>;
  /** The account's sending quota (SES GetAccount; locally the local engine's figures). */
  quota(): Promise<MailQuota>;
}

/** What the account may send, and has sent, per SES's account figures. */
export interface MailQuota {
  /** Messages the account may send in 24 hours. */
  max24HourSend: number;
  /** Messages a second. */
  maxSendRate: number;
  sentLast24Hours: number;
  sendingEnabled: boolean;
  /** Out of SES's sandbox (sending to any address). */
  productionAccess: boolean;
}

/** The sender of the platform's own messages (`MAIL_FROM`). */
export function mailFrom(): string {
  const from = readEnv('MAIL_FROM');
  if (!from) throw new Error('MAIL_FROM is not set.');
  return from;
}

/** SES's mailbox simulator: what each address does (SES answers so on AWS; locally the SMTP server). */
export const SIMULATOR_DOMAIN = 'simulator.amazonses.com';
export const simulated = (address: string) => {
  const [local, domain] = address.toLowerCase().split('@');
  if (domain !== SIMULATOR_DOMAIN) return undefined;
  return (local?.split('+')[0] ?? '') as 'success' | 'bounce' | 'ooto' | 'complaint' | 'suppressionlist' | string;
};
