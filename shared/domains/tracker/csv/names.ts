import type { ImportRecord } from './types';

/** The catalog values and people a page of records names, each once: what the caller resolves or creates. */
export interface CatalogNames {
  types: string[];
  statuses: string[];
  priorities: string[];
  resolutions: string[];
  securityLevels: string[];
  components: string[];
  versions: string[];
  sprints: string[];
  requestTypes: string[];
  people: string[];
}

export function catalogNames(records: ImportRecord[]): CatalogNames {
  const sets = {
    types: new Set<string>(),
    statuses: new Set<string>(),
    priorities: new Set<string>(),
    resolutions: new Set<string>(),
    securityLevels: new Set<string>(),
    components: new Set<string>(),
    versions: new Set<string>(),
    sprints: new Set<string>(),
    requestTypes: new Set<string>(),
    people: new Set<string>(),
  };
  const add = (set: Set<string>, ...values: (string | null | undefined)[]) => {
    for (const v of values) if (v) set.add(v);
  };
  for (const r of records) {
    const i = r.input;
    add(sets.statuses, r.status);
    add(sets.sprints, ...r.sprints);
    add(sets.people, r.creator, ...r.watchers, ...r.comments.map((c) => c.author));
    if (!i) continue;
    add(sets.types, i.type);
    add(sets.priorities, i.priority);
    add(sets.resolutions, i.resolution);
    add(sets.securityLevels, i.securityLevel);
    add(sets.components, ...(i.components ?? []));
    add(sets.versions, ...(i.fixVersions ?? []), ...(i.affectsVersions ?? []));
    add(sets.requestTypes, i.requestType);
    add(sets.people, i.assignee, i.reporter, ...(i.participants ?? []));
  }
  return Object.fromEntries(Object.entries(sets).map(([k, s]) => [k, [...s]])) as unknown as CatalogNames;
}
