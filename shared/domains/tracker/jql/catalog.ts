import type { Sprint, SprintState } from '../model';
import type { JqlContext } from './compile';
import type { Catalog } from './fields';
import { fold } from './text';

/** One catalog entry: its id and the names it answers to (compared blind to case and accents). */
export interface Named {
  id: string;
  names: string[];
  /** ORDER BY position (a status's place in its workflow, a priority's in the scheme, highest first); default: list order. */
  sort?: string | number;
}

/**
 * Everything a context needs, already loaded: the caller reads the organization's catalogs once
 * and gets a JqlContext that answers from memory (the tests use it too).
 */
export interface CatalogInput {
  now: number;
  timeZone?: string;
  currentUser?: string;
  catalogs: Partial<Record<Catalog, Named[]>>;
  groups?: Record<string, string[]>;
  sprints?: Pick<Sprint, 'sprintId' | 'state'>[];
  versions?: { id: string; released: boolean; space?: string }[];
  /** Custom fields: the `issue.fields` key and its names (`cf[10010]` included if it has one). */
  customFields?: Named[];
}

export function catalogContext(input: CatalogInput): JqlContext {
  const index = new Map<Catalog, Map<string, string[]>>();
  const sorts = new Map<Catalog, Map<string, string | number>>();
  for (const [catalog, entries] of Object.entries(input.catalogs) as [Catalog, Named[]][]) {
    const byName = new Map<string, string[]>();
    const sort = new Map<string, string | number>();
    entries.forEach((entry, position) => {
      for (const name of [entry.id, ...entry.names]) {
        const key = fold(name);
        const ids = byName.get(key) ?? [];
        if (!ids.includes(entry.id)) ids.push(entry.id);
        byName.set(key, ids);
      }
      sort.set(entry.id, entry.sort ?? position);
    });
    index.set(catalog, byName);
    sorts.set(catalog, sort);
  }
  const fields = new Map<string, string>();
  for (const f of input.customFields ?? []) for (const name of [f.id, ...f.names]) fields.set(fold(name), f.id);
  const groups = new Map(Object.entries(input.groups ?? {}).map(([name, ids]) => [fold(name), ids]));

  return {
    now: input.now,
    timeZone: input.timeZone,
    currentUser: input.currentUser,
    resolve: (catalog, value) => index.get(catalog)?.get(fold(value)) ?? [],
    membersOf: (group) => groups.get(fold(group)),
    sprints: (state: SprintState) => (input.sprints ?? []).filter((s) => s.state === state).map((s) => s.sprintId),
    versions: (released, space) =>
      (input.versions ?? [])
        .filter((v) => v.released === released && (space === undefined || fold(v.space ?? '') === fold(space)))
        .map((v) => v.id),
    customField: (name) => fields.get(fold(name)),
    sortValue: (catalog, id) => sorts.get(catalog)?.get(id),
  };
}
