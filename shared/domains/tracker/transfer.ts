import { createHash } from 'node:crypto';
import { artifactsBucket } from '../../kernel/config';
import { DomainError, forbidden, invalid, isCallersError, isDomainError } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { getMany, putNew } from '../../kernel/store/table';
import { storage } from '../../ports/object-storage';
import { presignedCall } from '../../ports/object-storage/presigned';
import { IMPORT_MESSAGES, readImportToken, startUpload } from '../mail/imports';
import { getObject, objectSize } from '../mail/objects';
import { permissionsFor } from './access';
import { findNamed, ISSUE_TYPES, PRIORITIES, RESOLUTIONS, STATUSES, workflowOf } from './catalog';
import {
  catalogNames,
  type ExportIssue,
  type ExportNames,
  type ImportRecord,
  readJiraCsv,
  readJsonExport,
  writeJiraCsv,
  writeJsonExport,
} from './csv';
import { createIssue, findIssue, getIssue, type IssueInput, membersOf, orgIssues, writeChanges } from './issues';
import type { Component, Space, Sprint, TrackedIssue, Version } from './model';
import { addLink, createComponent, createVersion, LINK_TYPES, type Link } from './parts';
import { type Actor, TRACKER_MESSAGES } from './records';
import { matching } from './search';
import { requireSpace, spaceComponents, spaceVersions } from './spaces';
import { createSprint } from './sprints';
import { pkOf, TK, TP } from './store';

type Stored<T> = T & { pk: string; sk: string };

export const MAX_IMPORT_CHARS = 5_242_880;
/** An uploaded import file: 5 MB too (the spec's limit), counted in bytes. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_EXPORT = 10_000;
/**
 * Files of exports (linked for 5 minutes) and of imports (read while the import runs) sit under
 * their own prefixes of the artifacts bucket, so a lifecycle rule can expire them (attachments,
 * which stay, are under `tracker/`).
 */
export const EXPORTS_PREFIX = 'tracker-exports/';
export const IMPORTS_PREFIX = 'tracker-imports/';
/** Past this, an export answers a link to the file (a Lambda response is at most 6 MB). */
export const MAX_INLINE_EXPORT_BYTES = 4 * 1024 * 1024;
const PER_CALL = 200;
/** As the API takes it (an issue's description is one item of the table, at most 400 KB). */
const MAX_DESCRIPTION = 65_536;

/** Jira's names of the link types (its CSV columns say `Outward issue link (Duplicate)`). */
const JIRA_LINK_NAMES: Record<string, string> = {
  blocks: 'Blocks',
  relates: 'Relates',
  duplicates: 'Duplicate',
  clones: 'Cloners',
};
/** A link type named in a file (Jira's name or ours, any case): ours. */
const linkTypeNamed = (name: string): string | undefined => {
  const n = name.trim().toLowerCase();
  return Object.keys(LINK_TYPES).find((t) => t === n || JIRA_LINK_NAMES[t]?.toLowerCase() === n);
};

// Export -----------------------------------------------------------------------------------

