import { artifactsBucket } from '../../kernel/config';
import { conflict, forbidden, invalid, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, putNew, TABLE } from '../../kernel/store/table';
import { storage } from '../../ports/object-storage';
import { permissionsFor } from './access';
import { parseEstimate, present, requireIssue, slaModule, writeChanges } from './issues';
import type { Component, Space, TrackedIssue, Version } from './model';
import type { IssueAttachment, IssueComment, IssueLink, Worklog } from './record-schemas';
import { type Actor, TRACKER_MESSAGES } from './records';
import { requireSpace, spaceComponents, spaceVersions } from './spaces';
import { pkOf, TK, TP } from './store';

type Stored<T> = T & { pk: string; sk: string };
const bare = <T extends object>(item: Stored<T>): T => {
  const { pk: _p, sk: _s, ...rest } = item as Stored<T> & Record<string, unknown>;
  return rest as unknown as T;
};

/** Adds `delta` to a counter of the issue (comments, attachments) without touching its version. */
async function count(orgId: string, issueId: string, field: 'commentCount' | 'attachmentCount', delta: number) {
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: TK.issue(orgId, issueId),
      UpdateExpression: 'ADD #f :d',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':d': delta },
    }),
  );
}

// Comments -----------------------------------------------------------------------------------

export async function listComments(actor: Actor, ref: string): Promise<IssueComment[]> {
  const { issue } = await requireIssue(actor, ref);
  return (await queryPrefix<Stored<IssueComment>>(pkOf(actor.orgId), TP.comment(issue.issueId))).map(bare);
}

export async function addComment(actor: Actor, ref: string, body: string) {
  const { issue, space } = await requireIssue(actor, ref);
  if (!permissionsFor(space, actor).comment) throw forbidden(TRACKER_MESSAGES.cannotComment);
  const now = Date.now();
  const comment: IssueComment = {
    commentId: newId('cmt_', now),
    issueId: issue.issueId,
    authorId: actor.id,
    body,
    createdAt: now,
    updatedAt: now,
  };
  await transact([putNew({ ...TK.comment(actor.orgId, issue.issueId, comment.commentId), ...comment })]);
  await count(actor.orgId, issue.issueId, 'commentCount', 1);
  if (space.config.servicedesk) {
    const sla = await slaModule();
    const clocks = sla.clocksAfter(space, issue, { kind: 'commented', byReporter: issue.reporterId === actor.id }, now);
    if (clocks) {
      const fresh = (await requireIssue(actor, issue.issueId, true)).issue;
      await sla.syncSlaTimers(space, await writeChanges(actor.orgId, fresh, { sla: clocks }));
    }
  }
  return { comment, issue, space };
}

async function ownComment(actor: Actor, ref: string, commentId: string, permission: 'editComments' | 'deleteComments') {
  const { issue, space } = await requireIssue(actor, ref);
  const found = await getItem<Stored<IssueComment>>(TK.comment(actor.orgId, issue.issueId, commentId));
  if (!found) throw notFound(TRACKER_MESSAGES.commentNotFound);
  const mine = found.authorId === actor.id;
  if (!mine && !permissionsFor(space, actor)[permission]) throw forbidden("You can't change this comment.");
  return { issue, comment: bare(found) };
}

export async function editComment(actor: Actor, ref: string, commentId: string, body: string): Promise<IssueComment> {
  const { issue, comment } = await ownComment(actor, ref, commentId, 'editComments');
  const next = { ...comment, body, updatedAt: Date.now() };
  await transact([
    { Put: { TableName: TABLE(), Item: { ...TK.comment(actor.orgId, issue.issueId, commentId), ...next } } },
  ]);
  return next;
}

export async function deleteComment(actor: Actor, ref: string, commentId: string): Promise<void> {
  const { issue } = await ownComment(actor, ref, commentId, 'deleteComments');
  await deleteMany([TK.comment(actor.orgId, issue.issueId, commentId)]);
  await count(actor.orgId, issue.issueId, 'commentCount', -1);
}

// Worklogs -----------------------------------------------------------------------------------

/**
 * Logs work (Jira's auto-adjust): `timeSpent` grows, `remainingEstimate` shrinks by as much (not
 * below 0) when there is one.
 */
