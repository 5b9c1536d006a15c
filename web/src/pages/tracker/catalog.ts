/**
 * The names of the tracker's built-in catalog (shared/domains/tracker/catalog.ts): the API answers
 * ids (short slugs), the pages show names. An id not listed shows as itself.
 */
const STATUSES: Record<string, string> = {
  backlog: 'Backlog',
  todo: 'To Do',
  selected: 'Selected for Development',
  open: 'Open',
  reopened: 'Reopened',
  'waiting-support': 'Waiting for support',
  inprogress: 'In Progress',
  inreview: 'In Review',
  'waiting-customer': 'Waiting for customer',
  done: 'Done',
  resolved: 'Resolved',
  closed: 'Closed',
};

const TYPES: Record<string, string> = {
  epic: 'Epic',
  story: 'Story',
  task: 'Task',
  bug: 'Bug',
  'service-request': 'Service request',
  incident: 'Incident',
  problem: 'Problem',
  change: 'Change',
  subtask: 'Subtask',
};

export const PRIORITIES = ['highest', 'high', 'medium', 'low', 'lowest'] as const;
const PRIORITY_NAMES: Record<string, string> = {
  highest: 'Highest',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  lowest: 'Lowest',
};

export const RESOLUTIONS = [
  { id: 'done', label: 'Done' },
  { id: 'wont-do', label: "Won't Do" },
  { id: 'duplicate', label: 'Duplicate' },
  { id: 'cannot-reproduce', label: 'Cannot Reproduce' },
];

export const TEMPLATES = [
  { id: 'scrum', label: 'Scrum (sprints, backlog)' },
  { id: 'kanban', label: 'Kanban (continuous flow)' },
  { id: 'basic', label: 'Basic (To Do, In Progress, Done)' },
  { id: 'bugs', label: 'Bug tracking (Jira workflow)' },
  { id: 'service', label: 'Service desk' },
] as const;

export const statusName = (id: string) => STATUSES[id] ?? id;
export const typeName = (id: string) => TYPES[id] ?? id;
export const priorityName = (id: string | undefined) => (id ? (PRIORITY_NAMES[id] ?? id) : 'No priority');

/** A mark for each issue type, as Jira's icons (colour and letter; the name is always said too). */
export const typeMark: Record<string, { letter: string; tone: string }> = {
  epic: { letter: 'E', tone: 'bg-purple-700' },
  story: { letter: 'S', tone: 'bg-green-700' },
  task: { letter: 'T', tone: 'bg-blue-700' },
  bug: { letter: 'B', tone: 'bg-red-700' },
  subtask: { letter: 'ST', tone: 'bg-sky-800' },
};

export const priorityMark: Record<string, { arrow: string; tone: string }> = {
  highest: { arrow: '⇈', tone: 'text-red-800' },
  high: { arrow: '↑', tone: 'text-red-700' },
  medium: { arrow: '=', tone: 'text-amber-800' },
  low: { arrow: '↓', tone: 'text-blue-800' },
  lowest: { arrow: '⇊', tone: 'text-blue-900' },
};
