/**
 * The role of one server function (shared/ports/runtime/aws.ts creates it with the function, named like
 * it): Lambda may assume it, and its inline policy reaches the function's own log group and, when
 * the project links them, its database's table and its bucket: nothing else. Every such role is
 * created under the stack's permissions boundary (lib/aws/function-roles.ts), which IAM requires of
 * the platform's CreateRole, so no role it makes can reach more than logs of server functions and
 * customer tables and buckets, whatever its inline policy says.
 */

/** The inline policy's name on every server function's role. */
export const FUNCTION_POLICY = 'own-resources';

export const LAMBDA_TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

/** Item reads and writes: what the databases routes offer, no table changes. */
export const TABLE_ACTIONS = [
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:Query',
  'dynamodb:Scan',
];
export const BUCKET_ACTIONS = ['s3:ListBucket', 's3:ListBucketMultipartUploads', 's3:GetBucketLocation'];
export const OBJECT_ACTIONS = [
  's3:GetObject',
  's3:GetObjectVersion',
  's3:PutObject',
  's3:DeleteObject',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
];

export interface FunctionReach {
  partition: string;
  account: string;
  /** Where the function runs (its log group's region). */
  region: string;
  functionName: string;
  /** The linked database's table, in its own region. */
  table?: { name: string; region: string };
  /** The linked bucket. */
  bucket?: string;
}

/** The inline policy of a server function's role: its log group, its linked table and bucket. */
export function functionPolicy(r: FunctionReach) {
  const group = `arn:${r.partition}:logs:${r.region}:${r.account}:log-group:/aws/lambda/${r.functionName}`;
  const statements: object[] = [
    { Effect: 'Allow', Action: ['logs:CreateLogGroup'], Resource: [group] },
    { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: [`${group}:*`] },
  ];
  if (r.table) {
    const table = `arn:${r.partition}:dynamodb:${r.table.region}:${r.account}:table/${r.table.name}`;
    statements.push({ Effect: 'Allow', Action: TABLE_ACTIONS, Resource: [table, `${table}/index/*`] });
  }
  if (r.bucket) {
    const bucket = `arn:${r.partition}:s3:::${r.bucket}`;
    // S3 ARNs carry no account: a bucket of the same name elsewhere is not this one.
    const own = { StringEquals: { 's3:ResourceAccount': r.account } };
    statements.push({ Effect: 'Allow', Action: BUCKET_ACTIONS, Resource: [bucket], Condition: own });
    statements.push({ Effect: 'Allow', Action: OBJECT_ACTIONS, Resource: [`${bucket}/*`], Condition: own });
  }
  return { Version: '2012-10-17', Statement: statements };
}

/** Partition and account of an ARN (the boundary's: the roles live beside it). */
export function arnParts(arn: string): { partition: string; account: string } {
  const [, partition = '', , , account = ''] = arn.split(':');
  if (!partition || !/^\d{12}$/.test(account)) throw new Error(`Not an ARN of an account: ${arn}`);
  return { partition, account };
}
