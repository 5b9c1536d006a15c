import { conflict, forbidden, invalid, notFound } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, putNew, versionedUpdate } from '../../kernel/store/table';
import { canBrowse, permissionsFor } from './access';
import { newBoardConfig } from './boards';
import { templateConfig } from './catalog';
import { allSpaces, findSpace, type Stored, strip } from './lookups';
import type { Board, Component, Space, SpaceColor, SpaceConfig, SpaceTemplate, Version } from './model';
import { type Actor, TRACKER_MESSAGES } from './records';
import { pkOf, TK, TP } from './store';

export { allSpaces, findSpace, strip };

const KEY = /^[A-Z][A-Z0-9]{1,9}$/;

export function normalizeKey(key: string): string {
  const k = key.trim().toUpperCase();
  if (!KEY.test(k)) throw invalid(TRACKER_MESSAGES.keyFormat);
  return k;
}

/** A space the actor may browse, else 404. */
export async function requireSpace(actor: Actor, ref: string): Promise<Space> {
  const space = await findSpace(actor.orgId, ref);
  if (!space || !canBrowse(space, actor)) throw notFound(TRACKER_MESSAGES.spaceNotFound);
  return space;
}

export async function listSpaces(actor: Actor, archived: boolean): Promise<Space[]> {
  const items = await queryPrefix<Stored<Space>>(pkOf(actor.orgId), TP.space);
  return items
    .map(strip)
    .filter((s) => (archived || !s.archived) && canBrowse(s, actor))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Every space of the organization (for resolving keys of issues across spaces). */

export interface NewSpace {
  key: string;
  name: string;
  template: SpaceTemplate;
  description?: string;
  leadId?: string;
  icon?: string;
  color?: SpaceColor;
}

/**
 * Creates a space from its template with its board, in one transaction with the key's pointer
 * (a taken key, current or former, is 409). The caller leads it unless `leadId` says otherwise.
 */
export async function createSpace(actor: Actor, input: NewSpace): Promise<{ space: Space; board: Board }> {
  const key = normalizeKey(input.key);
  const now = Date.now();
  const spaceId = newId('spc_', now);
  const boardId = newId('brd_', now);
  const config: SpaceConfig = { ...templateConfig(input.template), boardId };
  const leadId = input.leadId ?? (actor.person ? actor.id : undefined);
  const space: Space = {
    orgId: actor.orgId,
    spaceId,
    key,
    name: input.name,
    description: input.description ?? '',
    template: input.template,
    ...(leadId ? { leadId } : {}),
    ...(input.icon ? { icon: input.icon } : {}),
    ...(input.color ? { color: input.color } : {}),
    archived: false,
    seq: 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
    config,
  };
  const board: Board = {
    boardId,
    name: `${key} board`,
    ...(actor.person ? { ownerId: actor.id } : {}),
    version: 1,
    createdAt: now,
    updatedAt: now,
    config: newBoardConfig(input.template === 'scrum' ? 'scrum' : 'kanban', [space]),
  };
  await transact(
    [
      putNew({ ...TK.spaceKey(actor.orgId, key), spaceId }),
      putNew({ ...TK.space(actor.orgId, spaceId), ...space }),
      putNew({ ...TK.board(actor.orgId, boardId), ...board }),
    ],
    [TRACKER_MESSAGES.keyTaken],
  );
  return { space, board };
}

export interface SpacePatch {
  name?: string;
  key?: string;
  description?: string;
  leadId?: string;
  icon?: string;
  color?: SpaceColor;
  archived?: boolean;
  config?: Partial<SpaceConfig>;
}

/**
 * Changes a space (administrators only). A new key gets its pointer in the same transaction as the
 * space; the old key stays the space's (`config.formerKeys`), and no issue is rewritten: issue keys
 * are the space's key and the number, resolved through every key the space has had.
 */
export async function patchSpace(actor: Actor, ref: string, patch: SpacePatch): Promise<Space> {
  const space = await requireSpace(actor, ref);
  if (!permissionsFor(space, actor).administer) throw forbidden(TRACKER_MESSAGES.administer);
  const fields: Record<string, unknown> = { updatedAt: Date.now() };
  for (const f of ['name', 'description', 'leadId', 'icon', 'color'] as const) {
    if (patch[f] !== undefined) fields[f] = patch[f];
  }
  if (patch.archived !== undefined) {
    fields.archived = patch.archived;
    fields.archivedAt = patch.archived ? Date.now() : undefined;
  }
  const config: SpaceConfig = { ...space.config, ...stripUndefined(patch.config ?? {}) };
  if (patch.config?.servicedesk) {
    if (!space.config.servicedesk) throw invalid('Only service spaces have a service desk.');
    config.servicedesk = { ...space.config.servicedesk, ...stripUndefined(patch.config.servicedesk) };
    // A goal's query is checked now (400 with its position), not when an issue first meets it.
    const queries = (patch.config.servicedesk.slas ?? []).flatMap((s) => s.goals.map((g) => g.query?.trim() ?? ''));
    if (queries.some(Boolean)) {
      const [{ compileJql }, { jqlContext }] = await Promise.all([import('./jql'), import('./jql-context')]);
      const ctx = await jqlContext(actor, [space]);
      for (const q of queries) if (q) await compileJql(q, ctx);
    }
  }
  const items: Parameters<typeof transact>[0] = [];
  const failures: (string | undefined)[] = [];
  if (patch.key !== undefined) {
    const key = normalizeKey(patch.key);
    if (key !== space.key) {
      fields.key = key;
      const former = new Set(space.config.formerKeys ?? []);
      former.add(space.key);
      former.delete(key);
      config.formerKeys = [...former];
      const pointer = await getItem<{ spaceId: string }>(TK.spaceKey(actor.orgId, key), true);
      if (pointer && pointer.spaceId !== space.spaceId) throw conflict(TRACKER_MESSAGES.keyTaken);
      if (!pointer) {
        items.push(putNew({ ...TK.spaceKey(actor.orgId, key), spaceId: space.spaceId }));
        failures.push(TRACKER_MESSAGES.keyTaken);
      }
    }
  }
  fields.config = config;
  items.push({ Update: versionedUpdate(TK.space(actor.orgId, space.spaceId), space.version, fields) });
  failures.push('The space changed since it was read. Reload and try again.');
  await transact(items, failures);
  return { ...space, ...(fields as Partial<Space>), config, version: space.version + 1 } as Space;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function spaceVersions(orgId: string, spaceId: string): Promise<Version[]> {
  const items = await queryPrefix<Stored<Version>>(pkOf(orgId), TP.version(spaceId));
  return items.map(strip).sort((a, b) => a.position - b.position);
}

export async function spaceComponents(orgId: string, spaceId: string): Promise<Component[]> {
  const items = await queryPrefix<Stored<Component>>(pkOf(orgId), TP.component(spaceId));
  return items.map(strip).sort((a, b) => (a.name < b.name ? -1 : 1));
}