/** How the export names ids: catalogs, people by email, spaces, sprints, versions, components, parents. */
async function exportNames(actor: Actor, spaces: Map<string, Space>): Promise<ExportNames> {
  const orgId = actor.orgId;
  const [members, sprints, versions, components, issues] = await Promise.all([
    membersOf(orgId),
    queryPrefix<Stored<Sprint>>(pkOf(orgId), TP.sprint),
    queryPrefix<Stored<Version>>(pkOf(orgId), PREFIXES.tracker.version),
    queryPrefix<Stored<Component>>(pkOf(orgId), PREFIXES.tracker.component),
    orgIssues(orgId),
  ]);
  const by = <T>(list: T[], id: (x: T) => string, name: (x: T) => string) => {
    const m = new Map(list.map((x) => [id(x), name(x)]));
    return (key: string) => m.get(key);
  };
  const keys = new Map(issues.map((i) => [i.issueId, `${spaces.get(i.spaceId)?.key ?? '?'}-${i.number}`]));
  return {
    space: (id) => {
      const s = spaces.get(id);
      return s ? { key: s.key, name: s.name } : undefined;
    },
    status: by(
      STATUSES,
      (s) => s.id,
      (s) => s.name,
    ),
    type: by(
      ISSUE_TYPES,
      (s) => s.id,
      (s) => s.name,
    ),
    priority: by(
      PRIORITIES,
      (s) => s.id,
      (s) => s.name,
    ),
    resolution: by(
      RESOLUTIONS,
      (s) => s.id,
      (s) => s.name,
    ),
    person: by(
      members,
      (m) => m.userId,
      (m) => m.email ?? m.userId,
    ),
    sprint: by(
      sprints,
      (s) => s.sprintId,
      (s) => s.name,
    ),
    version: by(
      versions,
      (v) => v.versionId,
      (v) => v.name,
    ),
    component: by(
      components,
      (c) => c.componentId,
      (c) => c.name,
    ),
    securityLevel: by(
      [...spaces.values()].flatMap((s) => s.config.securityLevels),
      (l) => l.id,
      (l) => l.name,
    ),
    issueKey: (id) => keys.get(id),
    linkType: (type) => JIRA_LINK_NAMES[type],
  };
}

/**
 * Up to 10,000 issues matching `jql` that the caller sees, as Jira's CSV layout or this API's JSON,
 * with descriptions and comments. A file too large for a response goes to the platform bucket and
 * the answer is a link to it.
 */
