import { PREFIXES } from '../../kernel/store/keys';
import { queryPages, queryPrefix } from '../../kernel/store/ops';
import { getMany } from '../../kernel/store/table';
import { canBrowse, canSee } from './access';
import { orgIssues, present, spaceIssues } from './issues';
import { compileJql, type DefaultOrder, type JqlIssue, withinNarrow } from './jql';
import { jqlContext } from './jql-context';
import type { Space, TrackedIssue } from './model';
import type { Actor } from './records';
import { allSpaces } from './spaces';
import { pkOf, spaceIssuesPk, TK, TP } from './store';
import { viewedIssues } from './views';

export { jqlContext };

type Stored<T> = T & { pk: string; sk: string };

export interface SearchInput {
  jql: string;
  startAt: number;
  maxResults: number;
  order?: DefaultOrder;
}

export interface SearchResult {
  issues: TrackedIssue[];
  total: number;
  startAt: number;
  maxResults: number;
  /** Issue records read from the table to answer. */
  scanned: number;
}

/**
 * Runs a JQL query for the actor: the read narrowed by the query's top-level ANDs (issue keys:
 * those issues; spaces: those spaces' index; else the organization's issues), then the whole query,
 * the actor's visibility (permissions and security levels: a hidden issue is neither answered nor
 * counted), the order, the page.
 */
export async function searchIssues(
  actor: Actor,
  input: SearchInput,
  extra?: (i: TrackedIssue) => boolean,
): Promise<SearchResult> {
  if (!extra) {
    const fast = await indexedPage(actor, input);
    if (fast) return fast;
  }
  const { matched, scanned } = await matching(actor, input.jql, input.order, extra);
  return {
    issues: matched.slice(input.startAt, input.startAt + input.maxResults),
    total: matched.length,
    startAt: input.startAt,
    maxResults: input.maxResults,
    scanned,
  };
}

/**
 * The index's own answer to a query that is only a space and statuses, most recently updated
 * first, in a space without security levels (whose every issue its browsers see): `total` from the
 * space's per-status counts (moved in the same transactions as the issues), and only the page read
 * (the first `startAt + maxResults` of each status, merged). Anything else: undefined, and the
 * general path runs.
 */
async function indexedPage(actor: Actor, input: SearchInput): Promise<SearchResult | undefined> {
  if (!input.jql.trim() || input.startAt + input.maxResults > 2_000) return undefined;
  const spaceList = await allSpaces(actor.orgId);
  const ctx = await jqlContext(actor, spaceList);
  const compiled = await compileJql(input.jql, ctx, input.order ? { order: input.order } : {});
  const { spaceIds, statusIds, ...others } = compiled.narrow;
  const spaceId = spaceIds?.size === 1 ? [...spaceIds][0] : undefined;
  if (!spaceId || !statusIds || Object.values(others).some((v) => v !== undefined)) return undefined;
  if (!compiled.fieldsUsed.every((f) => f === 'space' || f === 'status' || f === 'updated')) return undefined;
  if (
    compiled.orderBy.length !== 1 ||
    compiled.orderBy[0]?.field !== 'updated' ||
    compiled.orderBy[0].direction !== 'desc'
  )
    return undefined;
  const space = spaceList.find((s) => s.spaceId === spaceId);
  if (!space || !canBrowse(space, actor) || space.config.securityLevels.length > 0) return undefined;
  const pk = spaceIssuesPk(actor.orgId, space.spaceId);
  const want = input.startAt + input.maxResults;
  const counts = (
    await getMany<{ n?: number }>([...statusIds].map((st) => TK.statusCount(actor.orgId, space.spaceId, st)))
  ).map((c) => c?.n ?? 0);
  const pages = await Promise.all([...statusIds].map((status) => firstOf(pk, `${status}#`, want)));
  const read = pages.flat();
  const issues = read
    .map((i) => present(i, space) as JqlIssue)
    .filter((i) => compiled.matches(i))
    .sort(compiled.compare)
    .slice(input.startAt, want);
  return {
    issues,
    total: counts.reduce((a, b) => a + b, 0),
    startAt: input.startAt,
    maxResults: input.maxResults,
    scanned: read.length,
  };
}

/** The first `n` issues under `prefix`, most recently updated first. */
async function firstOf(pk: string, prefix: string, n: number): Promise<TrackedIssue[]> {
  const items: TrackedIssue[] = [];
  const pages = queryPages<TrackedIssue>(() => ({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': prefix },
    ScanIndexForward: false,
    Limit: n - items.length,
  }));
  for await (const page of pages) {
    items.push(...page.items);
    if (items.length >= n) break;
  }
  return items;
}

