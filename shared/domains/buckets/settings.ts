import { invalid } from '../../kernel/ground/errors';
import type { S3LifecycleRule } from '../../ports/object-storage';
import { type CorsRule, RESERVED_CORS_ID, splitCors, storage, uploadCorsRule } from '../../ports/object-storage';
import type { LifecycleRule } from '../resources/record-schemas';
import type { Bucket } from './buckets';

export const RESERVED_RULE = `${RESERVED_CORS_ID} is reserved for the service uploads.`;

/** Lifecycle rules the platform writes carry this ID prefix; any other rule is `other: true`. */
export const PLATFORM_RULE_PREFIX = 'platform-';

export function toLifecycleRule(r: S3LifecycleRule): LifecycleRule {
  const id = r.ID ?? '';
  return {
    id,
    prefix: r.Filter?.Prefix ?? r.Filter?.And?.Prefix ?? r.Prefix ?? '',
    enabled: r.Status === 'Enabled',
    expirationDays: r.Expiration?.Days,
    noncurrentDays: r.NoncurrentVersionExpiration?.NoncurrentDays,
    other: !id.startsWith(PLATFORM_RULE_PREFIX),
  };
}

export async function getSettings(bucket: Bucket) {
  const [versioning, rules, lifecycle, publicAccessBlocked] = await Promise.all([
    storage().getVersioning(bucket.ref),
    storage().getCors(bucket.ref),
    storage().getLifecycle(bucket.ref),
    storage().getPublicAccessBlocked(bucket.ref),
  ]);
  const { cors, cloudCors } = splitCors(rules);
  return { versioning, cors, cloudCors, lifecycle: lifecycle.map(toLifecycleRule), publicAccessBlocked };
}

/** Replaces the customer's CORS rules; the platform's own upload rule stays first, untouched. */
export async function replaceCors(bucket: Bucket, rules: CorsRule[]) {
  if (rules.some((r) => r.ID === RESERVED_CORS_ID)) throw invalid(RESERVED_RULE);
  const current = splitCors(await storage().getCors(bucket.ref)).cloudCors;
  const reserved = current.ID === RESERVED_CORS_ID ? current : uploadCorsRule();
  await storage().putCors(bucket.ref, [reserved, ...rules]);
  return { cors: rules };
}

export async function setVersioning(bucket: Bucket, enabled: boolean) {
  return { versioning: await storage().setVersioning(bucket.ref, enabled) };
}
