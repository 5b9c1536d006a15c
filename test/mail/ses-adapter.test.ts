import {
  AlreadyExistsException,
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  GetSuppressedDestinationCommand,
  NotFoundException,
  PutEmailIdentityFeedbackAttributesCommand,
  SESv2Client,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { awsMail } from '../../shared/ports/mail-transport/aws';

/**
 * The mail port's SES v2 adapter against the calls it must make: raw sends, domain identities with
 * Easy DKIM (an existing one read back), deletes of a missing identity ignored, the account's
 * suppression list (a missing entry is not suppressed).
 */
const ses = mockClient(SESv2Client);
const missing = (message: string) => new NotFoundException({ message, $metadata: {} });
beforeEach(() => ses.reset());

test('sendRaw sends the bytes as built, from the given address to every envelope recipient, through the configuration set', async () => {
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
  process.env.MAIL_CONFIGURATION_SET = 'platform-sending';
  const raw = Buffer.from('From: a@acme.test\r\nTo: b@x.example\r\nSubject: Hi\r\n\r\nHello\r\n');
  const out = await awsMail().sendRaw({ from: 'a@acme.test', to: ['b@x.example', 'c@x.example'], raw });
  expect(out).toEqual({ messageId: 'ses-1', rejected: [] });
  const input = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
  expect(input).toEqual({
    FromEmailAddress: 'a@acme.test',
    Destination: { ToAddresses: ['b@x.example', 'c@x.example'] },
    Content: { Raw: { Data: raw } },
    ConfigurationSetName: 'platform-sending',
  });
  delete process.env.MAIL_CONFIGURATION_SET;
});

test('createDomain answers Easy DKIM tokens, of a new identity or an existing one', async () => {
  ses.on(CreateEmailIdentityCommand).resolvesOnce({ DkimAttributes: { Tokens: ['t1', 't2', 't3'] } });
  expect(await awsMail().createDomain('acme.com')).toEqual({ dkimTokens: ['t1', 't2', 't3'] });
  expect(ses.commandCalls(CreateEmailIdentityCommand)[0]?.args[0].input).toEqual({ EmailIdentity: 'acme.com' });

  ses.on(CreateEmailIdentityCommand).rejects(new AlreadyExistsException({ message: 'exists', $metadata: {} }));
  ses.on(GetEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: ['o1', 'o2', 'o3'] } });
  expect(await awsMail().createDomain('acme.com')).toEqual({ dkimTokens: ['o1', 'o2', 'o3'] });
  // Feedback by email is off: bounces come as events, and the platform files one notice.
  expect(ses.commandCalls(PutEmailIdentityFeedbackAttributesCommand).map((c) => c.args[0].input)).toEqual([
    { EmailIdentity: 'acme.com', EmailForwardingEnabled: false },
    { EmailIdentity: 'acme.com', EmailForwardingEnabled: false },
  ]);
});

test('deleteDomain ignores an identity already gone, not other failures', async () => {
  ses.on(DeleteEmailIdentityCommand).rejectsOnce(missing('gone'));
  await expect(awsMail().deleteDomain('acme.com')).resolves.toBeUndefined();
  ses.on(DeleteEmailIdentityCommand).rejects(new Error('throttled'));
  await expect(awsMail().deleteDomain('acme.com')).rejects.toThrow('throttled');
});

test('suppressed answers the addresses on the suppression list', async () => {
  ses
    .on(GetSuppressedDestinationCommand, { EmailAddress: 'bounced@x.example' })
    .resolves({
      SuppressedDestination: { EmailAddress: 'bounced@x.example', Reason: 'BOUNCE', LastUpdateTime: new Date() },
    })
    .on(GetSuppressedDestinationCommand, { EmailAddress: 'fine@x.example' })
    .rejects(missing('not suppressed'));
  expect(await awsMail().suppressed(['bounced@x.example', 'fine@x.example'])).toEqual(new Set(['bounced@x.example']));
});