/** Every issue the actor sees that `jql` matches, in the query's order. */
export async function matching(
  actor: Actor,
  jql: string | string[],
  order?: DefaultOrder,
  extra?: (i: TrackedIssue) => boolean,
  limitSpaces?: string[],
): Promise<{ matched: TrackedIssue[]; scanned: number; spaces: Map<string, Space> }> {
  const spaceList = await allSpaces(actor.orgId);
  const spaces = new Map(spaceList.map((s) => [s.spaceId, s]));
  const ctx = await jqlContext(actor, spaceList);
  const queries = typeof jql === 'string' ? [jql] : jql.length > 0 ? jql : [''];
  const all = await Promise.all(queries.map((q) => compileJql(q, ctx, order ? { order } : {})));
  const first = all[0] as (typeof all)[number];
  const compiled = {
    narrow: first.narrow,
    fieldsUsed: all.flatMap((c) => c.fieldsUsed),
    matches: (i: JqlIssue) => all.every((c) => c.matches(i)),
    compare: first.compare,
  };
  const narrow = compiled.narrow;
  let read: TrackedIssue[];
  if (narrow.issueIds) {
    const found = await getMany<Stored<TrackedIssue>>([...narrow.issueIds].map((id) => TK.issue(actor.orgId, id)));
    read = found.filter((i): i is Stored<TrackedIssue> => i !== undefined);
  } else {
    let ids = narrow.spaceIds ? [...narrow.spaceIds] : undefined;
    if (limitSpaces) ids = ids ? ids.filter((id) => limitSpaces.includes(id)) : limitSpaces;
    // Within spaces, a status constraint narrows the index read too (its sort key starts with the status).
    const statuses = all.map((c) => c.narrow.statusIds).find((x) => x !== undefined);
    read = ids
      ? (await Promise.all(ids.map((id) => spaceIssues(actor.orgId, id, statuses)))).flat()
      : await orgIssues(actor.orgId);
  }
  const scanned = read.length;
  const needsDescription = compiled.fieldsUsed.some((f) => f === 'description' || f === 'text');
  const needsComments = compiled.fieldsUsed.some((f) => f === 'comment' || f === 'text');
  const viewed = compiled.fieldsUsed.includes('lastViewed')
    ? actor.person
      ? await viewedIssues(actor.orgId, actor.id)
      : new Map<string, number>()
    : undefined;
  const candidates: JqlIssue[] = [];
  for (const raw of read) {
    const space = spaces.get(raw.spaceId);
    if (!space || !canSee(raw, space, actor)) continue;
    if (limitSpaces && !limitSpaces.includes(raw.spaceId)) continue;
    const issue = present(raw, space) as JqlIssue;
    if (!all.every((c) => withinNarrow(c.narrow, issue))) continue;
    if (extra && !extra(issue)) continue;
    const at = viewed?.get(issue.issueId);
    if (at !== undefined) issue.lastViewed = at;
    candidates.push(issue);
  }
  if (needsDescription) {
    const descs = await getMany<{ description: string }>(candidates.map((c) => TK.description(actor.orgId, c.issueId)));
    candidates.forEach((c, i) => {
      c.description = descs[i]?.description ?? '';
    });
  }
  if (needsComments) {
    const bodies = await commentBodies(
      actor.orgId,
      candidates.filter((c) => c.commentCount > 0).map((c) => c.issueId),
    );
    for (const c of candidates) c.commentBodies = bodies.get(c.issueId) ?? [];
  }
  const matched = candidates.filter((c) => compiled.matches(c)).sort(compiled.compare);
  for (const m of matched) {
    delete (m as JqlIssue).description;
    delete (m as JqlIssue).commentBodies;
    delete (m as JqlIssue).lastViewed;
  }
  return { matched, scanned, spaces };
}

/**
 * The comment bodies of these issues: a read of each one's comments when they are few, else one
 * read of the organization's comments (cheaper than hundreds of queries).
 */
async function commentBodies(orgId: string, issueIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (issueIds.length === 0) return out;
  const wanted = new Set(issueIds);
  const lists =
    issueIds.length <= 25
      ? await Promise.all(
          issueIds.map((id) => queryPrefix<Stored<{ issueId: string; body: string }>>(pkOf(orgId), TP.comment(id))),
        )
      : [await queryPrefix<Stored<{ issueId: string; body: string }>>(pkOf(orgId), PREFIXES.tracker.comment)];
  for (const c of lists.flat()) {
    if (!wanted.has(c.issueId)) continue;
    out.set(c.issueId, [...(out.get(c.issueId) ?? []), c.body]);
  }
  return out;
}