export async function exportIssues(
  actor: Actor,
  jql: string,
  format: 'csv' | 'json',
): Promise<{ body: string; contentType: string; filename: string } | { link: string }> {
  const { matched, spaces } = await matching(actor, jql, 'key');
  if (matched.length > MAX_EXPORT)
    throw new DomainError(
      'invalid',
      `An export can hold up to ${MAX_EXPORT} issues; this query matches ${matched.length}. Narrow it.`,
    );
  const [descriptions, comments, links, names] = await Promise.all([
    getMany<{ description: string }>(matched.map((i) => TK.description(actor.orgId, i.issueId))),
    queryPrefix<Stored<{ issueId: string; authorId: string; body: string; createdAt: number }>>(
      pkOf(actor.orgId),
      PREFIXES.tracker.comment,
    ),
    queryPrefix<Stored<Link>>(pkOf(actor.orgId), PREFIXES.tracker.link),
    exportNames(actor, spaces),
  ]);
  // A link record sits under its own issue's id (`TLINK#<issueId>#<linkId>`); `issueId` is the other one.
  const linksOf = new Map<string, { type: string; direction: 'inward' | 'outward'; issueId: string }[]>();
  for (const l of links) {
    const own = l.sk.split('#')[1] as string;
    const list = linksOf.get(own) ?? [];
    list.push({ type: l.type, direction: l.direction, issueId: l.issueId });
    linksOf.set(own, list);
  }
  const byIssue = new Map<string, { authorId?: string; createdAt: number; body: string }[]>();
  for (const c of comments) {
    const list = byIssue.get(c.issueId) ?? [];
    list.push({ authorId: c.authorId, createdAt: c.createdAt, body: c.body });
    byIssue.set(c.issueId, list);
  }
  const issues: ExportIssue[] = matched.map((i, k) => ({
    ...i,
    description: descriptions[k]?.description ?? '',
    comments: byIssue.get(i.issueId) ?? [],
    links: linksOf.get(i.issueId) ?? [],
  }));
  const body = format === 'csv' ? writeJiraCsv(issues, names) : writeJsonExport(issues, names);
  const contentType = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
  const filename = `issues.${format}`;
  if (Buffer.byteLength(body) <= MAX_INLINE_EXPORT_BYTES) return { body, contentType, filename };
  const key = `${EXPORTS_PREFIX}${actor.orgId}/${newId('exp_')}.${format}`;
  const bucket = { name: artifactsBucket() };
  const bytes = Buffer.from(body);
  const put = () => storage().presignPut(bucket, key, { contentType, size: bytes.length, expiresIn: 300 });
  const res = await presignedCall(put, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
  if (res.status >= 300) throw new Error(`export upload failed: ${res.status}`);
  return { link: await storage().presignGet(bucket, key, { expiresIn: 300, filename }) };
}

// Import -----------------------------------------------------------------------------------

export interface ImportInput {
  space: string;
  format: 'csv' | 'json';
  /** The file in the body (exactly one of `content` and `file`). */
  content?: string;
  /** The token of a file sent by upload (`startImportUpload`). */
  file?: string;
  startRow?: number;
  keyMap?: Record<string, string>;
  createMissing?: boolean;
}

export interface ImportResult {
  row: number;
  key?: string;
  from?: string;
  error?: string;
  warnings?: string[];
}

/**
 * Imports up to 200 records of a Jira CSV export (or this API's JSON export) into a space, from
 * `startRow`. Catalog values by name (a missing version, component or sprint is created with
 * `createMissing`, else dropped with a warning), people by email (unknown: a warning), parents by
 * the source's key or id through `keyMap` (which the answer extends: pass it on with `nextRow`).
 * Each record's issue is created with a marker of its source in the same transaction, so the same
 * call sent twice answers the issues it made the first time and creates nothing twice.
 */
export async function importIssues(actor: Actor, input: ImportInput) {
  if ((input.content === undefined) === (input.file === undefined)) throw invalid(TRACKER_MESSAGES.importOneSource);
  if (input.content !== undefined && input.content.length > MAX_IMPORT_CHARS)
    throw new DomainError('tooLarge', TRACKER_MESSAGES.importTooLarge);
  const space = await requireSpace(actor, input.space);
  if (!permissionsFor(space, actor).administer) throw forbidden(TRACKER_MESSAGES.importAdmins);
  const content = input.content ?? (await uploadedFile(actor, space, input.file as string));
  const startRow = input.startRow ?? 0;
  const page =
    input.format === 'csv'
      ? readJiraCsv(content, { startRow, limit: PER_CALL })
      : readJsonExport(content, { startRow, limit: PER_CALL });
  const keyMap: Record<string, string> = { ...(input.keyMap ?? {}) };
  // The file's own hash, however it came (in the body or uploaded): the same file imported again
  // finds the markers of the first time.
  const fileId = createHash('sha256')
    .update(input.format)
    .update('\0')
    .update(content)
    .digest('base64url')
    .slice(0, 22);
  const lookups = await catalogsFor(actor, space, page.records, input.createMissing === true);
  // File order, except that a record whose parent comes later in this page waits for it.
  const inPage = new Set(page.records.flatMap((r) => [r.from, r.sourceId].filter((x): x is string => !!x)));
  const parentOf = (r: ImportRecord) => r.parentSourceId ?? r.input?.parent ?? undefined;
  const made = new Set<string>();
  const results = new Map<number, ImportResult>();
  let waiting = page.records;
  while (waiting.length > 0) {
    const later: ImportRecord[] = [];
    for (const record of waiting) {
      const parent = parentOf(record);
      if (parent && inPage.has(parent) && !made.has(parent) && later.length < waiting.length) {
        later.push(record);
        continue;
      }
      results.set(record.row, await importOne(actor, space, record, keyMap, lookups, fileId));
      for (const id of [record.from, record.sourceId]) if (id) made.add(id);
    }
    // A parent that never comes (or a cycle): the rest go as they are.
    if (later.length === waiting.length) {
      for (const record of later)
        results.set(record.row, await importOne(actor, space, record, keyMap, lookups, fileId));
      break;
    }
    waiting = later;
  }
  const processed = page.records.length;
  const nextRow = startRow + processed < page.total ? startRow + processed : null;
  return {
    total: page.total,
    processed,
    done: nextRow === null,
    nextRow,
    keyMap,
    results: page.records.map((r) => results.get(r.row) as ImportResult),
  };
}

/** Where a space's uploaded import files wait, and the scope their tokens are signed for. */
const importFolder = (orgId: string, spaceId: string) => `${IMPORTS_PREFIX}${orgId}/${spaceId}/`;
const importScope = (orgId: string, spaceId: string) => `${orgId}:${spaceId}:tracker-import`;

/**
 * An import's upload: a presigned PUT (15 minutes, bound to the size and type announced) and the
 * signed `file` token the import calls name it by. Files too large for a request body (a 5 MB file
 * escaped in JSON can pass Lambda's 6 MB event) go this way. The file stays while its import runs
 * (each call reads it); sent again with the same token, a call creates nothing twice.
 */
export async function startImportUpload(actor: Actor, input: { space: string; format: 'csv' | 'json'; size: number }) {
  const space = await requireSpace(actor, input.space);
  if (!permissionsFor(space, actor).administer) throw forbidden(TRACKER_MESSAGES.importAdmins);
  if (input.size > MAX_IMPORT_BYTES) throw new DomainError('tooLarge', TRACKER_MESSAGES.importTooLarge);
  const key = `${importFolder(actor.orgId, space.spaceId)}${newId('imp_')}.${input.format}`;
  const type = input.format === 'csv' ? 'text/csv' : 'application/json';
  const started = await startUpload(importScope(actor.orgId, space.spaceId), key, type, input.size);
  return {
    upload: { ...started.upload, expiresAt: new Date(Date.now() + 900_000).toISOString() },
    file: started.next as string,
  };
}

/** The text of an uploaded import file, by its token: 400 when not there, 413 past 5 MB. */
async function uploadedFile(actor: Actor, space: Space, file: string): Promise<string> {
  let key: string;
  try {
    ({ key } = readImportToken(
      importScope(actor.orgId, space.spaceId),
      file,
      importFolder(actor.orgId, space.spaceId),
    ));
  } catch (err) {
    // A token altered, or signed for another space: the import's own message, not a page cursor's.
    if (isDomainError(err, 'invalid')) throw invalid(IMPORT_MESSAGES.badNext);
    throw err;
  }
  const size = await objectSize(key);
  if (size === undefined) throw invalid(IMPORT_MESSAGES.notUploaded);
  if (size > MAX_IMPORT_BYTES) throw new DomainError('tooLarge', TRACKER_MESSAGES.importTooLarge);
  const bytes = await getObject(key);
  if (!bytes) throw invalid(IMPORT_MESSAGES.notUploaded);
  return bytes.toString('utf8');
}

interface Lookups {
  people: Map<string, string>;
  versions: Map<string, string>;
  components: Map<string, string>;
  sprints: Map<string, string>;
  created: string[];
}

/** The people, versions, components and sprints a page names, by lower-case name; created when asked. */
async function catalogsFor(
  actor: Actor,
  space: Space,
  records: ImportRecord[],
  createMissing: boolean,
): Promise<Lookups> {
  const names = catalogNames(records);
  const [members, versions, components, sprints] = await Promise.all([
    membersOf(actor.orgId),
    spaceVersions(actor.orgId, space.spaceId),
    spaceComponents(actor.orgId, space.spaceId),
    queryPrefix<Stored<Sprint>>(pkOf(actor.orgId), TP.sprint),
  ]);
  const people = new Map<string, string>();
  for (const m of members) {
    people.set(m.userId.toLowerCase(), m.userId);
    if (m.email) people.set(m.email.toLowerCase(), m.userId);
    if (m.name) people.set(m.name.toLowerCase(), m.userId);
  }
  const lookups: Lookups = {
    people,
    versions: new Map(
      versions.flatMap((v) => [
        [v.name.toLowerCase(), v.versionId],
        [v.versionId, v.versionId],
      ]),
    ),
    components: new Map(
      components.flatMap((c) => [
        [c.name.toLowerCase(), c.componentId],
        [c.componentId, c.componentId],
      ]),
    ),
    sprints: new Map(
      sprints
        .filter((s) => s.boardId === space.config.boardId)
        .flatMap((s) => [
          [s.name.toLowerCase(), s.sprintId],
          [s.sprintId, s.sprintId],
        ]),
    ),
    created: [],
  };
  if (!createMissing) return lookups;
  for (const name of names.versions) {
    if (lookups.versions.has(name.toLowerCase())) continue;
    const v = await createVersion(actor, space.spaceId, { name });
    lookups.versions.set(name.toLowerCase(), v.versionId);
  }
  for (const name of names.components) {
    if (lookups.components.has(name.toLowerCase())) continue;
    const c = await createComponent(actor, space.spaceId, { name });
    lookups.components.set(name.toLowerCase(), c.componentId);
  }
  if (space.config.boardId && space.template === 'scrum') {
    for (const name of names.sprints) {
      if (lookups.sprints.has(name.toLowerCase())) continue;
      const s = await createSprint(actor, space.config.boardId, { name });
      lookups.sprints.set(name.toLowerCase(), s.sprintId);
    }
  }
  return lookups;
}

async function importOne(
  actor: Actor,
  space: Space,
  record: ImportRecord,
  keyMap: Record<string, string>,
  lookups: Lookups,
  fileId: string,
): Promise<ImportResult> {
  const base: ImportResult = { row: record.row, ...(record.from ? { from: record.from } : {}) };
  if (record.error || !record.input) return { ...base, error: record.error ?? 'The record could not be read.' };
  const warnings = [...record.warnings];
  const src = record.input;
  if (src.description !== undefined && src.description.length > MAX_DESCRIPTION)
    return { ...base, error: TRACKER_MESSAGES.descriptionTooLong(src.description.length) };
  const input: IssueInput & { summary: string } = { summary: src.summary };
  const keep = <K extends keyof IssueInput>(k: K) => {
    if (src[k] !== undefined) (input as unknown as Record<string, unknown>)[k] = src[k];
  };
  for (const k of [
    'description',
    'labels',
    'dueDate',
    'startDate',
    'storyPoints',
    'originalEstimate',
    'remainingEstimate',
    'environment',
    'fields',
  ] as const)
    keep(k);
  const catalog = (field: 'type' | 'priority' | 'resolution', list: { id: string; name: string }[], label: string) => {
    const v = src[field];
    if (!v) return;
    const found = findNamed(list, v);
    if (found) input[field] = found.id;
    else warnings.push(`Unknown ${label} "${v}": left out.`);
  };
  catalog(
    'type',
    ISSUE_TYPES.filter((t) => space.config.issueTypeIds.includes(t.id)),
    'issue type',
  );
  catalog('priority', PRIORITIES, 'priority');
  catalog('resolution', RESOLUTIONS, 'resolution');
  const person = (v: string | null | undefined, label: string) => {
    if (!v) return undefined;
    const id = lookups.people.get(v.toLowerCase());
    if (!id) warnings.push(`Unknown person "${v}" (${label}): left out.`);
    return id;
  };
  const assignee = person(src.assignee, 'assignee');
  if (assignee) input.assignee = assignee;
  const reporter = person(src.reporter, 'reporter');
  if (reporter) input.reporter = reporter;
  const pick = (values: string[] | undefined, map: Map<string, string>, label: string) =>
    (values ?? []).flatMap((v) => {
      const id = map.get(v.toLowerCase()) ?? map.get(v);
      if (!id) warnings.push(`Unknown ${label} "${v}": left out.`);
      return id ? [id] : [];
    });
  if (src.components) input.components = pick(src.components, lookups.components, 'component');
  if (src.fixVersions) input.fixVersions = pick(src.fixVersions, lookups.versions, 'version');
  if (src.affectsVersions) input.affectsVersions = pick(src.affectsVersions, lookups.versions, 'version');
  if (src.sprint) {
    const id = lookups.sprints.get(src.sprint.toLowerCase());
    if (id) input.sprint = id;
    else warnings.push(`Unknown sprint "${src.sprint}": left out.`);
  }
  const parentRef = record.parentSourceId
    ? keyMap[`id:${record.parentSourceId}`]
    : src.parent
      ? (keyMap[src.parent] ?? undefined)
      : undefined;
  if (parentRef) input.parent = parentRef;
  else if (record.parentSourceId || src.parent)
    warnings.push(`Parent "${record.parentSourceId ?? src.parent}" not imported: left out.`);
  const overrides: Partial<TrackedIssue> = {};
  const typeId = input.type ?? space.config.defaultTypeId;
  if (record.status) {
    const status = findNamed(STATUSES, record.status);
    if (status && workflowOf(space.config, typeId).statuses.includes(status.id)) {
      const at = record.updatedAt ?? record.createdAt ?? Date.now();
      overrides.statusId = status.id;
      overrides.statusCategory = status.category;
      overrides.statusChangedAt = at;
      overrides.statusLog = [[status.id, at]];
      if (status.category === 'done' && !input.resolution) input.resolution = 'done';
    } else
      warnings.push(`Status "${record.status}" is not in this space's workflow: the issue starts in its first status.`);
  }
  if (record.createdAt) overrides.createdAt = record.createdAt;
  if (record.updatedAt) overrides.updatedAt = record.updatedAt;
  if (record.resolvedAt) overrides.resolvedAt = record.resolvedAt;
  if (record.timeSpent) overrides.timeSpent = record.timeSpent;
  const watchers = record.watchers.map((w) => lookups.people.get(w.toLowerCase())).filter((w): w is string => !!w);
  if (watchers.length) overrides.watchers = [...new Set(watchers)];
  const source =
    record.from ?? `row:${record.row}:${createHash('sha256').update(JSON.stringify(src)).digest('base64url')}`;
  const marker = { pk: pkOf(actor.orgId), sk: `${PREFIXES.tracker.import}${space.spaceId}#${fileId}#${source}` };
  try {
    const { issue, existing } = await createIssue(actor, space.spaceId, input, { overrides, marker });
    if (record.from) keyMap[record.from] = issue.key;
    if (record.sourceId) keyMap[`id:${record.sourceId}`] = issue.key;
    if (!existing) {
      for (const c of record.comments) {
        const authorId = (c.author && lookups.people.get(c.author.toLowerCase())) ?? actor.id;
        const at = c.createdAt ?? Date.now();
        const comment = {
          commentId: newId('cmt_', at),
          issueId: issue.issueId,
          authorId,
          body: c.body,
          createdAt: at,
          updatedAt: at,
        };
        await transact([putNew({ ...TK.comment(actor.orgId, issue.issueId, comment.commentId), ...comment })]);
      }
      if (record.comments.length) {
        const now = await getIssue(actor.orgId, issue.issueId, true);
        if (now)
          await writeChanges(actor.orgId, now, { commentCount: record.comments.length, updatedAt: issue.updatedAt });
      }
    }
    await importLinks(actor, issue, record, keyMap, warnings);
    return { ...base, key: issue.key, ...(warnings.length ? { warnings } : {}) };
  } catch (err) {
    if (!isCallersError(err)) throw err;
    return { ...base, error: err.message, ...(warnings.length ? { warnings } : {}) };
  }
}

/**
 * The record's links to issues already imported (through `keyMap`). A link to one that comes later
 * is made when that one comes: its own row names the link from its side, as Jira writes both. A link
 * already there (the other side's row, or this call sent again) is not made twice.
 */
async function importLinks(
  actor: Actor,
  issue: TrackedIssue,
  record: ImportRecord,
  keyMap: Record<string, string>,
  warnings: string[],
): Promise<void> {
  if (record.links.length === 0) return;
  const existing = await queryPrefix<Stored<Link>>(pkOf(actor.orgId), TP.link(issue.issueId));
  for (const link of record.links) {
    const type = linkTypeNamed(link.type);
    if (!type) {
      warnings.push(`Unknown link type "${link.type}": the link to ${link.key} is left out.`);
      continue;
    }
    const other = keyMap[link.key];
    if (!other) continue;
    const wording = LINK_TYPES[type] as { outward: string; inward: string };
    const symmetric = wording.outward === wording.inward;
    const target = await findIssue(actor.orgId, other, true);
    if (!target || target.issueId === issue.issueId) continue;
    const there = existing.some(
      (l) => l.issueId === target.issueId && l.type === type && (symmetric || l.direction === link.direction),
    );
    if (there) continue;
    try {
      existing.push(
        (await addLink(actor, issue.key, { type, issue: other, direction: link.direction })) as Stored<Link>,
      );
    } catch (err) {
      if (!isCallersError(err)) throw err;
      if (err.kind !== 'conflict') warnings.push(`The link to ${link.key} was not made: ${err.message}`);
    }
  }
}
