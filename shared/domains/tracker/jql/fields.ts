import type { HistoryField, TrackedIssue } from '../model';

/**
 * An issue as the evaluator reads it: the stored record, plus its description and its comments'
 * bodies when the query needs them (`description`, `comment`, `text`) and the caller has them, and
 * when the caller last viewed it (`lastViewed`: their issue history).
 */
export type JqlIssue = TrackedIssue & { description?: string; commentBodies?: string[]; lastViewed?: number };

/** What a name in a query is looked up in (JqlContext.resolve). */
export type Catalog =
  | 'status'
  | 'type'
  | 'priority'
  | 'resolution'
  | 'space'
  | 'sprint'
  | 'version'
  | 'component'
  | 'securityLevel'
  | 'requestType'
  | 'person'
  | 'issue';

/** The fields whose top-level AND constraints narrow the read (JqlNarrow). */
export type NarrowKey = 'issueIds' | 'spaceIds' | 'sprintIds' | 'assigneeIds' | 'statusIds';

export type FieldDef =
  /** Values from a catalog (ids), one or several per issue. */
  | {
      name: string;
      kind: 'ids';
      catalog: Catalog;
      get: (i: JqlIssue) => string[];
      narrow?: NarrowKey;
      /** WAS and CHANGED read this history: the status log, or the field's entries of the field log. */
      history?: 'status' | HistoryField;
      /**
       * The catalog is a scale listed highest first (the priority scheme): `>`, `>=`, `<`, `<=`
       * compare by it and ORDER BY … DESC lists the highest first, as in Jira.
       */
      ranked?: true;
    }
  /** The issue's key (its id through the context, and `key > WEB-10` by number within a space). */
  | { name: string; kind: 'key' }
  | { name: string; kind: 'category' }
  | { name: string; kind: 'text'; get: (i: JqlIssue) => (string | undefined)[] }
  /** Epoch ms, or a YYYY-MM-DD day (read in the context's time zone). */
  | { name: string; kind: 'date'; get: (i: JqlIssue) => number | string | undefined }
  | { name: string; kind: 'number'; get: (i: JqlIssue) => number | undefined }
  | { name: string; kind: 'labels'; get: (i: JqlIssue) => string[] }
  | { name: string; kind: 'rank' }
  /** A custom field: `issue.fields[key]`. */
  | { name: string; kind: 'custom'; key: string };

const one = (v: string | undefined) => (v === undefined || v === '' ? [] : [v]);
const count = (n: number) => (n > 0 ? n : undefined);

