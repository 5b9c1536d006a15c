import { CloudWatchClient, GetMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { config } from '../../kernel/config';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import type { BucketRef } from '../object-storage/port';
import type { MetricsPort, Usage } from './port';

/**
 * A bucket's usage on AWS, from S3's daily storage metrics in CloudWatch (reported once a day in
 * the bucket's region): the size summed over every storage class, and the object count. Loaded
 * on first use by the usage worker only, so no route's bundle carries a CloudWatch client.
 */
const DAY = 24 * 60 * 60 * 1000;

const clients = new Map<string, CloudWatchClient>();
function clientFor(region: string): CloudWatchClient {
  let client = clients.get(region);
  if (!client) {
    client = new CloudWatchClient({ ...sdkSettings('metrics'), region });
    clients.set(region, client);
  }
  return client;
}

/** The latest daily figures, or undefined while S3 has reported none (a bucket younger than a day). */
async function readBucketMetrics(bucket: BucketRef, now = Date.now()): Promise<Usage | undefined> {
  const name = bucket.name;
  const search = `{AWS/S3,BucketName,StorageType} MetricName="BucketSizeBytes" BucketName="${name}"`;
  const sizes = `SEARCH('${search}', 'Average', 86400)`;
  const out = await clientFor(bucket.region ?? config.region).send(
    new GetMetricDataCommand({
      StartTime: new Date(now - 3 * DAY),
      EndTime: new Date(now),
      ScanBy: 'TimestampDescending',
      MetricDataQueries: [
        {
          Id: 'size',
          // One series per storage class: their sum is the bucket's size.
          Expression: `SUM(${sizes})`,
          ReturnData: true,
        },
        {
          Id: 'objects',
          MetricStat: {
            Metric: {
              Namespace: 'AWS/S3',
              MetricName: 'NumberOfObjects',
              Dimensions: [
                { Name: 'BucketName', Value: name },
                { Name: 'StorageType', Value: 'AllStorageTypes' },
              ],
            },
            Period: 86400,
            Stat: 'Average',
          },
          ReturnData: true,
        },
      ],
    }),
  );
  const latest = (id: string) => {
    const r = out.MetricDataResults?.find((m) => m.Id === id);
    const value = r?.Values?.[0];
    return value === undefined ? undefined : { value, at: r?.Timestamps?.[0]?.getTime() };
  };
  const size = latest('size');
  const objects = latest('objects');
  if (!size && !objects) return undefined;
  return {
    sizeBytes: size ? Math.round(size.value) : undefined,
    objects: objects ? Math.round(objects.value) : undefined,
    at: size?.at ?? objects?.at ?? now,
  };
}

export function awsMetrics(): MetricsPort {
  return { bucketUsage: readBucketMetrics };
}
