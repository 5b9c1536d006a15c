import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { awsMail } from '../../shared/ports/mail-transport/aws';

/** The mail port's SES v2 adapter: the account's sending quota is one GetAccount call. */
const ses = mockClient(SESv2Client);
beforeEach(() => ses.reset());

test("quota answers the account's figures from GetAccount", async () => {
  ses.on(GetAccountCommand).resolves({
    SendQuota: { Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: 1234 },
    SendingEnabled: true,
    ProductionAccessEnabled: true,
  });
  expect(await awsMail().quota()).toEqual({
    max24HourSend: 50_000,
    maxSendRate: 14,
    sentLast24Hours: 1234,
    sendingEnabled: true,
    productionAccess: true,
  });
  expect(ses.commandCalls(GetAccountCommand)).toHaveLength(1);
});

test('a quota SES leaves out is none, and sending is off until SES says it is on', async () => {
  ses.on(GetAccountCommand).resolves({});
  expect(await awsMail().quota()).toEqual({
    max24HourSend: 0,
    maxSendRate: 0,
    sentLast24Hours: 0,
    sendingEnabled: false,
    productionAccess: false,
  });
});