const SYSTEM: FieldDef[] = [
  { name: 'key', kind: 'key' },
  { name: 'parent', kind: 'ids', catalog: 'issue', get: (i) => one(i.parentId) },
  { name: 'space', kind: 'ids', catalog: 'space', get: (i) => [i.spaceId], narrow: 'spaceIds' },
  { name: 'type', kind: 'ids', catalog: 'type', get: (i) => [i.typeId] },
  { name: 'status', kind: 'ids', catalog: 'status', get: (i) => [i.statusId], narrow: 'statusIds', history: 'status' },
  { name: 'statusCategory', kind: 'category' },
  {
    name: 'priority',
    kind: 'ids',
    catalog: 'priority',
    get: (i) => one(i.priorityId),
    history: 'priority',
    ranked: true,
  },
  { name: 'resolution', kind: 'ids', catalog: 'resolution', get: (i) => one(i.resolutionId), history: 'resolution' },
  {
    name: 'assignee',
    kind: 'ids',
    catalog: 'person',
    get: (i) => one(i.assigneeId),
    narrow: 'assigneeIds',
    history: 'assignee',
  },
  { name: 'reporter', kind: 'ids', catalog: 'person', get: (i) => one(i.reporterId), history: 'reporter' },
  { name: 'creator', kind: 'ids', catalog: 'person', get: (i) => one(i.creatorId) },
  { name: 'watcher', kind: 'ids', catalog: 'person', get: (i) => i.watchers },
  { name: 'voter', kind: 'ids', catalog: 'person', get: (i) => i.voters },
  { name: 'participants', kind: 'ids', catalog: 'person', get: (i) => i.participants },
  { name: 'component', kind: 'ids', catalog: 'component', get: (i) => i.componentIds },
  { name: 'fixVersion', kind: 'ids', catalog: 'version', get: (i) => i.fixVersionIds, history: 'fixVersion' },
  { name: 'affectedVersion', kind: 'ids', catalog: 'version', get: (i) => i.affectsVersionIds },
  {
    name: 'sprint',
    kind: 'ids',
    catalog: 'sprint',
    get: (i) => (i.sprintId ? [i.sprintId, ...i.closedSprintIds] : i.closedSprintIds),
    narrow: 'sprintIds',
  },
  { name: 'level', kind: 'ids', catalog: 'securityLevel', get: (i) => one(i.securityLevelId) },
  { name: 'requestType', kind: 'ids', catalog: 'requestType', get: (i) => one(i.requestTypeId) },
  { name: 'labels', kind: 'labels', get: (i) => i.labels },
  { name: 'summary', kind: 'text', get: (i) => [i.summary] },
  { name: 'description', kind: 'text', get: (i) => [i.description ?? i.excerpt] },
  { name: 'environment', kind: 'text', get: (i) => [i.environment] },
  /** Jira's `comment ~ "…"`: the bodies of the issue's comments. */
  { name: 'comment', kind: 'text', get: (i) => i.commentBodies ?? [] },
  {
    name: 'text',
    kind: 'text',
    get: (i) => [
      i.summary,
      i.description ?? i.excerpt,
      i.environment,
      ...(i.commentBodies ?? []),
      ...Object.values(i.fields).flatMap((v) => (typeof v === 'string' ? [v] : [])),
    ],
  },
  { name: 'created', kind: 'date', get: (i) => i.createdAt },
  { name: 'updated', kind: 'date', get: (i) => i.updatedAt },
  { name: 'resolved', kind: 'date', get: (i) => i.resolvedAt },
  { name: 'statusChanged', kind: 'date', get: (i) => i.statusChangedAt },
  /** When the caller last opened the issue with `remember=1` (their issue history); none: EMPTY. */
  { name: 'lastViewed', kind: 'date', get: (i) => i.lastViewed },
  { name: 'due', kind: 'date', get: (i) => i.dueDate },
  { name: 'startDate', kind: 'date', get: (i) => i.startDate },
  { name: 'storyPoints', kind: 'number', get: (i) => i.storyPoints },
  { name: 'originalEstimate', kind: 'number', get: (i) => i.originalEstimate },
  { name: 'remainingEstimate', kind: 'number', get: (i) => i.remainingEstimate },
  { name: 'timeSpent', kind: 'number', get: (i) => i.timeSpent },
  { name: 'votes', kind: 'number', get: (i) => i.voters.length },
  { name: 'watchers', kind: 'number', get: (i) => i.watchers.length },
  { name: 'attachments', kind: 'number', get: (i) => count(i.attachmentCount) },
  { name: 'comments', kind: 'number', get: (i) => count(i.commentCount) },
  { name: 'satisfaction', kind: 'number', get: (i) => i.satisfaction },
  { name: 'rank', kind: 'rank' },
];

/** Jira's names for the same fields (compared lower case, spaces removed). */
const ALIASES: Record<string, string> = {
  issuekey: 'key',
  id: 'key',
  issue: 'key',
  epiclink: 'parent',
  parentepic: 'parent',
  project: 'space',
  issuetype: 'type',
  assigned: 'assignee',
  watchers: 'watchers',
  requestparticipants: 'participants',
  participant: 'participants',
  components: 'component',
  fixversions: 'fixVersion',
  affectsversion: 'affectedVersion',
  affectedversions: 'affectedVersion',
  affectsversions: 'affectedVersion',
  sprints: 'sprint',
  securitylevel: 'level',
  customerrequesttype: 'requestType',
  label: 'labels',
  createddate: 'created',
  updateddate: 'updated',
  resolutiondate: 'resolved',
  statuscategorychangeddate: 'statusChanged',
  duedate: 'due',
  storypoint: 'storyPoints',
  storypointestimate: 'storyPoints',
  timeoriginalestimate: 'originalEstimate',
  timeestimate: 'remainingEstimate',
  attachment: 'attachments',
  vote: 'votes',
};

/** Lower case, spaces and underscores dropped: `"Story Points"`, `story_points` and `storyPoints` meet. */
export function fieldKey(name: string): string {
  let out = '';
  for (const c of name.toLowerCase()) if (c !== ' ' && c !== '_' && c !== '-') out += c;
  return out;
}

const BY_KEY = new Map<string, FieldDef>();
for (const def of SYSTEM) BY_KEY.set(fieldKey(def.name), def);
for (const [alias, name] of Object.entries(ALIASES)) BY_KEY.set(alias, BY_KEY.get(fieldKey(name))!);

/** A system field by any of its names, or undefined. */
export function systemField(name: string): FieldDef | undefined {
  return BY_KEY.get(fieldKey(name));
}

/** The canonical names of the system fields (for documentation and tests). */
export const SYSTEM_FIELDS = SYSTEM.map((f) => f.name);
