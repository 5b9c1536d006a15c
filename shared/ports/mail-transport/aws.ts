import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  GetSuppressedDestinationCommand,
  PutEmailIdentityFeedbackAttributesCommand,
  SESv2Client,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { readEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { type MailPort, mailFrom } from './port';

let client: SESv2Client | undefined;
const ses = () => {
  client ??= new SESv2Client(sdkSettings('mail'));
  return client;
};
const named = (err: unknown, name: string) => (err as Error).name === name;

/**
 * SES v2. The platform's own sender (`MAIL_FROM`) and organizations' domains are identities of the
 * account (domains with Easy DKIM); in SES's sandbox only verified recipients receive.
 */
export const awsMail = (): MailPort => ({
  async send(message) {
    const out = await ses().send(
      new SendEmailCommand({
        FromEmailAddress: message.from ?? mailFrom(),
        Destination: { ToAddresses: message.to },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              ...(message.html ? { Html: { Data: message.html, Charset: 'UTF-8' } } : {}),
            },
          },
        },
      }),
    );
    return { messageId: out.MessageId ?? '' };
  },

  async sendRaw(message) {
    const out = await ses().send(
      new SendEmailCommand({
        FromEmailAddress: message.from,
        Destination: { ToAddresses: message.to },
        Content: { Raw: { Data: message.raw } },
        // Bounces and complaints put the address on the suppression list (lib/aws/mail.ts).
        ...(readEnv('MAIL_CONFIGURATION_SET') ? { ConfigurationSetName: readEnv('MAIL_CONFIGURATION_SET') } : {}),
      }),
    );
    return { messageId: out.MessageId ?? '', rejected: [] };
  },

  async createDomain(domain) {
    let tokens: string[];
    try {
      const out = await ses().send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
      tokens = out.DkimAttributes?.Tokens ?? [];
    } catch (err) {
      if (!named(err, 'AlreadyExistsException')) throw err;
      const out = await ses().send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
      tokens = out.DkimAttributes?.Tokens ?? [];
    }
    // Bounces and complaints reach the mail-feedback worker (the configuration set's events), which
    // files its own notice: SES's feedback by email would be a second one in the sender's INBOX.
    await ses().send(
      new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: domain, EmailForwardingEnabled: false }),
    );
    return { dkimTokens: tokens };
  },

  async deleteDomain(domain) {
    try {
      await ses().send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
    } catch (err) {
      if (!named(err, 'NotFoundException')) throw err;
    }
  },

  async suppressed(addresses) {
    const found = await Promise.all(
      addresses.map((a) =>
        ses()
          .send(new GetSuppressedDestinationCommand({ EmailAddress: a }))
          .then(
            () => a,
            (err) => {
              if (named(err, 'NotFoundException')) return undefined;
              throw err;
            },
          ),
      ),
    );
    return new Set(found.filter((a): a is string => a !== undefined));
  },

  async quota() {
    const out = await ses().send(new GetAccountCommand({}));
    return {
      max24HourSend: out.SendQuota?.Max24HourSend ?? 0,
      maxSendRate: out.SendQuota?.MaxSendRate ?? 0,
      sentLast24Hours: out.SendQuota?.SentLast24Hours ?? 0,
      sendingEnabled: out.SendingEnabled ?? false,
      productionAccess: out.ProductionAccessEnabled ?? false,
    };
  },
});