export async function addWorklog(
  actor: Actor,
  ref: string,
  input: { timeSpent: number | string; started?: number; comment?: string },
) {
  const { issue, space } = await requireIssue(actor, ref, true);
  if (!permissionsFor(space, actor).worklog) throw forbidden("You can't log work on this issue.");
  const seconds = parseEstimate(input.timeSpent, 'timeSpent');
  if (seconds <= 0) throw invalid('timeSpent must be above 0.');
  const now = Date.now();
  const worklog: Worklog = {
    worklogId: newId('wlg_', now),
    issueId: issue.issueId,
    authorId: actor.id,
    timeSpent: seconds,
    started: input.started ?? now,
    comment: input.comment ?? '',
    createdAt: now,
  };
  await transact([putNew({ ...TK.worklog(actor.orgId, issue.issueId, worklog.worklogId), ...worklog })]);
  const change: Partial<TrackedIssue> = { timeSpent: (issue.timeSpent ?? 0) + seconds };
  if (issue.remainingEstimate !== undefined) change.remainingEstimate = Math.max(0, issue.remainingEstimate - seconds);
  // As the issue routes answer it: without the table's keys (its index keys change with each write).
  return { worklog, issue: present(await writeChanges(actor.orgId, issue, change), space) };
}

export async function listWorklogs(actor: Actor, ref: string): Promise<Worklog[]> {
  const { issue } = await requireIssue(actor, ref);
  return (await queryPrefix<Stored<Worklog>>(pkOf(actor.orgId), TP.worklog(issue.issueId))).map(bare);
}

// Links --------------------------------------------------------------------------------------

/** Jira's link types: each with its outward and inward wording. */
export const LINK_TYPES: Record<string, { outward: string; inward: string }> = {
  blocks: { outward: 'blocks', inward: 'is blocked by' },
  relates: { outward: 'relates to', inward: 'relates to' },
  duplicates: { outward: 'duplicates', inward: 'is duplicated by' },
  clones: { outward: 'clones', inward: 'is cloned by' },
};

/** A link (one record on each side; `issueId` is the other issue): its record schema (./record-schemas.ts) is the source. */
export type Link = IssueLink;

/** Links two issues: one record on each side, in one transaction. */
export async function addLink(
  actor: Actor,
  ref: string,
  input: { type: string; issue: string; direction?: 'outward' | 'inward' },
) {
  const type = LINK_TYPES[input.type];
  if (!type) throw invalid(`Unknown link type: ${input.type}. Use ${Object.keys(LINK_TYPES).join(', ')}.`);
  const from = await requireIssue(actor, ref);
  if (!permissionsFor(from.space, actor).link) throw forbidden("You can't link this issue.");
  const to = await requireIssue(actor, input.issue).catch(() => {
    throw invalid(`Unknown issue: ${input.issue}`);
  });
  if (to.issue.issueId === from.issue.issueId) throw invalid("An issue can't be linked to itself.");
  const existing = await queryPrefix<Stored<Link>>(pkOf(actor.orgId), TP.link(from.issue.issueId));
  const direction = input.direction ?? 'outward';
  if (existing.some((l) => l.issueId === to.issue.issueId && l.type === input.type && l.direction === direction))
    throw conflict('These issues are already linked that way.');
  const now = Date.now();
  const linkId = newId('lnk_', now);
  const back = direction === 'outward' ? 'inward' : 'outward';
  const mine: Link = {
    linkId,
    type: input.type,
    direction,
    issueId: to.issue.issueId,
    label: type[direction],
    createdAt: now,
  };
  const theirs: Link = {
    linkId,
    type: input.type,
    direction: back,
    issueId: from.issue.issueId,
    label: type[back],
    createdAt: now,
  };
  await transact([
    putNew({ ...TK.link(actor.orgId, from.issue.issueId, linkId), ...mine }),
    putNew({ ...TK.link(actor.orgId, to.issue.issueId, linkId), ...theirs }),
  ]);
  return mine;
}

export async function deleteLink(actor: Actor, ref: string, linkId: string): Promise<void> {
  const { issue, space } = await requireIssue(actor, ref);
  if (!permissionsFor(space, actor).link) throw forbidden("You can't link this issue.");
  const link = await getItem<Stored<Link>>(TK.link(actor.orgId, issue.issueId, linkId));
  if (!link) throw notFound(TRACKER_MESSAGES.linkNotFound);
  await deleteMany([TK.link(actor.orgId, issue.issueId, linkId), TK.link(actor.orgId, link.issueId, linkId)]);
}

