import { stringify } from 'csv-stringify/sync';
import type { FieldValue } from '../model';
import { writeDate, writeDay } from './dates';
import type { ExportIssue, ExportNames } from './types';

/**
 * Writes issues in the layout of Jira's "Export CSV (all fields)": one header row, multi-valued
 * fields as repeated columns (as many as the fullest issue needs), dates as `dd/MMM/yy h:mm a`,
 * estimates in seconds, comments as `date;author;body`; a BOM and CRLF line ends, as Jira writes.
 * A cell that a spreadsheet would run as a formula (starting with = + - @, a tab or a CR) is
 * neutralised with a leading `'` (OWASP, CSV injection). readJiraCsv reads it back.
 */

/** OWASP: a cell starting with = + - @ TAB or CR gets a leading `'`. */
export function neutralise(cell: string): string {
  return cell.length > 0 && '=+-@\t\r'.includes(cell[0]!) ? `'${cell}` : cell;
}

interface Column {
  name: string;
  /** The cells of one issue (a single column holds at most one). */
  cells: (issue: ExportIssue) => string[];
  repeated?: boolean;
}

const opt = (v: string | number | undefined | null) => (v === undefined || v === null || v === '' ? [] : [String(v)]);

function customCells(v: FieldValue | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'object') return v.child ? [`${v.parent} -> ${v.child}`] : [v.parent];
  return [String(v)];
}

export interface WriteOptions {
  /** Zone the dates are written in; default UTC. */
  timeZone?: string;
}

export function writeJiraCsv(issues: ExportIssue[], names: ExportNames = {}, options: WriteOptions = {}): string {
  const zone = options.timeZone ?? 'UTC';
  const name = (f: ((id: string) => string | undefined) | undefined, id: string | undefined) =>
    id === undefined ? [] : [f?.(id) ?? id];
  const many = (f: ((id: string) => string | undefined) | undefined, ids: string[]) => ids.map((id) => f?.(id) ?? id);
  const person = (id: string | undefined) => name(names.person, id);
  const date = (ms: number | undefined) => (ms === undefined ? [] : [writeDate(ms, zone)]);
  const space = (i: ExportIssue) => names.space?.(i.spaceId);

  const customKeys = [...new Set(issues.flatMap((i) => Object.keys(i.fields)))].sort();
  // Jira's link columns: `Inward issue link (Blocks)`, `Outward issue link (Blocks)`… by type, inward first.
  const linkKinds = [...new Set(issues.flatMap((i) => (i.links ?? []).map((l) => `${l.type}\0${l.direction}`)))]
    .sort()
    .map((kind) => kind.split('\0') as [string, 'inward' | 'outward']);
  const linkColumns = linkKinds.map(
    ([type, direction]): Column => ({
      name: `${direction === 'inward' ? 'Inward' : 'Outward'} issue link (${names.linkType?.(type) ?? type})`,
      cells: (i) =>
        (i.links ?? [])
          .filter((l) => l.type === type && l.direction === direction)
          .map((l) => names.issueKey?.(l.issueId) ?? l.issueId),
      repeated: true,
    }),
  );
  const columns: Column[] = [
    { name: 'Summary', cells: (i) => [i.summary] },
    { name: 'Issue key', cells: (i) => [i.key] },
    { name: 'Issue id', cells: (i) => [i.issueId] },
    { name: 'Parent id', cells: (i) => opt(i.parentId) },
    { name: 'Parent', cells: (i) => (i.parentId ? opt(names.issueKey?.(i.parentId)) : []) },
    { name: 'Issue Type', cells: (i) => name(names.type, i.typeId) },
    { name: 'Status', cells: (i) => name(names.status, i.statusId) },
    { name: 'Project key', cells: (i) => [space(i)?.key ?? i.key.slice(0, i.key.lastIndexOf('-'))] },
    { name: 'Project name', cells: (i) => opt(space(i)?.name) },
    { name: 'Priority', cells: (i) => name(names.priority, i.priorityId) },
    { name: 'Resolution', cells: (i) => name(names.resolution, i.resolutionId) },
    { name: 'Assignee', cells: (i) => person(i.assigneeId) },
    { name: 'Reporter', cells: (i) => person(i.reporterId) },
    { name: 'Creator', cells: (i) => person(i.creatorId) },
    { name: 'Created', cells: (i) => date(i.createdAt) },
    { name: 'Updated', cells: (i) => date(i.updatedAt) },
    { name: 'Resolved', cells: (i) => date(i.resolvedAt) },
    { name: 'Affects Version/s', cells: (i) => many(names.version, i.affectsVersionIds), repeated: true },
    { name: 'Fix Version/s', cells: (i) => many(names.version, i.fixVersionIds), repeated: true },
    { name: 'Component/s', cells: (i) => many(names.component, i.componentIds), repeated: true },
    { name: 'Due Date', cells: (i) => (i.dueDate ? [writeDay(i.dueDate)] : []) },
    { name: 'Votes', cells: (i) => [String(i.voters.length)] },
    { name: 'Labels', cells: (i) => i.labels, repeated: true },
    { name: 'Description', cells: (i) => opt(i.description ?? i.excerpt) },
    { name: 'Environment', cells: (i) => opt(i.environment) },
    { name: 'Watchers', cells: (i) => many(names.person, i.watchers), repeated: true },
    { name: 'Original Estimate', cells: (i) => opt(i.originalEstimate) },
    { name: 'Remaining Estimate', cells: (i) => opt(i.remainingEstimate) },
    { name: 'Time Spent', cells: (i) => opt(i.timeSpent) },
    { name: 'Security Level', cells: (i) => name(names.securityLevel, i.securityLevelId) },
    ...linkColumns,
    {
      name: 'Sprint',
      cells: (i) => many(names.sprint, [...i.closedSprintIds, ...(i.sprintId ? [i.sprintId] : [])]),
      repeated: true,
    },
    { name: 'Custom field (Story Points)', cells: (i) => opt(i.storyPoints) },
    { name: 'Custom field (Start date)', cells: (i) => (i.startDate ? [writeDay(i.startDate)] : []) },
    { name: 'Custom field (Request Type)', cells: (i) => name(names.requestType, i.requestTypeId) },
    { name: 'Custom field (Request participants)', cells: (i) => many(names.person, i.participants), repeated: true },
    ...customKeys.map(
      (key): Column => ({
        name: `Custom field (${names.customField?.(key) ?? key})`,
        cells: (i) => customCells(i.fields[key]),
        repeated: true,
      }),
    ),
    { name: 'Status Category', cells: (i) => [CATEGORY[i.statusCategory]] },
    {
      name: 'Comment',
      cells: (i) =>
        (i.comments ?? []).map(
          (c) =>
            `${writeDate(c.createdAt, zone)};${c.authorId ? (names.person?.(c.authorId) ?? c.authorId) : ''};${c.body}`,
        ),
      repeated: true,
    },
  ];

  // A repeated column appears as many times as the fullest issue needs (at least once).
  const widths = columns.map((c) => (c.repeated ? Math.max(1, ...issues.map((i) => c.cells(i).length)) : 1));
  const header = columns.flatMap((c, k) => Array<string>(widths[k]!).fill(c.name));
  const rows = issues.map((issue) =>
    columns.flatMap((c, k) => {
      const cells = c.cells(issue).map(neutralise);
      return Array.from({ length: widths[k]! }, (_, j) => cells[j] ?? '');
    }),
  );
  return stringify([header, ...rows], { bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

const CATEGORY = { todo: 'To Do', inprogress: 'In Progress', done: 'Done' } as const;
