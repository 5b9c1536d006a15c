import { PREFIXES } from '../../kernel/store/keys';
import { orgPk, TABLE } from '../../kernel/store/table';

/**
 * The tracker's store: its keys, the conditions of its shared writes and the items they put, in one
 * module (the prefixes are declared in shared/kernel/store/keys.ts).
 */

/**
 * Where the tracker keeps its records in the platform table, all under the organization's
 * partition (`ORG#<orgId>`), so an organization's deletion takes them along:
 *
 * - a space `TSPACE#<spaceId>`; each key it has had `TSPACEKEY#<KEY>` → its spaceId (created in a
 *   transaction with `attribute_not_exists`, so a key is unique in the organization, and a former key
 *   keeps resolving and stays taken);
 * - an issue `TISSUE#<issueId>`, listed per space by GSI1 (`TRKSPACE#<orgId>#<spaceId>` /
 *   `<statusId>#<updatedAt>#<issueId>`);
 *   each number it has had `TISSUENUM#<spaceId>#<number>` → its issueId (moved issues keep their old
 *   keys); its description `TDESC#<issueId>`;
 * - `TRKMETA`: the organization's last handed-out rank (new issues go last);
 * - boards `TBOARD#`, sprints `TSPRINT#`, versions `TVERSION#<spaceId>#`, components
 *   `TCOMPONENT#<spaceId>#`, comments `TCOMMENT#<issueId>#`, links `TLINK#<issueId>#`,
 *   worklogs `TWORKLOG#<issueId>#`, attachments `TATTACH#<issueId>#`;
 * - a person's issue history `TVIEWS#<userId>` (the issues opened with `remember=1`).
 */
export const pkOf = orgPk;
const k = (orgId: string, sk: string) => ({ pk: pkOf(orgId), sk });

export const TK = {
  space: (orgId: string, spaceId: string) => k(orgId, `${PREFIXES.tracker.space}${spaceId}`),
  spaceKey: (orgId: string, key: string) => k(orgId, `${PREFIXES.tracker.spaceKey}${key.toUpperCase()}`),
  issue: (orgId: string, issueId: string) => k(orgId, `${PREFIXES.tracker.issue}${issueId}`),
  issueNumber: (orgId: string, spaceId: string, n: number) =>
    k(orgId, `${PREFIXES.tracker.issueNumber}${spaceId}#${n}`),
  description: (orgId: string, issueId: string) => k(orgId, `${PREFIXES.tracker.description}${issueId}`),
  meta: (orgId: string) => k(orgId, 'TRKMETA'),
  /** A person's issue history (`remember=1`; views.ts). */
  views: (orgId: string, userId: string) => k(orgId, `${PREFIXES.tracker.views}${userId}`),
  /** How many issues of a space are in a status (`n`), moved in the transactions that change it. */
  statusCount: (orgId: string, spaceId: string, statusId: string) =>
    k(orgId, `${PREFIXES.tracker.statusCount}${spaceId}#${statusId}`),
  board: (orgId: string, boardId: string) => k(orgId, `${PREFIXES.tracker.board}${boardId}`),
  sprint: (orgId: string, sprintId: string) => k(orgId, `${PREFIXES.tracker.sprint}${sprintId}`),
  version: (orgId: string, spaceId: string, id: string) => k(orgId, `${PREFIXES.tracker.version}${spaceId}#${id}`),
  component: (orgId: string, spaceId: string, id: string) => k(orgId, `${PREFIXES.tracker.component}${spaceId}#${id}`),
  comment: (orgId: string, issueId: string, id: string) => k(orgId, `${PREFIXES.tracker.comment}${issueId}#${id}`),
  link: (orgId: string, issueId: string, id: string) => k(orgId, `${PREFIXES.tracker.link}${issueId}#${id}`),
  worklog: (orgId: string, issueId: string, id: string) => k(orgId, `${PREFIXES.tracker.worklog}${issueId}#${id}`),
};

export const TP = {
  space: PREFIXES.tracker.space,
  issue: PREFIXES.tracker.issue,
  board: PREFIXES.tracker.board,
  sprint: PREFIXES.tracker.sprint,
  version: (spaceId: string) => `${PREFIXES.tracker.version}${spaceId}#`,
  component: (spaceId: string) => `${PREFIXES.tracker.component}${spaceId}#`,
  comment: (issueId: string) => `${PREFIXES.tracker.comment}${issueId}#`,
  link: (issueId: string) => `${PREFIXES.tracker.link}${issueId}#`,
  worklog: (issueId: string) => `${PREFIXES.tracker.worklog}${issueId}#`,
};

/** GSI1 partition of a space's issues. */
export const spaceIssuesPk = (orgId: string, spaceId: string) => `${PREFIXES.tracker.spaceIssues}${orgId}#${spaceId}`;
/**
 * GSI1 sort key of an issue in its space: by status, then by last update, so a query narrowed to
 * statuses reads only those, most recently updated first when it wants them so.
 */
export const spaceIssuesSk = (statusId: string, updatedAt: number, issueId: string) =>
  `${statusId}#${String(Math.max(0, Math.floor(updatedAt))).padStart(15, '0')}#${issueId}`;

/** A transaction item that adds `delta` to a space's count of issues in `statusId`. */
export const countBy = (orgId: string, spaceId: string, statusId: string, delta: number) => ({
  Update: {
    TableName: TABLE(),
    Key: TK.statusCount(orgId, spaceId, statusId),
    UpdateExpression: 'ADD #n :d',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: { ':d': delta },
  },
});

/**
 * Takes the space's next issue number for `issueId`, in the transaction that writes the issue (a
 * create, a move): the space's sequence goes from the `seq` read to the next, on the condition
 * that no one took it since (else the transaction is cancelled and the caller reads again), and the
 * number's pointer names the issue (it stays when the issue moves on, so an old key resolves).
 */
export function takeNumber(orgId: string, space: { spaceId: string; seq: number }, issueId: string) {
  const number = space.seq + 1;
  return {
    number,
    /** The space's sequence moved on, if no one took this number since `space` was read. */
    sequence: {
      Update: {
        TableName: TABLE(),
        Key: TK.space(orgId, space.spaceId),
        UpdateExpression: 'SET #seq = :next',
        ConditionExpression: '#seq = :seq',
        ExpressionAttributeNames: { '#seq': 'seq' },
        ExpressionAttributeValues: { ':seq': space.seq, ':next': number },
      },
    },
    /** The number's pointer to the issue. */
    pointer: { Put: { TableName: TABLE(), Item: { ...TK.issueNumber(orgId, space.spaceId, number), issueId } } },
  };
}
