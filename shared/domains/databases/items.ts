import { conflict, type DomainError, notFound, tooLarge } from '../../kernel/ground/errors';
import { customerDynamo } from '../../ports/customer-tables/client';
import {
  type AttributeValue,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '../../ports/customer-tables/commands';
import {
  itemIn,
  itemOut,
  itemSize,
  type JsonItem,
  keyIn,
  keyOfItem,
  MAX_ITEM_BYTES,
  type SdkItem,
  sameKey,
  sameValue,
} from './attributes';
import { type Database, onMissingTable } from './load';

export const ITEM_NOT_FOUND = 'Item not found';
export const KEY_EXISTS = 'An item with this key already exists.';
export const ITEM_DELETED = 'This item was deleted. Create it again instead.';
export const ITEM_CHANGED = 'The item changed since it was read. Reload and try again.';
export const ITEM_TOO_LARGE = "The item is larger than the table store's 400 KB limit.";
export const BODY_TOO_LARGE = 'The request body is larger than 800 KB.';
export const MAX_BODY_BYTES = 800 * 1024;

/** DynamoDB's limit on the text of one expression. */
const MAX_EXPRESSION = 4096;

const client = (db: Database) => customerDynamo(db.region);

async function read(db: Database, key: SdkItem): Promise<SdkItem | undefined> {
  const out = await onMissingTable(db, () =>
    client(db).send(new GetItemCommand({ TableName: db.physicalName, Key: key, ConsistentRead: true })),
  );
  return out.Item;
}

/** `items/get`: a strongly consistent read of one item. */
export async function getItem(db: Database, rawKey: unknown): Promise<JsonItem> {
  const item = await read(db, keyIn(rawKey, db.keys));
  if (!item) throw notFound(ITEM_NOT_FOUND);
  return itemOut(item);
}

/** `items/delete`: deletes one item; deleting an item that is not there is not an error. */
export async function deleteItem(db: Database, rawKey: unknown): Promise<void> {
  const key = keyIn(rawKey, db.keys);
  await onMissingTable(db, () => client(db).send(new DeleteItemCommand({ TableName: db.physicalName, Key: key })));
}

/**
 * The guard of a write that replaces `original`: every attribute of the item as it was read still
 * has its value (so the item still exists), and no attribute the new item adds has appeared
 * meanwhile. Names and values are placeholders. Undefined when the guard would exceed DynamoDB's
 * expression limit (items of a few hundred attributes): the caller then compares a fresh read.
 */
function guardOf(original: SdkItem, item: SdkItem) {
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const parts: string[] = [];
  let i = 0;
  for (const [name, value] of Object.entries(original)) {
    names[`#g${i}`] = name;
    values[`:g${i}`] = value;
    parts.push(`#g${i} = :g${i}`);
    i++;
  }
  for (const name of Object.keys(item)) {
    if (name in original) continue;
    names[`#g${i}`] = name;
    parts.push(`attribute_not_exists(#g${i})`);
    i++;
  }
  const expression = parts.join(' AND ');
  if (expression.length > MAX_EXPRESSION) return undefined;
  return {
    ConditionExpression: expression,
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

/** The item as it is now matches `original` exactly (the fallback of an over-long guard). */
function unchanged(now: SdkItem, original: SdkItem): boolean {
  const names = Object.keys(original);
  return (
    names.length === Object.keys(now).length &&
    names.every((n) => now[n] !== undefined && sameValue(now[n]!, original[n]!))
  );
}

/** Why a guarded write failed: the item is gone (deleted) or it is not what was read (changed). */
async function guardFailure(db: Database, originalKey: SdkItem): Promise<DomainError> {
  return (await read(db, originalKey)) ? conflict(ITEM_CHANGED) : conflict(ITEM_DELETED);
}

export interface PutInput {
  item: unknown;
  original?: unknown;
}

/**
 * `PUT items`. Without `original` it creates the item and refuses an existing key (409 `An item
 * with this key already exists.`). With `original` (the item as it was read) it replaces it,
 * guarded: when the stored item changed meanwhile the answer is 409 `The item changed since it
 * was read. Reload and try again.`, when it was deleted 409 `This item was deleted. Create it
 * again instead.` When the key changed, the item moves in one transaction: the new key is written
 * (refused with 409 `An item with this key already exists.` when taken) and the original deleted
 * under the same guard. Items over 400 KB are 413.
 */
export async function putItem(db: Database, input: PutInput): Promise<{ item: JsonItem; created: boolean }> {
  const item = itemIn(input.item, 'item');
  const key = keyOfItem(item, db.keys);
  if (itemSize(item) > MAX_ITEM_BYTES) throw tooLarge(ITEM_TOO_LARGE);
  const pkName = db.keys.partitionKey.name;

  if (input.original === undefined) {
    try {
      await onMissingTable(db, () =>
        client(db).send(
          new PutItemCommand({
            TableName: db.physicalName,
            Item: item,
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': pkName },
          }),
        ),
      );
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') throw conflict(KEY_EXISTS);
      throw err;
    }
    return { item: itemOut(item), created: true };
  }

  const original = itemIn(input.original, 'original');
  const originalKey = keyOfItem(original, db.keys);
  let guard = guardOf(original, item);
  if (!guard) {
    const now = await read(db, originalKey);
    if (!now) throw conflict(ITEM_DELETED);
    if (!unchanged(now, original)) throw conflict(ITEM_CHANGED);
    guard = { ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: { '#pk': pkName } };
  }

  if (sameKey(key, originalKey)) {
    try {
      await onMissingTable(db, () =>
        client(db).send(new PutItemCommand({ TableName: db.physicalName, Item: item, ...guard })),
      );
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') throw await guardFailure(db, originalKey);
      throw err;
    }
    return { item: itemOut(item), created: false };
  }

  try {
    await onMissingTable(db, () =>
      client(db).send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.physicalName,
                Item: item,
                ConditionExpression: 'attribute_not_exists(#pk)',
                ExpressionAttributeNames: { '#pk': pkName },
              },
            },
            { Delete: { TableName: db.physicalName, Key: originalKey, ...guard } },
          ],
        }),
      ),
    );
  } catch (err) {
    const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if ((err as Error).name === 'TransactionCanceledException' && reasons) {
      if (reasons[0]?.Code === 'ConditionalCheckFailed') throw conflict(KEY_EXISTS);
      if (reasons[1]?.Code === 'ConditionalCheckFailed') throw await guardFailure(db, originalKey);
    }
    throw err;
  }
  return { item: itemOut(item), created: false };
}
