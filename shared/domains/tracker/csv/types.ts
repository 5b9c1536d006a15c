import type { IssueInput } from '../issues';
import type { FieldValue, TrackedIssue } from '../model';

/**
 * The fields of an issue to create (the spec's `POST /issues` body without `space`): catalog
 * values by name (or id), people by email (or id, or the display name the file holds), `parent`
 * by key. The importer passes it to the tracker's create with the target space.
 */
export type ImportedIssueInput = Omit<IssueInput, 'summary' | 'fields'> & {
  summary: string;
  fields?: Record<string, FieldValue>;
};

export interface ImportedComment {
  /** Epoch ms, when the cell had a readable date. */
  createdAt?: number;
  /** An email or an id, as the file wrote it. */
  author?: string;
  body: string;
}

/** A link to another issue of the file: `Outward issue link (Blocks)` → { type: 'Blocks', direction: 'outward' }. */
export interface ImportedLink {
  type: string;
  direction: 'inward' | 'outward';
  /** The other issue's key in the source tracker. */
  key: string;
}

/** One record (row) of an import file, mapped; `error` set when it cannot be created. */
export interface ImportRecord {
  /** 0-based record number, header excluded (what `startRow` and `nextRow` count). */
  row: number;
  /** The issue's key in the source (`Issue key`), for `keyMap`. */
  from?: string;
  /** The issue's id in the source (`Issue id`): other rows' `Parent id` point at it. */
  sourceId?: string;
  /** The parent's source id (`Parent id`), when the file gives one. */
  parentSourceId?: string;
  /** Present unless `error` is. `parent` holds the parent's source key when the file names it so. */
  input?: ImportedIssueInput;
  /** Status by name: not a create field; the importer transitions or sets it. */
  status?: string;
  createdAt?: number;
  updatedAt?: number;
  resolvedAt?: number;
  creator?: string;
  watchers: string[];
  /** Seconds. */
  timeSpent?: number;
  /** Every sprint the issue was in, in file order; `input.sprint` is the last. */
  sprints: string[];
  comments: ImportedComment[];
  links: ImportedLink[];
  error?: string;
  warnings: string[];
}

export interface ImportPage {
  /** Records in the file. */
  total: number;
  /** Records startRow … startRow + limit − 1. */
  records: ImportRecord[];
  /** Header cells this reader does not map (reported, not imported). */
  ignoredColumns: string[];
}

export interface ReadOptions {
  /** First record to map (0-based); default 0. */
  startRow?: number;
  /** Records to map; default 200 (a call's import limit). */
  limit?: number;
  /** Zone of the file's dates (`dd/MMM/yy h:mm a` carries none); default UTC. */
  timeZone?: string;
}

/** An issue to export: the stored record, with its description and comments when the caller has them. */
export type ExportIssue = TrackedIssue & {
  description?: string;
  comments?: { authorId?: string; createdAt: number; body: string }[];
  /** The issue's links as stored on its side: `type` (blocks, relates…), direction, the other issue's id. */
  links?: { type: string; direction: 'inward' | 'outward'; issueId: string }[];
};

/**
 * How the exporter names what the issue holds by id. Each answers a display value (a person
 * preferably by email, so an import can find them again); an unanswered id is written as is.
 */
export interface ExportNames {
  space?(spaceId: string): { key: string; name: string } | undefined;
  status?(id: string): string | undefined;
  type?(id: string): string | undefined;
  priority?(id: string): string | undefined;
  resolution?(id: string): string | undefined;
  version?(id: string): string | undefined;
  component?(id: string): string | undefined;
  sprint?(id: string): string | undefined;
  securityLevel?(id: string): string | undefined;
  requestType?(id: string): string | undefined;
  person?(id: string): string | undefined;
  /** A link type's name in Jira's columns (`blocks` → `Blocks`, `duplicates` → `Duplicate`). */
  linkType?(type: string): string | undefined;
  /** An issue's key by id (parents, links). */
  issueKey?(issueId: string): string | undefined;
  /** A custom field's display name by its `fields` key. */
  customField?(key: string): string | undefined;
}
