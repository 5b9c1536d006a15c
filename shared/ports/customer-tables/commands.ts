/**
 * The customer tables' commands (DynamoDB's own API: attribute values travel as DynamoDB JSON).
 * The databases product builds its calls with these and sends them through `customerDynamo`
 * (./client); no other code of the product names the SDK.
 */
export {
  type AttributeDefinition,
  type AttributeValue,
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  GetItemCommand,
  type GlobalSecondaryIndexDescription,
  type KeySchemaElement,
  type LocalSecondaryIndexDescription,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  type TableDescription,
  TagResourceCommand,
  TransactWriteItemsCommand,
  UntagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
