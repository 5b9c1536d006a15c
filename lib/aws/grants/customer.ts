import { Aws } from 'aws-cdk-lib';
import { CUSTOMER_BUCKET_PREFIX, CUSTOMER_TABLE_PREFIX } from '../../../shared/kernel/config';
import { TABLE_ACTIONS } from '../../../shared/ports/runtime/function-role';
import { nagArn } from '../nag';
import type { Grants } from './grant';

/** Customers' databases and buckets: made at runtime, known by name prefix only; no variable. */

/**
 * Customer databases: created, described, changed and deleted by the platform at runtime, in the
 * region of their location, so only their name prefix is known here.
 */
const customerTableActions = [
  'dynamodb:CreateTable',
  'dynamodb:DescribeTable',
  'dynamodb:UpdateTable',
  'dynamodb:DeleteTable',
  'dynamodb:DescribeTimeToLive',
  'dynamodb:UpdateTimeToLive',
  'dynamodb:DescribeContinuousBackups',
  'dynamodb:UpdateContinuousBackups',
  'dynamodb:TagResource',
  'dynamodb:UntagResource',
  'dynamodb:ListTagsOfResource',
  // The item reads and writes a deployed function may make on its linked table, and the routes too.
  ...TABLE_ACTIONS.filter((action) => action !== 'dynamodb:DescribeTable'),
];

/**
 * Customer buckets: the storage routes of the spec (objects, folders, versioning, CORS, lifecycle,
 * settings), plus create and delete. Creating one also hardens it (public access block, default
 * encryption, an SSL-only bucket policy: shared/ports/object-storage), hence the three Put*Policy-like actions;
 * ACLs and ownership are never touched, so they are not granted.
 */
const customerBucketActions = [
  's3:CreateBucket',
  's3:DeleteBucket',
  's3:ListBucket',
  's3:ListBucketVersions',
  's3:ListBucketMultipartUploads',
  's3:GetBucketLocation',
  's3:GetBucketVersioning',
  's3:PutBucketVersioning',
  's3:GetBucketCORS',
  's3:PutBucketCORS',
  's3:GetLifecycleConfiguration',
  's3:PutLifecycleConfiguration',
  's3:GetBucketPublicAccessBlock',
  's3:PutBucketPublicAccessBlock',
  's3:GetEncryptionConfiguration',
  's3:PutEncryptionConfiguration',
  's3:GetBucketPolicy',
  's3:PutBucketPolicy',
  's3:GetBucketTagging',
  's3:PutBucketTagging',
];
const customerObjectActions = [
  's3:GetObject',
  's3:GetObjectVersion',
  's3:PutObject',
  's3:DeleteObject',
  's3:DeleteObjectVersion',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
];

export const customerGrants: Grants<'customerTables' | 'customerBuckets' | 'bucketMetrics'> = {
  customerTables: {
    grant: ({ stack, allow, ack }) => {
      // Any region: a customer database lives in the region of its location (LOCATIONS).
      const tables = stack.formatArn({
        service: 'dynamodb',
        region: '*',
        resource: 'table',
        resourceName: `${CUSTOMER_TABLE_PREFIX}*`,
      });
      allow({ actions: customerTableActions, resources: [tables] });
      allow({ actions: ['dynamodb:Query', 'dynamodb:Scan'], resources: [`${tables}/index/*`] });
      ack(
        `Customer databases are created at runtime in the region of their location, so they are known only by the ` +
          `name prefix ${CUSTOMER_TABLE_PREFIX} (shared/kernel/config.ts), in this account.`,
        `Resource::${nagArn(tables)}`,
        `Resource::${nagArn(tables)}/index/*`,
      );
    },
  },

  customerBuckets: {
    grant: ({ allow, ack }) => {
      const buckets = `arn:${Aws.PARTITION}:s3:::${CUSTOMER_BUCKET_PREFIX}*`;
      // S3 ARNs carry no account: keep the grant to this account's buckets, except for creating one,
      // which has no owner yet.
      const ownBuckets = { StringEquals: { 's3:ResourceAccount': Aws.ACCOUNT_ID } };
      allow({ actions: ['s3:CreateBucket'], resources: [buckets] });
      allow({
        actions: customerBucketActions.filter((a) => a !== 's3:CreateBucket'),
        resources: [buckets],
        conditions: ownBuckets,
      });
      allow({ actions: customerObjectActions, resources: [`${buckets}/*`], conditions: ownBuckets });
      // Finding the account's customer buckets (ListBuckets with a prefix) has no resource-level
      // permission: it lists bucket names only.
      allow({ actions: ['s3:ListAllMyBuckets'], resources: ['*'] });
      ack(
        `Customer buckets are created at runtime, so they are known only by the name prefix ` +
          `${CUSTOMER_BUCKET_PREFIX} (shared/kernel/config.ts); all but CreateBucket are limited to this account.`,
        `Resource::${nagArn(buckets)}`,
        `Resource::${nagArn(buckets)}/*`,
      );
      ack(
        's3:ListAllMyBuckets (ListBuckets) supports no resource-level permission; it lists names only.',
        'Resource::*',
      );
    },
  },

  // Neither call has resource-level permissions: ListBuckets lists names only; GetMetricData
  // reads the S3 namespace's daily storage figures.
  bucketMetrics: {
    grant: ({ allow, ack }) => {
      allow({ actions: ['s3:ListAllMyBuckets', 'cloudwatch:GetMetricData'], resources: ['*'] });
      ack('s3:ListAllMyBuckets and cloudwatch:GetMetricData support no resource-level permission.', 'Resource::*');
    },
  },
};
