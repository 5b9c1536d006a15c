import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { platformTable } from '../platform-table';
import { acknowledge } from './nag';

/**
 * Where the platform keeps its own data: the platform table, the artifacts bucket (with its
 * access-log bucket), the keys that encrypt them, and the secret that signs page cursors.
 * Everything that holds customer data is retained when the stack is deleted.
 */
export class PlatformData extends Construct {
  /** Encrypts the platform table at rest. */
  readonly tableKey: kms.Key;
  /** Envelope encryption of secrets (environment values, connector credentials, tokens). */
  readonly secretsKey: kms.Key;
  readonly table: dynamodb.Table;
  readonly logBucket: s3.Bucket;
  readonly artifactsBucket: s3.Bucket;
  /** HMAC key of the opaque page cursors. */
  readonly cursorSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    // Two keys, not one: DynamoDB's grant gives every function that reads the table kms:Decrypt on
    // the table's key. If that key also wrapped the secrets' data keys, every such function could
    // unwrap them, and the `kms` need would grant nothing the `table` need did not already.
    this.tableKey = new kms.Key(this, 'TableKey', {
      description: 'Platform table encryption at rest',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.secretsKey = new kms.Key(this, 'SecretsKey', {
      description: 'Envelope encryption of platform secrets',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.table = new dynamodb.Table(this, 'PlatformTable', {
      partitionKey: { name: platformTable.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: platformTable.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      timeToLiveAttribute: platformTable.ttlAttribute,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.tableKey,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of platformTable.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    // S3 server access logs cannot be delivered to a KMS-encrypted bucket: S3-managed keys here.
    this.logBucket = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(7), expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.logBucket,
      'AwsSolutions-S1',
      'This is the access-log bucket itself; logging its own access would log into itself.',
    );

    // S3-managed keys: presigned uploads and downloads then need no KMS permission per caller,
    // and objects are still encrypted at rest.
    this.artifactsBucket = new s3.Bucket(this, 'Artifacts', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      versioned: true,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 'artifacts/',
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(7) },
        // Versioning protects against an overwrite or delete by mistake, not forever.
        { noncurrentVersionExpiration: Duration.days(30) },
        // Files uploaded for a web commit that never came (shared/domains/repos/uploads.ts).
        { prefix: 'repo-uploads/', expiration: Duration.days(1) },
        // Archives of commits (shared/domains/repos/archives.ts: their records answer for 12 hours).
        { prefix: 'repo-archives/', expiration: Duration.days(1) },
        // Git LFS uploads never verified (shared/domains/repos/lfs/objects.ts: their links last an hour).
        { prefix: 'repo-lfs/incoming/', expiration: Duration.days(1) },
        // Results of agent jobs (shared/domains/agents/jobs.ts), linked from the job for a month.
        { prefix: 'agent-results/', expiration: Duration.days(30) },
        // Tracker import files, read while their import runs (shared/domains/tracker/transfer.ts), and
        // large exports, linked for 5 minutes; attachments (`tracker/`) stay.
        { prefix: 'tracker-imports/', expiration: Duration.days(2) },
        { prefix: 'tracker-exports/', expiration: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.cursorSecret = new secretsmanager.Secret(this, 'CursorSecret', {
      description: 'HMAC key of the opaque page cursors',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    acknowledge(
      this.cursorSecret,
      'AwsSolutions-SMG4',
      'The cursor HMAC key is read into function environments at deploy time, so a rotation would not reach ' +
        'running functions; rotate it by redeploying with a new secret value (it only invalidates open page cursors).',
    );
  }
}
