import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { customerDynamo } from '../../ports/customer-tables/client';
import { type AttributeDefinition, UpdateTableCommand } from '../../ports/customer-tables/commands';
import type { KeyAttribute } from '../resources/schema';
import { type Database, describe, forget, onMissingTable } from './load';
import { billingModeOf, indexBusyMessage, type TableOut, tableOut } from './tables';

export interface IndexInput {
  name: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  projection: { type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; attributes?: string[] };
}

export const LIST_ATTRIBUTES = 'List the attributes to include.';
export const ONLY_INCLUDE_LISTS = 'Only INCLUDE projections list attributes.';
export const SAME_KEYS = 'The sort key must differ from the partition key.';
export const ON_DEMAND_ONLY = 'Indexes can only be added to on-demand tables here.';
export const INDEX_NOT_FOUND = 'Index not found';
export const LOCAL_INDEX = "Local indexes can't be removed.";
export const indexExists = (name: string) => `An index named ${name} already exists.`;

const TYPE_NAMES = { S: 'string', N: 'number', B: 'binary' } as const;
export const typeTaken = (name: string, type: KeyAttribute['type']) =>
  `${name} is already a ${TYPE_NAMES[type]} key attribute; use that type.`;

/**
 * Adds a global secondary index. DynamoDB builds it in the background (the table reports
 * `UPDATING` and the index `backfilling` until it is `ACTIVE`), so the answer is 202 with the
 * table as it is now.
 */
export async function addIndex(db: Database, input: IndexInput): Promise<TableOut> {
  const { projection } = input;
  if (projection.type === 'INCLUDE' && !projection.attributes?.length) throw invalid(LIST_ATTRIBUTES);
  if (projection.type !== 'INCLUDE' && projection.attributes !== undefined) throw invalid(ONLY_INCLUDE_LISTS);
  if (input.sortKey && input.sortKey.name === input.partitionKey.name) throw invalid(SAME_KEYS);

  const t = await describe(db);
  if (billingModeOf(t) !== 'PAY_PER_REQUEST') throw conflict(ON_DEMAND_ONLY);
  const names = [...(t.GlobalSecondaryIndexes ?? []), ...(t.LocalSecondaryIndexes ?? [])].map((i) => i.IndexName);
  if (names.includes(input.name)) throw conflict(indexExists(input.name));

  // An attribute is a key attribute of one type across the table and all its indexes.
  const keyAttrs = input.sortKey ? [input.partitionKey, input.sortKey] : [input.partitionKey];
  const definitions: AttributeDefinition[] = [];
  for (const a of keyAttrs) {
    const known = t.AttributeDefinitions?.find((d) => d.AttributeName === a.name);
    if (known && known.AttributeType !== a.type) {
      throw invalid(typeTaken(a.name, known.AttributeType as KeyAttribute['type']));
    }
    definitions.push({ AttributeName: a.name, AttributeType: a.type });
  }

  const out = await onMissingTable(db, () =>
    customerDynamo(db.region).send(
      new UpdateTableCommand({
        TableName: db.physicalName,
        AttributeDefinitions: definitions,
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: input.name,
              KeySchema: [
                { AttributeName: input.partitionKey.name, KeyType: 'HASH' },
                ...(input.sortKey ? [{ AttributeName: input.sortKey.name, KeyType: 'RANGE' as const }] : []),
              ],
              Projection: {
                ProjectionType: projection.type,
                ...(projection.type === 'INCLUDE' ? { NonKeyAttributes: projection.attributes } : {}),
              },
            },
          },
        ],
      }),
    ),
  );
  forget(db.orgId, db.resourceId);
  return tableOut(out.TableDescription ?? t);
}

/**
 * Removes a global secondary index (202: DynamoDB removes it in the background). An index still
 * being built is 409; one already being removed answers the table as it is.
 */
export async function removeIndex(db: Database, name: string): Promise<TableOut> {
  const t = await describe(db);
  if ((t.LocalSecondaryIndexes ?? []).some((i) => i.IndexName === name)) throw invalid(LOCAL_INDEX);
  const index = (t.GlobalSecondaryIndexes ?? []).find((i) => i.IndexName === name);
  if (!index) throw notFound(INDEX_NOT_FOUND);
  if (index.IndexStatus === 'DELETING') return tableOut(t);
  if (index.IndexStatus !== 'ACTIVE' || index.Backfilling) throw conflict(indexBusyMessage(index));
  const out = await onMissingTable(db, () =>
    customerDynamo(db.region).send(
      new UpdateTableCommand({
        TableName: db.physicalName,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: name } }],
      }),
    ),
  );
  forget(db.orgId, db.resourceId);
  return tableOut(out.TableDescription ?? t);
}
