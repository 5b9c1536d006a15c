import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { newId } from '../../shared/kernel/store/ids';
import { TABLE } from '../../shared/kernel/store/table';

/**
 * Writes a record straight into the platform table, for tests that need something a route of a
 * later group would create (a project, a connector, a team) before that group exists.
 */
export async function putRecord(orgId: string, sk: string, fields: Record<string, unknown> = {}): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE(), Item: { pk: `ORG#${orgId}`, sk, ...fields } }));
}

export const someId = (prefix: string) => newId(prefix);