// Attachments --------------------------------------------------------------------------------

/** An attachment is stored as answered: its record schema (./record-schemas.ts) is the source. */
export type Attachment = IssueAttachment;

const MAX_ATTACHMENT = 100 * 1024 * 1024;
const objectKey = (orgId: string, issueId: string, id: string) => `tracker/${orgId}/${issueId}/${id}`;
const attachmentKey = (orgId: string, issueId: string, id: string) => ({
  pk: pkOf(orgId),
  sk: `${PREFIXES.tracker.attachment}${issueId}#${id}`,
});

/**
 * Starts an attachment: its record and a presigned PUT (bound to its type and size) into the
 * platform bucket. The file bytes never pass through the API; the attachment shows on the issue
 * once `…/complete` found the object.
 */
export async function startAttachment(
  actor: Actor,
  ref: string,
  input: { filename: string; contentType: string; size: number },
) {
  const { issue, space } = await requireIssue(actor, ref);
  if (!permissionsFor(space, actor).attach) throw forbidden("You can't attach files to this issue.");
  if (input.size > MAX_ATTACHMENT) throw invalid('Attachments can be up to 100 MB.');
  const now = Date.now();
  const attachment: Attachment = {
    attachmentId: newId('att_', now),
    issueId: issue.issueId,
    filename: input.filename,
    contentType: input.contentType,
    size: input.size,
    authorId: actor.id,
    uploaded: false,
    createdAt: now,
  };
  await transact([putNew({ ...attachmentKey(actor.orgId, issue.issueId, attachment.attachmentId), ...attachment })]);
  const url = await storage().presignPut(
    { name: artifactsBucket() },
    objectKey(actor.orgId, issue.issueId, attachment.attachmentId),
    {
      contentType: input.contentType,
      size: input.size,
      expiresIn: 900,
    },
  );
  return { attachment, upload: { url, method: 'PUT' as const, headers: { 'content-type': input.contentType } } };
}

async function findAttachment(actor: Actor, ref: string, id: string) {
  const { issue, space } = await requireIssue(actor, ref);
  const found = await getItem<Stored<Attachment>>(attachmentKey(actor.orgId, issue.issueId, id));
  if (!found) throw notFound('Attachment not found');
  return { issue, space, attachment: bare(found) };
}

/** Marks an attachment uploaded once its object is there with the announced size (else 409). */
export async function completeAttachment(actor: Actor, ref: string, id: string): Promise<Attachment> {
  const { issue, attachment } = await findAttachment(actor, ref, id);
  if (attachment.uploaded) return attachment;
  const info = await storage()
    .headObject({ name: artifactsBucket() }, objectKey(actor.orgId, issue.issueId, id))
    .catch(() => undefined);
  if (!info || info.size !== attachment.size) throw conflict('The file has not been uploaded yet.');
  const done = { ...attachment, uploaded: true };
  await transact([
    { Put: { TableName: TABLE(), Item: { ...attachmentKey(actor.orgId, issue.issueId, id), ...done } } },
  ]);
  await count(actor.orgId, issue.issueId, 'attachmentCount', 1);
  return done;
}

export async function attachmentLink(actor: Actor, ref: string, id: string) {
  const { issue, attachment } = await findAttachment(actor, ref, id);
  if (!attachment.uploaded) throw notFound('Attachment not found');
  const url = await storage().presignGet({ name: artifactsBucket() }, objectKey(actor.orgId, issue.issueId, id), {
    expiresIn: 300,
    filename: attachment.filename,
  });
  return { attachment, url };
}

export async function deleteAttachment(actor: Actor, ref: string, id: string): Promise<void> {
  const { issue, space, attachment } = await findAttachment(actor, ref, id);
  const perms = permissionsFor(space, actor);
  if (!perms.deleteAttachments && attachment.authorId !== actor.id)
    throw forbidden("You can't delete this attachment.");
  await storage().deleteKeys({ name: artifactsBucket() }, [objectKey(actor.orgId, issue.issueId, id)]);
  await deleteMany([attachmentKey(actor.orgId, issue.issueId, id)]);
  if (attachment.uploaded) await count(actor.orgId, issue.issueId, 'attachmentCount', -1);
}

// Versions and components ----------------------------------------------------------------------

