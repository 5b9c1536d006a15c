import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix } from '../../kernel/store/ops';
import { canSee, permissionsFor } from './access';
import { transitionsFrom, workflowOf } from './catalog';
import { childrenOf, descriptionOf, findIssue, present, requireIssue, withLiveSla } from './issues';
import type { Actor } from './records';
import { findSpace } from './spaces';
import { pkOf, TP } from './store';
import { rememberView } from './views';

type Stored = Record<string, unknown> & { pk: string; sk: string };
const bare = ({ pk: _p, sk: _s, ...rest }: Stored) => rest;

/** An issue's comments, links, worklogs and attachments, oldest first. */
export async function issueParts(orgId: string, issueId: string) {
  const [comments, links, worklogs, attachments] = await Promise.all([
    queryPrefix<Stored>(pkOf(orgId), TP.comment(issueId)),
    queryPrefix<Stored>(pkOf(orgId), TP.link(issueId)),
    queryPrefix<Stored>(pkOf(orgId), TP.worklog(issueId)),
    queryPrefix<Stored>(pkOf(orgId), `${PREFIXES.tracker.attachment}${issueId}#`),
  ]);
  return {
    comments: comments.map(bare),
    links: links.map(bare),
    worklogs: worklogs.map(bare),
    attachments: attachments.filter((a) => a.uploaded === true).map(bare),
  };
}

/**
 * The issue page: the issue, its space, description, comments, links (to issues the caller
 * sees), worklogs, attachments, children, its parent, the transitions open from its status and the
 * caller's permissions in its space.
 */
export async function issuePage(actor: Actor, ref: string, remember = false) {
  const { issue, space } = await requireIssue(actor, ref);
  if (remember) await rememberView(actor, issue.issueId);
  const [description, parts, children, parent] = await Promise.all([
    descriptionOf(actor.orgId, issue.issueId),
    issueParts(actor.orgId, issue.issueId),
    childrenOf(actor.orgId, issue),
    issue.parentId ? findIssue(actor.orgId, issue.parentId) : Promise.resolve(undefined),
  ]);
  const permissions = permissionsFor(space, actor);
  const workflow = workflowOf(space.config, issue.typeId);
  const links = [];
  for (const link of parts.links) {
    const other = await findIssue(actor.orgId, link.issueId as string);
    const otherSpace = other ? await findSpace(actor.orgId, other.spaceId) : undefined;
    if (other && otherSpace && canSee(other, otherSpace, actor))
      links.push({ ...link, issue: summaryOf(present(other, otherSpace)) });
  }
  return {
    issue: await withLiveSla(present(issue, space), space),
    space: { spaceId: space.spaceId, key: space.key, name: space.name, template: space.template },
    description,
    comments: parts.comments,
    links,
    worklogs: parts.worklogs,
    attachments: parts.attachments,
    children: children.filter((c) => canSee(c, space, actor)).map((c) => summaryOf(present(c, space))),
    parent: parent && canSee(parent, space, actor) ? summaryOf(present(parent, space)) : null,
    transitions: permissions.transition
      ? transitionsFrom(workflow, issue.statusId).map((t) => ({
          id: t.id,
          name: t.name,
          to: t.to,
          fields: t.fields ?? [],
        }))
      : [],
    permissions,
  };
}

export const summaryOf = (i: {
  issueId: string;
  key: string;
  summary: string;
  typeId: string;
  statusId: string;
  statusCategory: string;
}) => ({
  issueId: i.issueId,
  key: i.key,
  summary: i.summary,
  typeId: i.typeId,
  statusId: i.statusId,
  statusCategory: i.statusCategory,
});
