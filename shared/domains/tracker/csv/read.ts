import { parse } from 'csv-parse/sync';
import { invalid } from '../../../kernel/ground/errors';
import type { FieldValue } from '../model';
import { readDate, readDay } from './dates';
import type { ImportedComment, ImportedIssueInput, ImportedLink, ImportPage, ImportRecord, ReadOptions } from './types';

/**
 * Reads a Jira "Export CSV (all fields)" file (or any CSV with its column names): records, not
 * lines (quoted cells may hold line breaks), a BOM and CRLF allowed, repeated columns (Labels,
 * Component/s, Sprint, Comment, Watchers, Fix Version/s…) grouped into lists. Each record maps to
 * the fields of an issue to create, plus what creation does not take (status, dates, comments,
 * sprints, links). Catalog values stay names: the caller resolves them, creates the missing ones
 * (`createMissing`) or warns.
 */

/** Column names as compared: lower case, spaces collapsed. */
const norm = (name: string) => name.trim().toLowerCase().split(/\s+/).join(' ');

type Target =
  | 'summary'
  | 'key'
  | 'id'
  | 'parentId'
  | 'parent'
  | 'epicLink'
  | 'type'
  | 'status'
  | 'priority'
  | 'resolution'
  | 'assignee'
  | 'reporter'
  | 'creator'
  | 'created'
  | 'updated'
  | 'resolved'
  | 'affectsVersions'
  | 'fixVersions'
  | 'components'
  | 'dueDate'
  | 'labels'
  | 'description'
  | 'environment'
  | 'watchers'
  | 'originalEstimate'
  | 'remainingEstimate'
  | 'timeSpent'
  | 'securityLevel'
  | 'sprint'
  | 'storyPoints'
  | 'startDate'
  | 'requestType'
  | 'participants'
  | 'comment'
  | 'attachment'
  | 'skip';

/** Jira's column names (Server's `Fix Version/s` and Cloud's `Fix versions` alike). */
const COLUMNS: Record<string, Target> = {
  summary: 'summary',
  'issue key': 'key',
  'issue id': 'id',
  'parent id': 'parentId',
  parent: 'parent',
  'custom field (epic link)': 'epicLink',
  'issue type': 'type',
  status: 'status',
  priority: 'priority',
  resolution: 'resolution',
  assignee: 'assignee',
  reporter: 'reporter',
  creator: 'creator',
  created: 'created',
  updated: 'updated',
  resolved: 'resolved',
  'affects version/s': 'affectsVersions',
  'affects versions': 'affectsVersions',
  'fix version/s': 'fixVersions',
  'fix versions': 'fixVersions',
  'component/s': 'components',
  components: 'components',
  'due date': 'dueDate',
  labels: 'labels',
  description: 'description',
  environment: 'environment',
  watchers: 'watchers',
  'original estimate': 'originalEstimate',
  'remaining estimate': 'remainingEstimate',
  'time spent': 'timeSpent',
  'security level': 'securityLevel',
  sprint: 'sprint',
  'custom field (story points)': 'storyPoints',
  'custom field (story point estimate)': 'storyPoints',
  'story points': 'storyPoints',
  'custom field (start date)': 'startDate',
  'start date': 'startDate',
  'custom field (request type)': 'requestType',
  'request type': 'requestType',
  'custom field (request participants)': 'participants',
  'request participants': 'participants',
  comment: 'comment',
  attachment: 'attachment',
  // Known, and deliberately not imported: derived, per-site or per-viewer values.
  'project key': 'skip',
  'project name': 'skip',
  'project type': 'skip',
  'project lead': 'skip',
  'project lead id': 'skip',
  'project description': 'skip',
  'project url': 'skip',
  'assignee id': 'skip',
  'reporter id': 'skip',
  'creator id': 'skip',
  'watchers id': 'skip',
  'last viewed': 'skip',
  votes: 'skip',
  'work ratio': 'skip',
  'σ original estimate': 'skip',
  'σ remaining estimate': 'skip',
  'σ time spent': 'skip',
  'log work': 'skip',
  'custom field (rank)': 'skip',
  'status category': 'skip',
  'status category changed': 'skip',
  'parent summary': 'skip',
  'sub-tasks': 'skip',
};

const CUSTOM_PREFIX = 'custom field (';
const LINK_PREFIXES: [string, ImportedLink['direction']][] = [
  ['inward issue link (', 'inward'],
  ['outward issue link (', 'outward'],
];

/** OWASP's formula neutralisation undone: `'=1+1` (as exports write `=1+1`) reads back as `=1+1`. */
export function unneutralise(cell: string): string {
  return cell.length > 1 && cell[0] === "'" && '=+-@\t\r'.includes(cell[1]!) ? cell.slice(1) : cell;
}

type Cells = Record<string, string | string[] | undefined>;

