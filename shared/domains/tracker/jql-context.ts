import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix } from '../../kernel/store/ops';
import { ISSUE_TYPES, PRIORITIES, RESOLUTIONS, STATUSES } from './catalog';
import { type CatalogInput, catalogContext, type JqlContext } from './jql';
import { findIssue, membersOf, type Stored } from './lookups';
import type { Component, Space, Sprint, Version } from './model';
import type { Actor } from './records';
import { pkOf, TP } from './store';
import { viewedIssues } from './views';

/** What a query's names mean in the actor's organization (catalogs read once per request). */
export async function jqlContext(actor: Actor, spaces: Space[]): Promise<JqlContext> {
  const orgId = actor.orgId;
  const [members, sprints, versions, components] = await Promise.all([
    membersOf(orgId),
    queryPrefix<Stored<Sprint>>(pkOf(orgId), TP.sprint),
    queryPrefix<Stored<Version>>(pkOf(orgId), PREFIXES.tracker.version),
    queryPrefix<Stored<Component>>(pkOf(orgId), PREFIXES.tracker.component),
  ]);
  const keyOf = new Map(spaces.map((s) => [s.spaceId, s.key]));
  const catalogs: CatalogInput['catalogs'] = {
    status: STATUSES.map((s, i) => ({ id: s.id, names: [s.name], sort: i })),
    type: ISSUE_TYPES.map((t) => ({ id: t.id, names: [t.name] })),
    priority: PRIORITIES.map((p, i) => ({ id: p.id, names: [p.name], sort: i })),
    resolution: RESOLUTIONS.map((r) => ({ id: r.id, names: [r.name] })),
    space: spaces.map((s) => ({ id: s.spaceId, names: [s.key, ...(s.config.formerKeys ?? []), s.name], sort: s.key })),
    sprint: sprints.map((s) => ({ id: s.sprintId, names: [s.name], sort: s.position })),
    version: versions.map((v) => ({ id: v.versionId, names: [v.name], sort: v.position })),
    component: components.map((c) => ({ id: c.componentId, names: [c.name], sort: c.name })),
    securityLevel: spaces.flatMap((s) => s.config.securityLevels.map((l) => ({ id: l.id, names: [l.name] }))),
    requestType: spaces.flatMap((s) =>
      (s.config.servicedesk?.requestTypes ?? []).map((r) => ({ id: r.id, names: [r.name] })),
    ),
    person: members.map((m) => ({
      id: m.userId,
      names: [m.email ?? '', m.name ?? ''].filter(Boolean),
      sort: m.name ?? m.email ?? m.userId,
    })),
  };
  const base = catalogContext({
    now: Date.now(),
    ...(actor.person ? { currentUser: actor.id } : {}),
    catalogs,
    sprints,
    versions: versions.map((v) => ({ id: v.versionId, released: v.released, space: keyOf.get(v.spaceId) })),
  });
  let history: Promise<Map<string, number>> | undefined;
  return {
    ...base,
    issueHistory: async () => {
      if (!actor.person) return [];
      history ??= viewedIssues(orgId, actor.id);
      return [...(await history).keys()];
    },
    resolve: async (catalog, value) => {
      if (catalog !== 'issue') return base.resolve(catalog, value);
      const issue = await findIssue(orgId, value);
      return issue ? [issue.issueId] : [];
    },
  };
}
