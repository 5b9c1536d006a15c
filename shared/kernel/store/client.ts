import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sdkSettings } from '../ground/sdk-settings';
import { withOrdinaryNames } from './ordinary-names';

/**
 * The DynamoDB clients, created once per process (no I/O until the first call). The endpoint
 * comes from the SDK's own `AWS_ENDPOINT_URL_DYNAMODB` on the local platform.
 */
export const dynamo = new DynamoDBClient(sdkSettings('table'));
export const db = withOrdinaryNames(
  DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
);