/** Every non-empty value under `column` (a repeated column's cells, in order). */
function values(cells: Cells, column: string): string[] {
  const v = cells[column];
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.map((s) => lines(unneutralise(s))).filter((s) => s.trim() !== '');
}

/** Line breaks inside a cell as `\n` (exports write CRLF inside quoted cells too). */
function lines(cell: string): string {
  return cell.includes('\r') ? cell.split('\r\n').join('\n').split('\r').join('\n') : cell;
}

const MAX_ESTIMATE = 315_360_000;

/**
 * Records in a CSV file, header included, counted by one pass over its characters: quoted cells
 * may hold line breaks, `""` is a quote inside a cell, CRLF, LF and CR end a record, empty lines
 * are no records (as csv-parse reads it with `skip_empty_lines`). Several times faster than parsing,
 * so a page of an import parses only up to its last record and still answers the file's total.
 */
export function countCsvRecords(content: string): number {
  let records = 0;
  let quoted = false;
  let empty = true;
  for (let i = content.charCodeAt(0) === 0xfeff ? 1 : 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 34) {
      quoted = !quoted;
      empty = false;
    } else if (!quoted && (c === 10 || c === 13)) {
      if (!empty) records++;
      empty = true;
    } else empty = false;
  }
  return empty ? records : records + 1;
}

