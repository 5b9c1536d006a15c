import {
  PinpointSMSVoiceV2Client,
  SendTextMessageCommand,
  SendVoiceMessageCommand,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { readEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import type { PhonePort } from './port';

let client: PinpointSMSVoiceV2Client | undefined;

/**
 * End User Messaging: texts from `PHONE_ORIGINATION` when set (else the account's default), calls
 * from it (a call needs one: without it, a call is an error the caller falls back from).
 */
export const awsPhone = (): PhonePort => ({
  async text(to, body) {
    client ??= new PinpointSMSVoiceV2Client(sdkSettings('phone'));
    const origin = readEnv('PHONE_ORIGINATION');
    await client.send(
      new SendTextMessageCommand({
        DestinationPhoneNumber: to,
        MessageBody: body,
        MessageType: 'TRANSACTIONAL',
        ...(origin ? { OriginationIdentity: origin } : {}),
      }),
    );
  },
  async call(to, message) {
    const origin = readEnv('PHONE_ORIGINATION');
    if (!origin) throw new Error('PHONE_ORIGINATION is not set: voice calls need an origination number.');
    client ??= new PinpointSMSVoiceV2Client(sdkSettings('phone'));
    await client.send(
      new SendVoiceMessageCommand({
        DestinationPhoneNumber: to,
        OriginationIdentity: origin,
        MessageBody: message,
        MessageBodyTextType: 'TEXT',
      }),
    );
  },
});
