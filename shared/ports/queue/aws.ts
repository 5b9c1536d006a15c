import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { requireEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import type { QueuePort } from './port';

let client: SQSClient | undefined;

/**
 * SQS. On one machine the same calls reach the local SQS engine (`AWS_ENDPOINT_URL_SQS`, which the
 * SDK reads itself), so this adapter serves both targets.
 */
export const awsQueue = (): QueuePort => ({
  async send(urlVariable, message, options) {
    const url = requireEnv(urlVariable);
    // The client's endpoint, not the URL's host: the local engine's queue URLs name a host that
    // need not resolve; on AWS both are the region's SQS endpoint.
    client ??= new SQSClient({ ...sdkSettings('queue'), useQueueUrlAsEndpoint: false });
    await client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: JSON.stringify(message),
        ...(options?.delaySeconds
          ? { DelaySeconds: Math.min(900, Math.max(0, Math.round(options.delaySeconds))) }
          : {}),
      }),
    );
  },
});
