/**
 * The tracker's built-in catalog as the API names it (shared/domains/tracker/catalog.ts: Jira's
 * statuses, issue types, priorities, resolutions, workflows and link types). The API answers ids
 * (`statusId`, `priorityId`, …) and has no route for these names, which never change; the test
 * (test/web/tracker-issues.test.ts) checks this copy against the catalog.
 */
export interface Named {
  id: string;
  name: string;
}

export const STATUSES: (Named & { category: 'todo' | 'inprogress' | 'done' })[] = [
  { id: 'backlog', name: 'Backlog', category: 'todo' },
  { id: 'todo', name: 'To Do', category: 'todo' },
  { id: 'selected', name: 'Selected for Development', category: 'todo' },
  { id: 'open', name: 'Open', category: 'todo' },
  { id: 'reopened', name: 'Reopened', category: 'todo' },
  { id: 'waiting-support', name: 'Waiting for support', category: 'todo' },
  { id: 'inprogress', name: 'In Progress', category: 'inprogress' },
  { id: 'inreview', name: 'In Review', category: 'inprogress' },
  { id: 'waiting-customer', name: 'Waiting for customer', category: 'inprogress' },
  { id: 'done', name: 'Done', category: 'done' },
  { id: 'resolved', name: 'Resolved', category: 'done' },
  { id: 'closed', name: 'Closed', category: 'done' },
];

export const ISSUE_TYPES: Named[] = [
  { id: 'epic', name: 'Epic' },
  { id: 'story', name: 'Story' },
  { id: 'task', name: 'Task' },
  { id: 'bug', name: 'Bug' },
  { id: 'service-request', name: 'Service request' },
  { id: 'incident', name: 'Incident' },
  { id: 'problem', name: 'Problem' },
  { id: 'change', name: 'Change' },
  { id: 'subtask', name: 'Subtask' },
];

export const PRIORITIES: Named[] = [
  { id: 'highest', name: 'Highest' },
  { id: 'high', name: 'High' },
  { id: 'medium', name: 'Medium' },
  { id: 'low', name: 'Low' },
  { id: 'lowest', name: 'Lowest' },
];

export const RESOLUTIONS: Named[] = [
  { id: 'done', name: 'Done' },
  { id: 'wont-do', name: "Won't Do" },
  { id: 'duplicate', name: 'Duplicate' },
  { id: 'cannot-reproduce', name: 'Cannot Reproduce' },
];

/** The statuses of each workflow, in board order (the first is where new issues start). */
export const WORKFLOW_STATUSES: Record<string, string[]> = {
  software: ['todo', 'inprogress', 'inreview', 'done'],
  kanban: ['backlog', 'selected', 'inprogress', 'done'],
  basic: ['todo', 'inprogress', 'done'],
  classic: ['open', 'inprogress', 'resolved', 'reopened', 'closed'],
  service: ['waiting-support', 'waiting-customer', 'inprogress', 'resolved', 'closed'],
};

/** Jira's link types, each with its outward and inward wording (POST …/links `type`). */
export const LINK_TYPES: Record<string, { outward: string; inward: string }> = {
  blocks: { outward: 'blocks', inward: 'is blocked by' },
  relates: { outward: 'relates to', inward: 'relates to' },
  duplicates: { outward: 'duplicates', inward: 'is duplicated by' },
  clones: { outward: 'clones', inward: 'is cloned by' },
};

const byId = (list: Named[]) => new Map(list.map((x) => [x.id, x.name]));
const statusNames = byId(STATUSES);
const typeNames = byId(ISSUE_TYPES);
const priorityNames = byId(PRIORITIES);
const resolutionNames = byId(RESOLUTIONS);

export const statusName = (id: string | undefined) => (id ? (statusNames.get(id) ?? id) : '');
export const typeName = (id: string | undefined) => (id ? (typeNames.get(id) ?? id) : '');
export const priorityName = (id: string | undefined) => (id ? (priorityNames.get(id) ?? id) : '');
export const resolutionName = (id: string | undefined) => (id ? (resolutionNames.get(id) ?? id) : '');

/** Seconds as Jira writes a duration: `1w 2d 3h 30m` (5-day weeks, 8-hour days, as the API reads them). */
export function duration(seconds: number | undefined): string {
  if (!seconds) return '0m';
  const units: [string, number][] = [
    ['w', 5 * 8 * 3600],
    ['d', 8 * 3600],
    ['h', 3600],
    ['m', 60],
  ];
  let left = seconds;
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(`${n}${unit}`);
    left -= n * size;
  }
  return parts.length ? parts.join(' ') : `${seconds}s`;
}
