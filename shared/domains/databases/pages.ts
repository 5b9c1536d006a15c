import { invalid } from '../../kernel/ground/errors';
import { decodeCursor, encodeCursor, INVALID_CURSOR } from '../../kernel/store/cursor';
import { customerDynamo } from '../../ports/customer-tables/client';
import { QueryCommand, ScanCommand } from '../../ports/customer-tables/commands';
import { itemIn, itemOut, type JsonItem, type SdkItem } from './attributes';
import {
  type Filter,
  filterExpression,
  keyCondition,
  Placeholders,
  projectionExpression,
  type SortCondition,
} from './expressions';
import { type Database, keysOf, onMissingTable } from './load';

export interface PageInput {
  index?: string;
  limit: number;
  cursor?: string;
  filters: Filter[];
  match: 'all' | 'any';
  projection?: string[];
}

export interface QueryInput extends PageInput {
  partition: unknown;
  sort?: SortCondition;
  forward: boolean;
}

export interface Page {
  items: JsonItem[];
  count: number;
  scanned: number;
  cursor?: string;
  consumed?: number;
}

export const noIndex = (name: string) => `No index named ${name}.`;

/**
 * A page cursor is DynamoDB's LastEvaluatedKey, signed and bound to the organization, the
 * database, the operation and the index: a cursor of one database (or of a scan, or of another
 * index) is refused on another with 400 `Invalid page cursor. Run the request again.`
 */
const cursorScope = (db: Database, op: 'scan' | 'query', index: string | undefined) =>
  `${db.orgId}:${db.resourceId}:${op}:${index ?? ''}`;

function startKey(db: Database, op: 'scan' | 'query', input: PageInput): SdkItem | undefined {
  const key = decodeCursor(cursorScope(db, op, input.index), input.cursor);
  if (!key) return undefined;
  try {
    return itemIn(key, 'cursor');
  } catch {
    throw invalid(INVALID_CURSOR);
  }
}

function pageOf(
  db: Database,
  op: 'scan' | 'query',
  input: PageInput,
  out: {
    Items?: SdkItem[];
    Count?: number;
    ScannedCount?: number;
    LastEvaluatedKey?: SdkItem;
    ConsumedCapacity?: { CapacityUnits?: number };
  },
): Page {
  const page: Page = {
    items: (out.Items ?? []).map(itemOut),
    count: out.Count ?? 0,
    scanned: out.ScannedCount ?? 0,
  };
  if (out.LastEvaluatedKey) {
    page.cursor = encodeCursor(cursorScope(db, op, input.index), itemOut(out.LastEvaluatedKey)) ?? undefined;
  }
  if (out.ConsumedCapacity?.CapacityUnits !== undefined) page.consumed = out.ConsumedCapacity.CapacityUnits;
  return page;
}

/** One page of a scan of the table or of an index. */
export async function scanPage(db: Database, input: PageInput): Promise<Page> {
  if (input.index !== undefined && !(await keysOf(db, input.index))) throw invalid(noIndex(input.index));
  const p = new Placeholders();
  const filter = filterExpression(p, input.filters, input.match);
  const projection = projectionExpression(p, input.projection);
  const start = startKey(db, 'scan', input);
  const out = await onMissingTable(db, () =>
    customerDynamo(db.region).send(
      new ScanCommand({
        TableName: db.physicalName,
        IndexName: input.index,
        Limit: input.limit,
        ExclusiveStartKey: start,
        FilterExpression: filter,
        ProjectionExpression: projection,
        ReturnConsumedCapacity: 'TOTAL',
        ...p.maps,
      }),
    ),
  );
  return pageOf(db, 'scan', input, out);
}

/** One page of a query on the table or an index: one partition, optionally a sort key range. */
export async function queryPage(db: Database, input: QueryInput): Promise<Page> {
  const keys = await keysOf(db, input.index);
  if (!keys) throw invalid(noIndex(input.index as string));
  const p = new Placeholders();
  const key = keyCondition(p, keys, input.partition, input.sort);
  const filter = filterExpression(p, input.filters, input.match);
  const projection = projectionExpression(p, input.projection);
  const start = startKey(db, 'query', input);
  const out = await onMissingTable(db, () =>
    customerDynamo(db.region).send(
      new QueryCommand({
        TableName: db.physicalName,
        IndexName: input.index,
        KeyConditionExpression: key,
        Limit: input.limit,
        ScanIndexForward: input.forward,
        ExclusiveStartKey: start,
        FilterExpression: filter,
        ProjectionExpression: projection,
        ReturnConsumedCapacity: 'TOTAL',
        ...p.maps,
      }),
    ),
  );
  return pageOf(db, 'query', input, out);
}
