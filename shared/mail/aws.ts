import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { type MailPort, mailFrom } from './port';

let client: SESv2Client | undefined;

/** SES v2: the sender (`MAIL_FROM`) must be a verified identity of the account. */
export const sesMail: MailPort = {
  async send(message) {
    client ??= new SESv2Client({});
    const out = await client.send(
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
};
