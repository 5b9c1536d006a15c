import { invalid } from '../../../kernel/ground/errors';
import type { FieldValue } from '../model';
import type { ExportIssue, ExportNames, ImportedIssueInput, ImportPage, ImportRecord, ReadOptions } from './types';

/**
 * This API's JSON export: `{ format, exportedAt, total, issues }`, each issue in the API's shape
 * (ids as stored) with `parentKey`, `description` and `comments` added when known. Importing it
 * into another space of the same organization finds every catalog entry and person by id; in
 * another organization the caller resolves what it can and warns about the rest.
 */

export const JSON_EXPORT_FORMAT = 'tracker-issues/1';

export interface JsonExport {
  format: typeof JSON_EXPORT_FORMAT;
  exportedAt: number;
  total: number;
  issues: (Omit<ExportIssue, 'links'> & {
    parentKey?: string;
    /** The other issue by key (as a CSV names it) beside its id. */
    links?: { type: string; direction: 'inward' | 'outward'; issueId: string; key?: string }[];
  })[];
}

export function writeJsonExport(issues: ExportIssue[], names: ExportNames = {}, exportedAt = Date.now()): string {
  const out: JsonExport = {
    format: JSON_EXPORT_FORMAT,
    exportedAt,
    total: issues.length,
    issues: issues.map((i) => {
      const parentKey = i.parentId ? names.issueKey?.(i.parentId) : undefined;
      const links = i.links?.map((l) => ({ ...l, key: names.issueKey?.(l.issueId) }));
      return { ...i, ...(parentKey ? { parentKey } : {}), ...(links ? { links } : {}) };
    }),
  };
  return JSON.stringify(out);
}

type Loose = Partial<ExportIssue> & { parentKey?: string; [k: string]: unknown };

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Reads a JSON export (or a bare array of issues): `limit` records from `startRow`. */
export function readJsonExport(content: string, options: ReadOptions = {}): ImportPage {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw invalid('The JSON file could not be read: it is not valid JSON.');
  }
  const issues = Array.isArray(data) ? data : (data as { issues?: unknown })?.issues;
  if (!Array.isArray(issues)) throw invalid('The JSON file has no issues list: use this API’s JSON export.');
  const startRow = options.startRow ?? 0;
  const limit = options.limit ?? 200;
  const records = issues.slice(startRow, startRow + limit).map((raw, k) => mapIssue(raw, startRow + k));
  return { total: issues.length, records, ignoredColumns: [] };
}

function mapIssue(raw: unknown, row: number): ImportRecord {
  const i = (typeof raw === 'object' && raw !== null ? raw : {}) as Loose;
  const record: ImportRecord = {
    row,
    watchers: strs(i.watchers),
    sprints: [...strs(i.closedSprintIds), ...(str(i.sprintId) ? [i.sprintId!] : [])],
    comments: (Array.isArray(i.comments) ? i.comments : []).flatMap((c) =>
      typeof c?.body === 'string'
        ? [
            {
              body: c.body,
              ...(num(c.createdAt) ? { createdAt: c.createdAt } : {}),
              ...(str(c.authorId) ? { author: c.authorId } : {}),
            },
          ]
        : [],
    ),
    links: (Array.isArray(i.links) ? (i.links as unknown[]) : []).flatMap((raw) => {
      const l = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const key = str(l.key);
      const type = str(l.type);
      const direction = l.direction === 'inward' || l.direction === 'outward' ? l.direction : undefined;
      return key && type && direction ? [{ type, direction, key }] : [];
    }),
    warnings: [],
  };
  const assign = <K extends keyof ImportRecord>(k: K, v: ImportRecord[K] | undefined) => {
    if (v !== undefined) record[k] = v;
  };
  assign('from', str(i.key));
  assign('sourceId', str(i.issueId));
  assign('parentSourceId', str(i.parentId));
  assign('status', str(i.statusId));
  assign('createdAt', num(i.createdAt));
  assign('updatedAt', num(i.updatedAt));
  assign('resolvedAt', num(i.resolvedAt));
  assign('creator', str(i.creatorId));
  assign('timeSpent', num(i.timeSpent));
  const summary = str(i.summary)?.trim();
  if (!summary) {
    record.error = 'Summary is required.';
    return record;
  }
  const input: ImportedIssueInput = { summary };
  const set = <K extends keyof ImportedIssueInput>(k: K, v: ImportedIssueInput[K] | undefined) => {
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) input[k] = v;
  };
  set('type', str(i.typeId));
  set('description', str(i.description));
  set('priority', str(i.priorityId));
  set('securityLevel', str(i.securityLevelId));
  set('resolution', str(i.resolutionId));
  set('assignee', str(i.assigneeId));
  set('reporter', str(i.reporterId));
  set('labels', strs(i.labels));
  set('components', strs(i.componentIds));
  set('fixVersions', strs(i.fixVersionIds));
  set('affectsVersions', strs(i.affectsVersionIds));
  set('dueDate', str(i.dueDate));
  set('startDate', str(i.startDate));
  set('storyPoints', num(i.storyPoints));
  set('originalEstimate', num(i.originalEstimate));
  set('remainingEstimate', num(i.remainingEstimate));
  set('environment', str(i.environment));
  set('parent', str(i.parentKey));
  set('sprint', str(i.sprintId));
  if (i.fields && typeof i.fields === 'object' && Object.keys(i.fields).length > 0) {
    input.fields = i.fields as Record<string, FieldValue>;
  }
  set('requestType', str(i.requestTypeId));
  set('participants', strs(i.participants));
  record.input = input;
  return record;
}
