import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { mailboxFor, platformDomain } from '../../shared/domains/mail/deliver';
import { putObject } from '../../shared/domains/mail/objects';
import type { MailFeedback } from '../../shared/domains/mail/queue-messages';
import { LIMITS } from '../../shared/domains/mail/usage';
import { artifactsBucket } from '../../shared/kernel/config';
import { log } from '../../shared/kernel/ground/log';
import { outboxFile } from '../../shared/kernel/ground/outbox';
import { newId } from '../../shared/kernel/store/ids';
import { simulated } from '../../shared/ports/mail-transport/port';
import { queue } from '../../shared/ports/queue';

export interface SmtpServer {
  port: number;
  close(): Promise<void>;
}

type Refusal = Error & { responseCode: number };
const refuse = (code: number, text: string): Refusal => Object.assign(new Error(text), { responseCode: code });

/** Envelope recipients that are the platform's mailboxes, per session. */
const platformRecipients = new WeakMap<SMTPServerSession, string[]>();
/** Envelope recipients that are SES's simulator's bounce, complaint and suppression-list addresses. */
const simulatorRecipients = new WeakMap<SMTPServerSession, string[]>();

/**
 * One machine's mail system (`npm start`, `SMTP_PORT`, loopback, no TLS or AUTH): every message it
 * takes is written as `.eml` under `OUTBOX_DIR` (outside addresses end there, as if relayed); those
 * for the platform's mailboxes are stored as objects and handed to the mail-inbound worker, as
 * SES's receipt rule and S3's event do on AWS. An unknown address of a platform domain is refused
 * `550 5.1.1`. SES's simulator addresses answer as SES does: accepted, then `bounce@` and
 * `suppressionlist@` bounce and `complaint@` complains, reported to the mail-feedback worker as
 * SES's configuration set reports them. Like SES's scan, it adds `X-SES-Spam-Verdict` (FAIL for a
 * message carrying SpamAssassin's GTUBE string).
 */
export async function startSmtpServer(options: { port: number; host?: string }): Promise<SmtpServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: LIMITS.inboundBytes,
    logger: false,
    banner: 'platform local SMTP',
    onRcptTo(address, session, callback) {
      const to = address.address.toLowerCase();
      const sim = simulated(to);
      const check = async () => {
        if (sim === 'bounce' || sim === 'suppressionlist' || sim === 'complaint') {
          simulatorRecipients.set(session, [...(simulatorRecipients.get(session) ?? []), to]);
          return;
        }
        if (sim !== undefined || !(await platformDomain(to))) return;
        if (!(await mailboxFor(to))) throw refuse(550, `5.1.1 <${to}>: Recipient address rejected: no such mailbox`);
        platformRecipients.set(session, [...(platformRecipients.get(session) ?? []), to]);
      };
      check().then(
        () => callback(),
        (err: Error) => callback(err),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          callback(refuse(552, '5.3.4 Message too big'));
          return;
        }
        const raw = Buffer.concat(chunks);
        const recipients = platformRecipients.get(session) ?? [];
        const simulator = simulatorRecipients.get(session) ?? [];
        platformRecipients.delete(session);
        simulatorRecipients.delete(session);
        const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        accept(raw, recipients).then(
          () => {
            callback();
            // As SES: the send is taken, its bounce or complaint reported afterwards.
            simulate(raw, sender, simulator).catch((err: Error) =>
              log.warn('smtp_feedback_unsent', { error: err.message }),
            );
          },
          (err: Error) => {
            log.error('smtp_accept_failed', { error: err.message });
            callback(refuse(451, '4.3.0 Temporary failure, try again'));
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  server.on('error', (err) => log.warn('smtp_error', { error: err.message }));
  const port = (server.server.address() as AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** SpamAssassin's Generic Test for Unsolicited Bulk Email: the message every spam filter flags. */
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

async function accept(taken: Buffer, recipients: string[]): Promise<void> {
  // The verdict header SES's receipt rule adds (its spam scan); here the GTUBE string is spam.
  const verdict = taken.includes(GTUBE) ? 'FAIL' : 'PASS';
  const raw = Buffer.concat([Buffer.from(`X-SES-Spam-Verdict: ${verdict}\r\n`), taken]);
  const file = outboxFile('eml');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, raw);
  if (recipients.length === 0) return;
  const key = `mail-inbound/${newId('in_')}.eml`;
  await putObject(key, raw, 'message/rfc822');
  await queue().send('MAIL_INBOUND_QUEUE_URL', { bucket: artifactsBucket(), key, recipients });
}

/**
 * What SES reports after a send to its simulator: `bounce@` a permanent bounce,
 * `suppressionlist@` one because the address is suppressed, `complaint@` a complaint; as its
 * configuration set's events (`eventType`, `mail.commonHeaders`), for the mail-feedback worker.
 */
async function simulate(raw: Buffer, sender: string, recipients: string[]): Promise<void> {
  if (recipients.length === 0 || !sender) return;
  const email = await PostalMime.parse(raw);
  const mail = {
    messageId: newId('ses_'),
    source: sender,
    timestamp: new Date().toISOString(),
    commonHeaders: { messageId: email.messageId, subject: email.subject },
  };
  const of = (kind: string) => recipients.filter((r) => simulated(r) === kind);
  const bounced = [...of('bounce'), ...of('suppressionlist')];
  const events: MailFeedback[] = [
    ...(bounced.length > 0
      ? [
          {
            eventType: 'Bounce' as const,
            mail,
            bounce: {
              bounceType: 'Permanent' as const,
              bounceSubType: of('bounce').length > 0 ? 'General' : 'OnAccountSuppressionList',
              bouncedRecipients: bounced.map((emailAddress) => ({
                emailAddress,
                diagnosticCode:
                  simulated(emailAddress) === 'bounce'
                    ? 'smtp; 550 5.1.1 user unknown'
                    : 'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
              })),
            },
          },
        ]
      : []),
    ...(of('complaint').length > 0
      ? [
          {
            eventType: 'Complaint' as const,
            mail,
            complaint: {
              complainedRecipients: of('complaint').map((emailAddress) => ({ emailAddress })),
              complaintFeedbackType: 'abuse',
            },
          },
        ]
      : []),
  ];
  for (const event of events) await queue().send('MAIL_FEEDBACK_QUEUE_URL', event);
}
