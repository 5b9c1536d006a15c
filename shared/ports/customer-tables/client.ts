import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../../kernel/config';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { dynamo } from '../../kernel/store/client';

const clients = new Map<string, DynamoDBClient>();

/**
 * The raw DynamoDB client for customer tables in `region` (attribute values travel as DynamoDB
 * JSON, so no document client). The platform's own region reuses the store's client; another
 * location's region gets its own client, created once. On the local platform every client reaches
 * the one DynamoDB Local (the SDK's AWS_ENDPOINT_URL_DYNAMODB; it runs with -sharedDb).
 */
export function customerDynamo(region: string): DynamoDBClient {
  if (region === config.region) return dynamo;
  let client = clients.get(region);
  if (!client) {
    client = new DynamoDBClient({ ...sdkSettings('customerTables'), region });
    clients.set(region, client);
  }
  return client;
}
