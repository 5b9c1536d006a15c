import { conflict, notFound } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { withLease } from '../../kernel/store/lease';
import type { S3LifecycleRule } from '../../ports/object-storage';
import { storage } from '../../ports/object-storage';
import type { Bucket } from './buckets';
import { PLATFORM_RULE_PREFIX, toLifecycleRule } from './settings';

/** Spec part A, "Limits": rules per bucket (every rule counts, the platform's or not). */
export const MAX_RULES = 50;
export const TOO_MANY_RULES = 'A bucket can have 50 rules here.';
export const RULE_NOT_FOUND = 'Rule not found';
export const SETTINGS_BUSY = "Another change to this bucket's settings is in progress. Try again.";

/**
 * S3 replaces a bucket's whole lifecycle configuration on each write: adds and deletes are a read
 * and a write, so they take the bucket's settings lease (one at a time; none is lost).
 */
const oneAtATime = <T>(bucket: Bucket, fn: () => Promise<T>) =>
  withLease(`bucket-settings#${bucket.ref.name}`, SETTINGS_BUSY, fn);

/**
 * Adds a rule that deletes files under `prefix` `days` after they are written (and old versions
 * `noncurrentDays` after they became old). S3 replaces the whole configuration on each write, so
 * the other rules are written back as they were read.
 */
export function addLifecycleRule(bucket: Bucket, input: { prefix: string; days: number; noncurrentDays?: number }) {
  return oneAtATime(bucket, async () => {
    const rules = await storage().getLifecycle(bucket.ref);
    if (rules.length >= MAX_RULES) throw conflict(TOO_MANY_RULES);
    const rule: S3LifecycleRule = {
      ID: `${PLATFORM_RULE_PREFIX}${newId('')}`,
      Filter: { Prefix: input.prefix },
      Status: 'Enabled',
      Expiration: { Days: input.days },
      NoncurrentVersionExpiration:
        input.noncurrentDays === undefined ? undefined : { NoncurrentDays: input.noncurrentDays },
    };
    const next = [...rules, rule];
    await storage().putLifecycle(bucket.ref, next);
    return { rule: toLifecycleRule(rule), lifecycle: next.map(toLifecycleRule) };
  });
}

export function deleteLifecycleRule(bucket: Bucket, ruleId: string) {
  return oneAtATime(bucket, async () => {
    const rules = await storage().getLifecycle(bucket.ref);
    const next = rules.filter((r) => r.ID !== ruleId);
    if (next.length === rules.length) throw notFound(RULE_NOT_FOUND);
    await storage().putLifecycle(bucket.ref, next);
    return { lifecycle: next.map(toLifecycleRule) };
  });
}
