import { invalid, isDomainError } from '../../kernel/ground/errors';
import { customerDynamo } from '../../ports/customer-tables/client';
import { TagResourceCommand, UntagResourceCommand } from '../../ports/customer-tables/commands';
import { getResource, updateResource } from '../resources/records';
import type { ResourceRecord } from '../resources/schema';
import { isUnknownOperation, NOTES, supports } from './capabilities';
import { type Database, describe } from './load';

export const MAX_TAGS = 50;
export const RESERVED_TAG = 'Tags starting with aws: or platform: are reserved.';
export const TOO_MANY_TAGS = `A database can have ${MAX_TAGS} tags.`;

/** The record's tags with `change` merged in (400 past the limit). */
function merged(current: Record<string, string> | undefined, change: Record<string, string | null>) {
  const tags: Record<string, string> = { ...current };
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete tags[k];
    else tags[k] = v;
  }
  if (Object.keys(tags).length > MAX_TAGS) throw invalid(TOO_MANY_TAGS);
  return tags;
}

/**
 * Writes the merged tags to the record, guarded by its version: a change made meanwhile by another
 * request is read again and this change merged into it (a few times), so concurrent changes of
 * different tags all land.
 */
async function storeTags(db: Database, change: Record<string, string | null>): Promise<ResourceRecord> {
  let current: ResourceRecord = db;
  for (let attempt = 0; ; attempt++) {
    try {
      return await updateResource(current, { tags: merged(current.tags, change) });
    } catch (err) {
      if (!isDomainError(err, 'conflict') || attempt >= 8) throw err;
      const fresh = await getResource(db.orgId, 'database', db.resourceId);
      if (!fresh) throw err;
      current = fresh;
    }
  }
}

/**
 * Sets (`value`) and removes (`null`) tags of a database. The database record holds the tags (so
 * they survive on a table store without tagging, and the settings route reads them without a
 * backend call): it is written first, then the change is applied to the table where the store
 * supports tags, and `applied` says whether it was. The platform's own tags (`platform:…`) can't
 * be changed.
 */
export async function changeTags(
  db: Database,
  change: Record<string, string | null>,
): Promise<{ tags: Record<string, string>; applied: boolean; notes: string[] }> {
  const names = Object.keys(change);
  if (names.some((k) => /^(aws|platform):/i.test(k))) throw invalid(RESERVED_TAG);
  merged(db.tags, change);
  const updated = await storeTags(db, change);

  let applied = false;
  if (await supports('tags')) {
    const arn = db.arn ?? (await describe(db)).TableArn;
    const set = Object.entries(change).filter((e): e is [string, string] => e[1] !== null);
    const removed = names.filter((k) => change[k] === null);
    try {
      const dynamo = customerDynamo(db.region);
      if (set.length) {
        await dynamo.send(
          new TagResourceCommand({ ResourceArn: arn, Tags: set.map(([Key, Value]) => ({ Key, Value })) }),
        );
      }
      if (removed.length) await dynamo.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: removed }));
      applied = true;
    } catch (err) {
      if (!isUnknownOperation(err)) throw err;
    }
  }
  return { tags: updated.tags ?? {}, applied, notes: applied ? [] : [NOTES.tags] };
}
