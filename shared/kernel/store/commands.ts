/**
 * The platform table's commands (DynamoDB's document client), the one place outside the ports
 * where the SDK is named: domains and routes build their reads and writes with these and send
 * them through `db` (./client), so the store stays the machinery's one door to the table.
 */
export {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  ScanCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