async function adminSpace(actor: Actor, ref: string): Promise<Space> {
  const space = await requireSpace(actor, ref);
  if (!permissionsFor(space, actor).administer) throw forbidden(TRACKER_MESSAGES.administer);
  return space;
}

export async function createVersion(
  actor: Actor,
  ref: string,
  input: { name: string; description?: string; startDate?: string; releaseDate?: string },
): Promise<Version> {
  const space = await adminSpace(actor, ref);
  const existing = await spaceVersions(actor.orgId, space.spaceId);
  if (existing.some((v) => v.name.toLowerCase() === input.name.toLowerCase()))
    throw conflict('A version with this name exists in the space.');
  const version: Version = {
    versionId: newId('ver_'),
    spaceId: space.spaceId,
    name: input.name,
    description: input.description ?? '',
    ...(input.startDate ? { startDate: input.startDate } : {}),
    ...(input.releaseDate ? { releaseDate: input.releaseDate } : {}),
    released: false,
    archived: false,
    position: existing.reduce((m, v) => Math.max(m, v.position), 0) + 1,
    data: {},
  };
  await transact([putNew({ ...TK.version(actor.orgId, space.spaceId, version.versionId), ...version })]);
  return version;
}

export async function changeVersion(
  actor: Actor,
  ref: string,
  versionId: string,
  patch: Partial<Pick<Version, 'name' | 'description' | 'startDate' | 'releaseDate' | 'released' | 'archived'>>,
): Promise<Version> {
  const space = await adminSpace(actor, ref);
  const found = await getItem<Stored<Version>>(TK.version(actor.orgId, space.spaceId, versionId));
  if (!found) throw notFound(TRACKER_MESSAGES.versionNotFound);
  const next: Version = {
    ...bare(found),
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
  };
  if (patch.released === true && !found.released) next.releasedAt = Date.now();
  if (patch.released === false) delete next.releasedAt;
  await transact([
    { Put: { TableName: TABLE(), Item: { ...TK.version(actor.orgId, space.spaceId, versionId), ...next } } },
  ]);
  return next;
}

export async function deleteVersion(actor: Actor, ref: string, versionId: string): Promise<void> {
  const space = await adminSpace(actor, ref);
  if (!(await getItem(TK.version(actor.orgId, space.spaceId, versionId))))
    throw notFound(TRACKER_MESSAGES.versionNotFound);
  await deleteMany([TK.version(actor.orgId, space.spaceId, versionId)]);
}

export async function createComponent(
  actor: Actor,
  ref: string,
  input: { name: string; description?: string; leadId?: string; defaultAssignee?: Component['defaultAssignee'] },
): Promise<Component> {
  const space = await adminSpace(actor, ref);
  const existing = await spaceComponents(actor.orgId, space.spaceId);
  if (existing.some((c) => c.name.toLowerCase() === input.name.toLowerCase()))
    throw conflict('A component with this name exists in the space.');
  const component: Component = {
    componentId: newId('cmp_'),
    spaceId: space.spaceId,
    name: input.name,
    description: input.description ?? '',
    ...(input.leadId ? { leadId: input.leadId } : {}),
    defaultAssignee: input.defaultAssignee ?? 'space',
  };
  await transact([putNew({ ...TK.component(actor.orgId, space.spaceId, component.componentId), ...component })]);
  return component;
}

export async function changeComponent(
  actor: Actor,
  ref: string,
  componentId: string,
  patch: Partial<Pick<Component, 'name' | 'description' | 'leadId' | 'defaultAssignee'>>,
): Promise<Component> {
  const space = await adminSpace(actor, ref);
  const found = await getItem<Stored<Component>>(TK.component(actor.orgId, space.spaceId, componentId));
  if (!found) throw notFound(TRACKER_MESSAGES.componentNotFound);
  const next: Component = {
    ...bare(found),
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
  };
  await transact([
    { Put: { TableName: TABLE(), Item: { ...TK.component(actor.orgId, space.spaceId, componentId), ...next } } },
  ]);
  return next;
}

export async function deleteComponent(actor: Actor, ref: string, componentId: string): Promise<void> {
  const space = await adminSpace(actor, ref);
  if (!(await getItem(TK.component(actor.orgId, space.spaceId, componentId))))
    throw notFound(TRACKER_MESSAGES.componentNotFound);
  await deleteMany([TK.component(actor.orgId, space.spaceId, componentId)]);
}