/** Parses a CSV into records, up to record `to` (1-based, header excluded) when given; 400 when it is not CSV. */
export function parseCsvRecords(content: string, to?: number): { header: string[]; rows: Cells[] } {
  let header: string[] = [];
  try {
    const rows = parse(content, {
      ...(to !== undefined ? { to } : {}),
      bom: true,
      columns: (h: string[]) => {
        header = h.map((c) => c.trim());
        return header;
      },
      group_columns_by_name: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as Cells[];
    return { header, rows };
  } catch (e) {
    const err = e as { message?: string; lines?: number };
    const where = err.lines ? ` (line ${err.lines})` : '';
    throw invalid(`The CSV file could not be read${where}: ${err.message ?? 'invalid CSV'}`);
  }
}

/** Reads a Jira CSV export: `limit` records from `startRow`, and the file's total. */
export function readJiraCsv(content: string, options: ReadOptions = {}): ImportPage {
  const startRow = options.startRow ?? 0;
  const limit = options.limit ?? 200;
  const { header, rows } = parseCsvRecords(content, startRow + limit);
  const timeZone = options.timeZone ?? 'UTC';
  const columns = [...new Set(header)];
  const ignored = columns.filter((c) => {
    const n = norm(c);
    return (
      COLUMNS[n] === undefined &&
      !n.startsWith(CUSTOM_PREFIX) &&
      !LINK_PREFIXES.some(([prefix]) => n.startsWith(prefix))
    );
  });
  if (!columns.some((c) => COLUMNS[norm(c)] === 'summary')) {
    throw invalid('The CSV file has no Summary column: export it from the issue tracker with all fields.');
  }
  const records = rows
    .slice(startRow, startRow + limit)
    .map((cells, i) => mapRecord(cells, columns, startRow + i, timeZone));
  const total = rows.length < startRow + limit ? rows.length : Math.max(rows.length, countCsvRecords(content) - 1);
  return { total, records, ignoredColumns: ignored };
}

function mapRecord(cells: Cells, columns: string[], row: number, timeZone: string): ImportRecord {
  const warnings: string[] = [];
  const byTarget = new Map<Target, string[]>();
  const custom: Record<string, FieldValue> = {};
  const links: ImportedLink[] = [];
  let attachments = 0;
  for (const column of columns) {
    const n = norm(column);
    const target = COLUMNS[n];
    const cellValues = values(cells, column);
    if (cellValues.length === 0 || target === 'skip') continue;
    if (target === 'attachment') attachments += cellValues.length;
    else if (target) byTarget.set(target, [...(byTarget.get(target) ?? []), ...cellValues]);
    else if (n.startsWith(CUSTOM_PREFIX) && n.endsWith(')')) {
      const name = column.trim().slice(CUSTOM_PREFIX.length, -1);
      custom[name] = cellValues.length === 1 ? customValue(cellValues[0]!) : cellValues;
    } else {
      const link = LINK_PREFIXES.find(([prefix]) => n.startsWith(prefix));
      if (link && n.endsWith(')')) {
        const type = column.trim().slice(link[0].length, -1);
        for (const key of cellValues) links.push({ type, direction: link[1], key: key.trim() });
      }
    }
  }
  const one = (t: Target) => byTarget.get(t)?.[0]?.trim();
  const all = (t: Target) => (byTarget.get(t) ?? []).map((s) => s.trim());
  const record: ImportRecord = {
    row,
    from: one('key'),
    sourceId: one('id'),
    watchers: all('watchers'),
    sprints: all('sprint'),
    comments: all('comment').length ? (byTarget.get('comment') ?? []).map(readComment(timeZone)) : [],
    links,
    warnings,
  };
  const parentId = one('parentId');
  if (parentId) record.parentSourceId = parentId;

  const date = (t: Target, label: string) => {
    const text = one(t);
    if (!text) return undefined;
    const ms = readDate(text, timeZone);
    if (ms === undefined) warnings.push(`${label} "${text}" is not a date (dd/MMM/yy h:mm a); left out.`);
    return ms;
  };
  const day = (t: Target, label: string) => {
    const text = one(t);
    if (!text) return undefined;
    const d = readDay(text);
    if (d === undefined) warnings.push(`${label} "${text}" is not a date; left out.`);
    return d;
  };
  const seconds = (t: Target, label: string): number | string | undefined => {
    const text = one(t);
    if (!text) return undefined;
    const n = Number(text);
    if (Number.isInteger(n) && n >= 0 && n <= MAX_ESTIMATE) return n;
    if (!Number.isNaN(n)) {
      warnings.push(`${label} ${text} is not a whole number of seconds from 0 to ${MAX_ESTIMATE}; left out.`);
      return undefined;
    }
    return text.slice(0, 40);
  };

  record.status = one('status');
  record.creator = one('creator');
  record.createdAt = date('created', 'Created');
  record.updatedAt = date('updated', 'Updated');
  record.resolvedAt = date('resolved', 'Resolved');
  const spent = seconds('timeSpent', 'Time Spent');
  if (typeof spent === 'number') record.timeSpent = spent;
  for (const k of ['createdAt', 'updatedAt', 'resolvedAt', 'timeSpent', 'status', 'creator'] as const) {
    if (record[k] === undefined) delete record[k];
  }
  if (attachments > 0)
    warnings.push(`${attachments} attachment(s) not imported: their files stay in the source tracker.`);

  const summary = one('summary');
  if (!summary) {
    record.error = 'Summary is required.';
    return record;
  }
  if (summary.length > 255) {
    record.error = 'Summary can be up to 255 characters.';
    return record;
  }
  const input: ImportedIssueInput = { summary };
  const set = <K extends keyof ImportedIssueInput>(k: K, v: ImportedIssueInput[K] | undefined) => {
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) input[k] = v;
  };
  set('type', one('type'));
  set('description', byTarget.get('description')?.[0]);
  set('priority', one('priority'));
  set('securityLevel', one('securityLevel'));
  set('resolution', one('resolution'));
  set('assignee', one('assignee'));
  set('reporter', one('reporter'));
  let labels = all('labels').flatMap((l) => l.split(' ').filter(Boolean));
  if (labels.length > 30) {
    warnings.push(`${labels.length} labels: the first 30 kept.`);
    labels = labels.slice(0, 30);
  }
  set('labels', [...new Set(labels)]);
  set('components', all('components'));
  set('fixVersions', all('fixVersions'));
  set('affectsVersions', all('affectsVersions'));
  set('dueDate', day('dueDate', 'Due Date'));
  set('startDate', day('startDate', 'Start date'));
  const points = one('storyPoints');
  if (points) {
    const n = Number(points);
    if (Number.isFinite(n) && n >= 0 && n <= 10_000) input.storyPoints = n;
    else warnings.push(`Story points "${points}" is not a number from 0 to 10000; left out.`);
  }
  set('originalEstimate', seconds('originalEstimate', 'Original Estimate'));
  set('remainingEstimate', seconds('remainingEstimate', 'Remaining Estimate'));
  set('environment', byTarget.get('environment')?.[0]);
  // `Parent` holds a key in this API's export and in Jira's epic columns; a bare number is an id.
  const parent = one('parent') ?? one('epicLink');
  if (parent && [...parent].every((c) => c >= '0' && c <= '9')) record.parentSourceId ??= parent;
  else set('parent', parent);
  set('sprint', record.sprints[record.sprints.length - 1]);
  if (Object.keys(custom).length > 0) input.fields = custom;
  set('requestType', one('requestType'));
  set(
    'participants',
    all('participants').flatMap((p) =>
      p
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  );
  record.input = input;
  return record;
}

/** A number stays a number; anything else is text. */
function customValue(text: string): FieldValue {
  const t = text.trim();
  const n = Number(t);
  return t !== '' && Number.isFinite(n) && String(n) === t ? n : text;
}

/** `dd/MMM/yy h:mm a;author;body` (the body may hold `;` and line breaks). */
function readComment(timeZone: string) {
  return (cell: string): ImportedComment => {
    const first = cell.indexOf(';');
    const second = first < 0 ? -1 : cell.indexOf(';', first + 1);
    if (first > 0 && second > first) {
      const createdAt = readDate(cell.slice(0, first), timeZone);
      if (createdAt !== undefined) {
        const author = cell.slice(first + 1, second).trim();
        return { createdAt, ...(author ? { author } : {}), body: cell.slice(second + 1) };
      }
    }
    return { body: cell };
  };
}
