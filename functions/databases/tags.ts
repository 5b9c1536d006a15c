import { TagResourceCommand, UntagResourceCommand } from '@aws-sdk/client-dynamodb';
import { isUnknownOperation, NOTES, supports } from '../../shared/databases/capabilities';
import { customerDynamo } from '../../shared/databases/client';
import { badRequest } from '../../shared/ground/errors';
import { updateResource } from '../../shared/resources/records';
import { type Database, describe } from './load';

export const MAX_TAGS = 50;
export const RESERVED_TAG = 'Tags starting with aws: or platform: are reserved.';
export const TOO_MANY_TAGS = `A database can have ${MAX_TAGS} tags.`;

/**
 * Sets (`value`) and removes (`null`) tags of a database. The database record holds the tags (so
 * they survive on a table store without tagging, and the settings route reads them without a
 * backend call); they are applied to the table where the store supports tags, and `applied`
 * says whether they were. The platform's own tags (`platform:…`) can't be changed.
 */
export async function changeTags(
  db: Database,
  change: Record<string, string | null>,
): Promise<{ tags: Record<string, string>; applied: boolean; notes: string[] }> {
  const names = Object.keys(change);
  if (names.some((k) => /^(aws|platform):/i.test(k))) throw badRequest(RESERVED_TAG);
  const tags: Record<string, string> = { ...db.tags };
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete tags[k];
    else tags[k] = v;
  }
  if (Object.keys(tags).length > MAX_TAGS) throw badRequest(TOO_MANY_TAGS);

  let applied = false;
  if (supports('tags')) {
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
  const updated = await updateResource(db, { tags });
  return { tags: updated.tags ?? {}, applied, notes: applied ? [] : [NOTES.tags] };
}
