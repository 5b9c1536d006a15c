import { conflict, forbidden, invalid, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { QueryCommand, TransactWriteCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { queryAll, queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, TABLE, versionedUpdate } from '../../kernel/store/table';
import { canEdit, canSee, permissionsFor } from './access';
import {
  DEFAULT_PRIORITY,
  findNamed,
  ISSUE_TYPES,
  PRIORITIES,
  RESOLUTIONS,
  statusById,
  typeById,
  workflowOf,
} from './catalog';
import { allSpaces, findIssue, findSpace, getIssue, membersOf, type Stored, strip } from './lookups';
import {
  type FieldLogEntry,
  type FieldValue,
  HISTORY_FIELDS,
  type HistoryField,
  MAX_FIELD_LOG,
  type Space,
  type Sprint,
  type TrackedIssue,
} from './model';
import { rankAfter } from './rank';
import { type Actor, TRACKER_MESSAGES } from './records';
import { spaceComponents, spaceVersions } from './spaces';
import { countBy, pkOf, spaceIssuesPk, spaceIssuesSk, TK, TP, takeNumber } from './store';
import { Turns } from './turns';

export { findIssue, getIssue, membersOf };

/** The fields of an issue a request may set (POST /issues, bulk edit): catalog values by name or id. */
export interface IssueInput {
  summary?: string;
  type?: string;
  description?: string;
  priority?: string | null;
  securityLevel?: string | null;
  resolution?: string | null;
  assignee?: string | null;
  reporter?: string | null;
  labels?: string[];
  components?: string[];
  fixVersions?: string[];
  affectsVersions?: string[];
  dueDate?: string | null;
  startDate?: string | null;
  storyPoints?: number | null;
  originalEstimate?: number | string | null;
  remainingEstimate?: number | string | null;
  environment?: string | null;
  parent?: string | null;
  sprint?: string | null;
  fields?: Record<string, unknown>;
  requestType?: string;
  participants?: string[];
}

/** An issue's key: its space's current key and its number (a renamed space rewrites no issue). */
export const keyOf = (space: Pick<Space, 'key'>, issue: Pick<TrackedIssue, 'number'>) => `${space.key}-${issue.number}`;

/**
 * The SLA module (Temporal), loaded by the first service-space issue that needs it: the other
 * spaces' requests never load it.
 */
export const slaModule = () => import('./sla');

/** An issue as the API answers it: the stored record with its current key. */
export function present(issue: TrackedIssue, space: Pick<Space, 'key'> | undefined): TrackedIssue {
  const { pk: _p, sk: _s, gsi1pk: _g1, gsi1sk: _g2, ...rest } = issue as Stored<TrackedIssue> & Record<string, unknown>;
  return { ...(rest as unknown as TrackedIssue), key: space ? keyOf(space, issue) : issue.key };
}

/** An issue of a service space with its SLA clocks as of now (running time counted; past a goal: breached). */
export async function withLiveSla(issue: TrackedIssue, space: Space): Promise<TrackedIssue> {
  if (!space.config.servicedesk || Object.keys(issue.sla ?? {}).length === 0) return issue;
  const { elapsedAt } = await slaModule();
  const now = Date.now();
  const sla = Object.fromEntries(
    Object.entries(issue.sla).map(([id, c]) => {
      const elapsed = elapsedAt(space, c, now);
      return [id, { ...c, elapsed, ...(c.goal !== undefined && elapsed > c.goal ? { breached: true } : {}) }];
    }),
  );
  return { ...issue, sla };
}

/** An issue the actor may see, with its space; else 404 (a hidden issue looks like no issue). */
export async function requireIssue(
  actor: Actor,
  ref: string,
  consistent = false,
): Promise<{ issue: TrackedIssue; space: Space }> {
  const issue = await findIssue(actor.orgId, ref, consistent);
  const space = issue ? await findSpace(actor.orgId, issue.spaceId) : undefined;
  if (!issue || !space || !canSee(issue, space, actor)) throw notFound(TRACKER_MESSAGES.issueNotFound);
  return { issue, space };
}

/** A space's issues (GSI1): every one of them, or those in `statusIds` only (one Query per status). */
export async function spaceIssues(
  orgId: string,
  spaceId: string,
  statusIds?: Iterable<string>,
): Promise<TrackedIssue[]> {
  const pk = spaceIssuesPk(orgId, spaceId);
  const read = (status?: string) =>
    queryAll<Stored<TrackedIssue>>({
      IndexName: 'gsi1',
      KeyConditionExpression: status ? 'gsi1pk = :pk AND begins_with(gsi1sk, :s)' : 'gsi1pk = :pk',
      ExpressionAttributeValues: status ? { ':pk': pk, ':s': `${status}#` } : { ':pk': pk },
    });
  const items = statusIds ? (await Promise.all([...statusIds].map((s) => read(s)))).flat() : await read();
  return items.map((i) => strip(i) as TrackedIssue);
}

/** Every issue of the organization. */
export async function orgIssues(orgId: string): Promise<TrackedIssue[]> {
  return (await queryPrefix<Stored<TrackedIssue>>(pkOf(orgId), TP.issue)).map((i) => strip(i) as TrackedIssue);
}

/** The organization's members, by id and by email. */

/** Seconds from a number or Jira's duration text (`1w 2d 3h 30m`; a week is 5 days, a day 8 hours). */
export function parseEstimate(value: number | string, field: string): number {
  if (typeof value === 'number') return value;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const units: Record<string, number> = { w: 5 * 8 * 3600, d: 8 * 3600, h: 3600, m: 60, s: 1 };
  let total = 0;
  const parts = text.split(/\s+/);
  for (const part of parts) {
    const m = /^(\d+(?:\.\d+)?)([wdhms])$/.exec(part);
    if (!m) throw invalid(`${field} takes seconds or a duration such as 1w 2d 3h 30m.`);
    total += Number(m[1]) * (units[m[2] as string] as number);
  }
  const seconds = Math.round(total);
  if (seconds > 315_360_000) throw invalid(`${field} can be at most 315360000 seconds.`);
  return seconds;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
function checkDate(value: string, field: string): string {
  if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    throw invalid(`${field} takes a date as YYYY-MM-DD.`);
  return value;
}

function checkFieldValue(name: string, value: unknown): FieldValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  if (typeof value === 'object' && value && typeof (value as { parent?: unknown }).parent === 'string') {
    const v = value as { parent: string; child?: unknown };
    if (v.child === undefined || typeof v.child === 'string')
      return v.child === undefined ? { parent: v.parent } : { parent: v.parent, child: v.child };
  }
  throw invalid(`Field ${name} takes a boolean, null, a string, a number, a list of strings or {parent, child}.`);
}

/** Resolves catalog names, people and references of `input` against `space`: the record fields it sets. */
export async function resolveInput(
  actor: Actor,
  space: Space,
  input: IssueInput,
  current?: TrackedIssue,
): Promise<{ fields: Partial<TrackedIssue>; description?: string }> {
  const out: Partial<TrackedIssue> = {};
  const orgId = actor.orgId;
  if (input.summary !== undefined) out.summary = input.summary;
  if (input.type !== undefined) {
    const type = findNamed(
      ISSUE_TYPES.filter((t) => space.config.issueTypeIds.includes(t.id)),
      input.type,
    );
    if (!type) throw invalid(`Unknown issue type: ${input.type}`);
    out.typeId = type.id;
  }
  if (input.priority !== undefined) {
    if (input.priority === null) out.priorityId = undefined;
    else {
      const p = findNamed(PRIORITIES, input.priority);
      if (!p) throw invalid(`Unknown priority: ${input.priority}`);
      out.priorityId = p.id;
    }
  }
  if (input.resolution !== undefined) {
    if (input.resolution === null) {
      out.resolutionId = undefined;
      out.resolvedAt = undefined;
    } else {
      const r = findNamed(RESOLUTIONS, input.resolution);
      if (!r) throw invalid(`Unknown resolution: ${input.resolution}`);
      out.resolutionId = r.id;
      if (!current?.resolutionId) out.resolvedAt = Date.now();
    }
  }
  if (input.securityLevel !== undefined) {
    if (input.securityLevel === null) out.securityLevelId = undefined;
    else {
      const l = findNamed(space.config.securityLevels, input.securityLevel);
      if (!l) throw invalid(`Unknown security level: ${input.securityLevel}`);
      out.securityLevelId = l.id;
    }
  }
  const people = [input.assignee, input.reporter, ...(input.participants ?? [])].some((v) => typeof v === 'string')
    ? await membersOf(orgId)
    : [];
  const person = (value: string, field: string) => {
    const v = value.trim().toLowerCase();
    const m = people.find((p) => p.userId === value || p.email?.toLowerCase() === v);
    if (!m) throw invalid(`Unknown person in ${field}: ${value}`);
    return m.userId;
  };
  if (input.assignee !== undefined)
    out.assigneeId = input.assignee === null ? undefined : person(input.assignee, 'assignee');
  if (input.reporter !== undefined)
    out.reporterId = input.reporter === null ? undefined : person(input.reporter, 'reporter');
  if (input.participants !== undefined)
    out.participants = [...new Set(input.participants.map((p) => person(p, 'participants')))];
  if (input.labels !== undefined) {
    for (const l of input.labels) if (/\s/.test(l) || l === '') throw invalid(`Labels can't contain spaces: ${l}`);
    out.labels = [...new Set(input.labels)];
  }
  if (input.components !== undefined) {
    const all = await spaceComponents(orgId, space.spaceId);
    out.componentIds = input.components.map((c) => {
      const found =
        all.find((x) => x.componentId === c) ?? all.find((x) => x.name.toLowerCase() === c.trim().toLowerCase());
      if (!found) throw invalid(`Unknown component: ${c}`);
      return found.componentId;
    });
  }
  if (input.fixVersions !== undefined || input.affectsVersions !== undefined) {
    const all = await spaceVersions(orgId, space.spaceId);
    const pick = (list: string[]) =>
      list.map((c) => {
        const found =
          all.find((x) => x.versionId === c) ?? all.find((x) => x.name.toLowerCase() === c.trim().toLowerCase());
        if (!found) throw invalid(`Unknown version: ${c}`);
        return found.versionId;
      });
    if (input.fixVersions !== undefined) out.fixVersionIds = pick(input.fixVersions);
    if (input.affectsVersions !== undefined) out.affectsVersionIds = pick(input.affectsVersions);
  }
  if (input.dueDate !== undefined)
    out.dueDate = input.dueDate === null ? undefined : checkDate(input.dueDate, 'dueDate');
  if (input.startDate !== undefined)
    out.startDate = input.startDate === null ? undefined : checkDate(input.startDate, 'startDate');
  if (input.storyPoints !== undefined) out.storyPoints = input.storyPoints ?? undefined;
  if (input.originalEstimate !== undefined)
    out.originalEstimate =
      input.originalEstimate === null ? undefined : parseEstimate(input.originalEstimate, 'originalEstimate');
  if (input.remainingEstimate !== undefined)
    out.remainingEstimate =
      input.remainingEstimate === null ? undefined : parseEstimate(input.remainingEstimate, 'remainingEstimate');
  if (input.environment !== undefined) out.environment = input.environment ?? undefined;
  if (input.requestType !== undefined) {
    const rt = space.config.servicedesk?.requestTypes.find(
      (r) => r.id === input.requestType || r.name.toLowerCase() === input.requestType?.toLowerCase(),
    );
    if (!rt) throw invalid(`Unknown request type: ${input.requestType}`);
    out.requestTypeId = rt.id;
    if (input.type === undefined && !current) out.typeId = rt.typeId;
  }
  if (input.fields !== undefined) {
    const fields: Record<string, FieldValue> = { ...(current?.fields ?? {}) };
    for (const [name, value] of Object.entries(input.fields)) fields[name] = checkFieldValue(name, value);
    out.fields = fields;
  }
  const typeId = out.typeId ?? current?.typeId ?? space.config.defaultTypeId;
  const level = typeById(typeId)?.level ?? 0;
  if (input.parent !== undefined) {
    if (input.parent === null) out.parentId = undefined;
    else {
      const parent = await findIssue(orgId, input.parent);
      const parentSpace = parent ? await findSpace(orgId, parent.spaceId) : undefined;
      if (!parent || !parentSpace || !canSee(parent, parentSpace, actor))
        throw invalid(`Unknown parent issue: ${input.parent}`);
      const parentLevel = typeById(parent.typeId)?.level ?? 0;
      if (parentLevel !== level + 1 || parent.issueId === current?.issueId) throw invalid(TRACKER_MESSAGES.badParent);
      out.parentId = parent.issueId;
    }
  }
  const parentId = 'parentId' in out ? out.parentId : current?.parentId;
  if (level === -1 && !parentId) throw invalid(TRACKER_MESSAGES.subtaskParent);
  if (input.sprint !== undefined) {
    if (input.sprint === null) out.sprintId = undefined;
    else {
      const sprints = await queryPrefix<Stored<Sprint>>(pkOf(orgId), TP.sprint);
      const s =
        sprints.find((x) => x.sprintId === input.sprint) ??
        sprints.find((x) => x.state !== 'closed' && x.name.toLowerCase() === input.sprint?.trim().toLowerCase());
      if (!s || s.state === 'closed') throw invalid(`Unknown or closed sprint: ${input.sprint}`);
      out.sprintId = s.sprintId;
    }
  }
  const result: { fields: Partial<TrackedIssue>; description?: string } = { fields: out };
  if (input.description !== undefined) {
    result.description = input.description;
    out.excerpt = excerptOf(input.description);
  }
  return result;
}

export const excerptOf = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 200);

/**
 * Creates an issue: its number from the space's counter and its rank after the organization's
 * last, both moved in the issue's own transaction (a concurrent create retries with the next
 * number, so parallel creates get 1, 2, 3, … without gaps).
 */
export async function createIssue(
  actor: Actor,
  spaceRef: string,
  input: IssueInput & { summary: string },
  options: CreateOptions = {},
): Promise<{ issue: TrackedIssue; space: Space; existing?: boolean }> {
  const found = await findSpace(actor.orgId, spaceRef);
  if (!found || !permissionsFor(found, actor).browse) throw notFound(TRACKER_MESSAGES.spaceNotFound);
  if (!permissionsFor(found, actor).create) throw forbidden(TRACKER_MESSAGES.cannotCreate);
  if (found.archived) throw invalid(TRACKER_MESSAGES.archived);
  const { fields, description } = await resolveInput(actor, found, input);
  const made = await creates.run(actor.orgId, () =>
    commitNew(actor, found, input.summary, { ...fields, ...(options.overrides ?? {}) }, description, options.marker),
  );
  if (!made.existing && found.config.servicedesk) await (await slaModule()).syncSlaTimers(found, made.issue);
  return made;
}

/**
 * Import's extras: `overrides` (status, dates, people the file names) over the created record, and
 * a `marker` key put in the same transaction: when it exists already, the issue it names is
 * answered instead (`existing`), so the same import call sent twice creates nothing twice.
 */
export interface CreateOptions {
  overrides?: Partial<TrackedIssue>;
  marker?: { pk: string; sk: string };
}

/** An organization's creates in this instance, one at a time (./turns.ts). */
const creates = new Turns();

async function commitNew(
  actor: Actor,
  found: Space,
  summary: string,
  fields: Partial<TrackedIssue>,
  description: string | undefined,
  marker?: { pk: string; sk: string },
): Promise<{ issue: TrackedIssue; space: Space; existing?: boolean }> {
  const typeId = fields.typeId ?? found.config.defaultTypeId;
  const workflow = workflowOf(found.config, typeId);
  const statusId = workflow.statuses[0] as string;
  const orgId = actor.orgId;
  for (let attempt = 0; ; attempt++) {
    const [space, meta] = await Promise.all([
      findSpaceConsistent(orgId, found.spaceId),
      getItem<{ lastRank?: string }>(TK.meta(orgId), true),
    ]);
    const now = Date.now();
    const issueId = newId('iss_', now);
    // The space's next number, taken in the transaction below.
    const taken = takeNumber(orgId, space, issueId);
    const { number } = taken;
    const rank = rankAfter(meta?.lastRank ?? null);
    const issue: TrackedIssue = {
      orgId,
      issueId,
      spaceId: space.spaceId,
      number,
      key: `${space.key}-${number}`,
      typeId,
      summary,
      statusId,
      statusCategory: statusById(statusId)?.category ?? 'todo',
      statusChangedAt: now,
      priorityId: DEFAULT_PRIORITY,
      reporterId: actor.id,
      creatorId: actor.id,
      labels: [],
      componentIds: [],
      fixVersionIds: [],
      affectsVersionIds: [],
      closedSprintIds: [],
      rank,
      watchers: actor.person ? [actor.id] : [],
      voters: [],
      fields: {},
      excerpt: '',
      statusLog: [[statusId, now, actor.id]],
      commentCount: 0,
      attachmentCount: 0,
      participants: [],
      sla: space.config.servicedesk
        ? (await slaModule()).startClocks(space, (fields.statusId as string | undefined) ?? statusId, now)
        : {},
      version: 1,
      createdAt: now,
      updatedAt: now,
      ...(space.config.defaultAssignee === 'lead' && space.leadId ? { assigneeId: space.leadId } : {}),
      ...(space.config.defaultSecurityLevelId ? { securityLevelId: space.config.defaultSecurityLevelId } : {}),
      ...fields,
    };
    for (const [k, v] of Object.entries(issue))
      if (v === undefined) delete (issue as unknown as Record<string, unknown>)[k];
    // Each SLA's goal as its goals' queries pick it for this issue (first match), in the same write.
    if (space.config.servicedesk) {
      const goals = await (await slaModule()).clocksWithGoals(actor, space, present(issue, space));
      if (goals) issue.sla = goals;
    }
    const items: Parameters<typeof transact>[0] = [
      taken.sequence,
      {
        Put: {
          TableName: TABLE(),
          Item: { ...TK.meta(orgId), lastRank: rank },
          ...(meta?.lastRank
            ? { ConditionExpression: 'lastRank = :last', ExpressionAttributeValues: { ':last': meta.lastRank } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        },
      },
      {
        Put: {
          TableName: TABLE(),
          Item: {
            ...TK.issue(orgId, issueId),
            gsi1pk: spaceIssuesPk(orgId, space.spaceId),
            gsi1sk: spaceIssuesSk(issue.statusId, issue.updatedAt, issueId),
            ...issue,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      taken.pointer,
      countBy(orgId, space.spaceId, issue.statusId, 1),
    ];
    if (description)
      items.push({ Put: { TableName: TABLE(), Item: { ...TK.description(orgId, issueId), description } } });
    if (marker) {
      const made = await getItem<{ issueId: string }>(marker, true);
      const before = made ? await getIssue(orgId, made.issueId, true) : undefined;
      if (before) return { issue: present(before, space), space, existing: true };
      items.push({
        Put: { TableName: TABLE(), Item: { ...marker, issueId }, ConditionExpression: 'attribute_not_exists(pk)' },
      });
    }
    try {
      // Not transact(): a cancelled attempt is read again at once, never resent as it was.
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return { issue: present(issue, space), space };
    } catch (err) {
      if ((err as Error).name !== 'TransactionCanceledException' || attempt >= 300) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 * (attempt + 1))));
    }
  }
}

async function findSpaceConsistent(orgId: string, spaceId: string): Promise<Space> {
  const item = await getItem<Stored<Space>>(TK.space(orgId, spaceId), true);
  if (!item) throw notFound(TRACKER_MESSAGES.spaceNotFound);
  return strip(item);
}

/** Whether two stored values are the same (arrays and objects by content). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Writes the fields of `change` that differ from `issue` (and nothing else), on the condition that
 * the issue is still at the version read (else 409). Returns the issue as written.
 */
export async function writeChanges(
  orgId: string,
  issue: TrackedIssue,
  change: Partial<TrackedIssue>,
  description?: string,
  by?: string,
): Promise<TrackedIssue> {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(change)) {
    if (!same((issue as unknown as Record<string, unknown>)[k], v)) fields[k] = v;
  }
  if (Object.keys(fields).length === 0 && description === undefined) return issue;
  const now = Date.now();
  const logged = fieldChanges(issue, fields, now, by);
  if (logged.length > 0) fields.fieldLog = [...(issue.fieldLog ?? []), ...logged].slice(-MAX_FIELD_LOG);
  fields.updatedAt = now;
  fields.gsi1sk = spaceIssuesSk((fields.statusId as string | undefined) ?? issue.statusId, now, issue.issueId);
  const items: Parameters<typeof transact>[0] = [
    { Update: versionedUpdate(TK.issue(orgId, issue.issueId), issue.version, fields) },
  ];
  if (typeof fields.statusId === 'string' && fields.statusId !== issue.statusId)
    items.push(countBy(orgId, issue.spaceId, issue.statusId, -1), countBy(orgId, issue.spaceId, fields.statusId, 1));
  if (description !== undefined)
    items.push({ Put: { TableName: TABLE(), Item: { ...TK.description(orgId, issue.issueId), description } } });
  await transact(items, [TRACKER_MESSAGES.issueChanged]);
  const next = { ...issue, ...fields, version: issue.version + 1 } as TrackedIssue;
  for (const [k, v] of Object.entries(fields))
    if (v === undefined) delete (next as unknown as Record<string, unknown>)[k];
  return next;
}

/** The history entries of the HISTORY_FIELDS among `fields` (those that changed). */
function fieldChanges(issue: TrackedIssue, fields: Record<string, unknown>, at: number, by?: string): FieldLogEntry[] {
  const values = (v: unknown) => (Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : []);
  const out: FieldLogEntry[] = [];
  for (const [field, prop] of Object.entries(HISTORY_FIELDS) as [HistoryField, keyof TrackedIssue][]) {
    if (!(prop in fields)) continue;
    const before = values(issue[prop]);
    const after = values(fields[prop]);
    out.push(by ? [field, before, after, at, by] : [field, before, after, at]);
  }
  return out;
}

/** The status change of a transition: status, category, log (with who made it), resolution. */
export function statusChange(issue: TrackedIssue, to: string, now = Date.now(), by?: string): Partial<TrackedIssue> {
  const category = statusById(to)?.category ?? 'todo';
  const change: Partial<TrackedIssue> = {
    statusId: to,
    statusCategory: category,
    statusChangedAt: now,
    statusLog: [...issue.statusLog, by ? [to, now, by] : [to, now]],
  };
  if (category === 'done' && !issue.resolutionId) {
    change.resolutionId = 'done';
    change.resolvedAt = now;
  }
  if (category !== 'done' && issue.resolutionId) {
    change.resolutionId = undefined;
    change.resolvedAt = undefined;
  }
  return change;
}

/** Edits an issue the actor may edit: the fields given, resolved against its space. */
export async function editIssue(actor: Actor, ref: string, input: IssueInput): Promise<TrackedIssue> {
  const { issue, space } = await requireIssue(actor, ref, true);
  if (!canEdit(issue, space, actor)) throw forbidden(TRACKER_MESSAGES.cannotEdit);
  const { fields, description } = await resolveInput(actor, space, input, issue);
  if (fields.typeId && fields.typeId !== issue.typeId) {
    const wf = workflowOf(space.config, fields.typeId);
    if (!wf.statuses.includes(issue.statusId))
      Object.assign(fields, statusChange(issue, wf.statuses[0] as string, Date.now(), actor.id));
  }
  // An SLA goal picked by a query (`priority = Highest`) follows the fields it reads, as in Jira.
  const goals = await goalsAfter(actor, space, issue, fields);
  if (goals) fields.sla = goals;
  const written = await writeChanges(actor.orgId, issue, fields, description, actor.id);
  if (goals) await (await slaModule()).syncSlaTimers(space, written);
  return present(written, space);
}

/** In a service space, the SLA clocks whose goals a change moves (their goals' queries), else undefined. */
export async function goalsAfter(
  actor: Actor,
  space: Space,
  issue: TrackedIssue,
  change: Partial<TrackedIssue>,
): Promise<TrackedIssue['sla'] | undefined> {
  if (!space.config.servicedesk) return undefined;
  const after = present({ ...issue, ...change } as TrackedIssue, space);
  return (await slaModule()).clocksWithGoals(actor, space, after);
}

export async function descriptionOf(orgId: string, issueId: string): Promise<string> {
  return (await getItem<{ description: string }>(TK.description(orgId, issueId)))?.description ?? '';
}

/** Children of an issue (subtasks, or an epic's issues), in rank order. */
export async function childrenOf(orgId: string, issue: TrackedIssue): Promise<TrackedIssue[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'parentId = :id',
      ExpressionAttributeValues: { ':pk': spaceIssuesPk(orgId, issue.spaceId), ':id': issue.issueId },
    }),
  );
  return ((out.Items ?? []) as Stored<TrackedIssue>[])
    .map((i) => strip(i) as TrackedIssue)
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
}

/** Keys of the organization's spaces, by id: issue keys follow renames. */
export async function spaceKeys(orgId: string): Promise<Map<string, Space>> {
  return new Map((await allSpaces(orgId)).map((s) => [s.spaceId, s]));
}

export { conflict };
