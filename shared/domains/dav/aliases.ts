import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix } from '../../kernel/store/ops';
import { getItem, TABLE, userPk } from '../../kernel/store/table';

/**
 * A calendar made by a program (MKCALENDAR) lives at the URL the program chose
 * (`/dav/calendars/<its name>/`), not at `<orgId>.<mailboxId>.<calendarId>`: the person's alias
 * for it (`USER#<userId>`, `DAVCAL#<name>`) says which calendar that is, and listings show it there.
 */
export interface Alias {
  name: string;
  orgId: string;
  mailboxId: string;
  calendarId: string;
}

const key = (userId: string, name: string) => ({ pk: userPk(userId), sk: `${PREFIXES.dav.calendarAlias}${name}` });

export const aliasOf = (userId: string, name: string) => getItem<Alias>(key(userId, name));

export const aliasesOf = (userId: string) => queryPrefix<Alias>(userPk(userId), PREFIXES.dav.calendarAlias);

export async function putAlias(userId: string, alias: Alias): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE(), Item: { ...key(userId, alias.name), ...alias } }));
}

export async function removeAlias(userId: string, name: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE(), Key: key(userId, name) }));
}
