import * as z from 'zod/mini';
import { boardBacklog, boardIssues, moveCard } from '../../shared/domains/tracker/board-views';
import { createBoard, listBoards, patchBoard, requireBoard } from '../../shared/domains/tracker/boards';
import type { Space } from '../../shared/domains/tracker/model';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { requireSpace } from '../../shared/domains/tracker/spaces';
import { boardSprints, createSprint, deleteBoard, velocity } from '../../shared/domains/tracker/sprints';
import { created, ok, route } from '../../shared/kernel/http/route';
import { actorOf, IssueEdit, OrgPath, Ref, str, trimmed } from './common';

const BoardPath = z.object({ orgId: z.string(), boardId: str(1, 64) });
const NamedQuery = z.object({ id: str(1, 40), name: trimmed(1, 60), query: str(0, 2000) });
const Estimation = z.enum(['storyPoints', 'originalEstimate', 'count']);
const Millis = z.int().check(z.minimum(0));

export const boardRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/boards',
    scope: 'issues:read',
    summary: 'The boards over spaces the caller can browse; `space` (key or id) narrows to boards showing it.',
    params: OrgPath,
    query: z.object({ space: z.optional(str(1, 64)) }),
    errors: { 404: [TRACKER_MESSAGES.spaceNotFound] },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const space = ctx.query.space ? await requireSpace(actor, ctx.query.space) : undefined;
      return ok({ boards: await listBoards(actor, space) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/boards',
    scope: 'issues:write',
    summary: 'Creates a scrum or kanban board over 1-20 spaces, one column per status of their workflows.',
    params: OrgPath,
    body: z.object({
      name: trimmed(1, 80),
      type: z.enum(['scrum', 'kanban']),
      spaces: z.array(str(1, 64)).check(z.minLength(1), z.maxLength(20)),
      query: z.optional(str(0, 2000)),
    }),
    errors: { 404: [TRACKER_MESSAGES.spaceNotFound] },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const spaces: Space[] = [];
      for (const ref of ctx.body.spaces) {
        const s = await requireSpace(actor, ref);
        if (!spaces.some((x) => x.spaceId === s.spaceId)) spaces.push(s);
      }
      return created({ board: await createBoard(actor, { ...ctx.body, spaces }) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/boards/:boardId',
    scope: 'issues:read',
    params: BoardPath,
    errors: { 404: [TRACKER_MESSAGES.boardNotFound] },
    run: async (ctx) => ok({ board: (await requireBoard(actorOf(ctx), ctx.params.boardId)).board }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/issues/boards/:boardId',
    scope: 'issues:write',
    summary:
      'Changes a board’s name and configuration (each `config` field given replaces the stored one). ' +
      '`baseVersion`: only while the board is at that version (else 409). Its owner or a space administrator.',
    params: BoardPath,
    body: z.object({
      name: z.optional(trimmed(1, 80)),
      config: z.optional(
        z.object({
          spaceIds: z.optional(z.array(str(1, 64)).check(z.minLength(1), z.maxLength(20))),
          query: z.optional(str(0, 2000)),
          columns: z.optional(
            z
              .array(
                z.object({
                  id: str(1, 40),
                  name: trimmed(1, 60),
                  statusIds: z.array(str(1, 32)).check(z.maxLength(50)),
                  min: z.optional(z.int().check(z.minimum(0), z.maximum(999))),
                  max: z.optional(z.int().check(z.minimum(0), z.maximum(999))),
                }),
              )
              .check(z.minLength(1), z.maxLength(20)),
          ),
          swimlanes: z.optional(z.enum(['none', 'assignee', 'epic', 'parent', 'priority', 'query'])),
          swimlaneQueries: z.optional(z.array(NamedQuery).check(z.maxLength(20))),
          quickFilters: z.optional(z.array(NamedQuery).check(z.maxLength(30))),
          cardFields: z.optional(z.array(str(1, 64)).check(z.maxLength(6))),
          estimation: z.optional(Estimation),
          hideDoneAfterDays: z.optional(z.int().check(z.minimum(0), z.maximum(365))),
          kanbanBacklog: z.optional(z.boolean()),
          wipExcludesSubtasks: z.optional(z.boolean()),
          sharing: z.optional(
            z.object({
              org: z.boolean(),
              teams: z.array(str(1, 64)).check(z.maxLength(50)),
              users: z.array(str(1, 64)).check(z.maxLength(200)),
            }),
          ),
        }),
      ),
      baseVersion: z.optional(z.int().check(z.minimum(0))),
    }),
    errors: {
      403: [TRACKER_MESSAGES.cannotBoard],
      404: [TRACKER_MESSAGES.boardNotFound, TRACKER_MESSAGES.spaceNotFound],
      409: [TRACKER_MESSAGES.boardChanged],
    },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const board = await patchBoard(actor, ctx.params.boardId, ctx.body, async (refs) => {
        const out = [];
        for (const ref of refs) out.push(await requireSpace(actor, ref));
        return out;
      });
      return ok({ board });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/issues/boards/:boardId',
    scope: 'issues:write',
    summary: 'Deletes a board without an active sprint; its future sprints’ issues return to the backlog.',
    params: BoardPath,
    errors: {
      403: [TRACKER_MESSAGES.cannotBoard],
      404: [TRACKER_MESSAGES.boardNotFound],
      409: [TRACKER_MESSAGES.activeSprint],
    },
    run: async (ctx) => {
      await deleteBoard(actorOf(ctx), ctx.params.boardId);
      return ok({ boardId: ctx.params.boardId });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/boards/:boardId/issues',
    scope: 'issues:read',
    summary:
      'The board’s cards in rank order: the active sprint’s issues (scrum; `sprint` picks another of its sprints) ' +
      'or the flow (kanban), filtered by the board’s query and the `quickFilters` named (ANDed). `columns`: each ' +
      'column’s load against its WIP limits (counted without quick filters; `wipExceeded` over `max`, ' +
      '`wipBelowMin` under `min`): shown, not enforced, as in Jira.',
    params: BoardPath,
    query: z.object({ quickFilters: z.optional(str(0, 400)), sprint: z.optional(str(1, 64)) }),
    errors: {
      400: ['Unknown quick filter: <id>'],
      404: [TRACKER_MESSAGES.boardNotFound, TRACKER_MESSAGES.sprintNotFound],
    },
    run: async (ctx) => ok(await boardIssues(actorOf(ctx), ctx.params.boardId, ctx.query)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/boards/:boardId/backlog',
    scope: 'issues:read',
    summary:
      'The backlog: open sprints with their issues, the issues outside them, epics with progress. On a kanban ' +
      'board with `kanbanBacklog` (Jira’s kanban backlog), the issues of its first column, which leave the board.',
    params: BoardPath,
    query: z.object({ quickFilters: z.optional(str(0, 400)) }),
    errors: { 400: ['Unknown quick filter: <id>'], 404: [TRACKER_MESSAGES.boardNotFound] },
    run: async (ctx) => ok(await boardBacklog(actorOf(ctx), ctx.params.boardId, ctx.query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/boards/:boardId/move',
    scope: 'issues:write',
    summary:
      'Moves a card to a column through its workflow’s transition (none: 409; one whose screen asks for fields ' +
      'not given in `fields`: 409 naming them in `fields`), and with `before` or `after` ranks it next to that card. ' +
      'Answers the issue and the transition taken (null when the card stayed in its status); for a column with ' +
      'WIP limits, its `column` load (`count`, `wipExceeded`, `wipBelowMin`): limits warn, as in Jira, never refuse.',
    params: BoardPath,
    body: z.object({
      issue: str(1, 64),
      columnId: str(1, 40),
      before: z.optional(Ref),
      after: z.optional(Ref),
      fields: z.optional(IssueEdit),
    }),
    errors: {
      400: [TRACKER_MESSAGES.beforeOrAfter],
      403: [TRACKER_MESSAGES.cannotTransition],
      404: [TRACKER_MESSAGES.boardNotFound, TRACKER_MESSAGES.columnNotFound, TRACKER_MESSAGES.issueNotFound],
      409: [TRACKER_MESSAGES.noTransition, 'The transition "<name>" needs these fields: <fields>.'],
    },
    run: async (ctx) => ok(await moveCard(actorOf(ctx), ctx.params.boardId, ctx.body)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/boards/:boardId/sprints',
    scope: 'issues:read',
    summary: 'The board’s sprints (Jira’s GET /board/{id}/sprint), in board order.',
    params: BoardPath,
    errors: { 404: [TRACKER_MESSAGES.boardNotFound] },
    run: async (ctx) => {
      await requireBoard(actorOf(ctx), ctx.params.boardId);
      return ok({ sprints: await boardSprints(ctx.org.orgId, ctx.params.boardId) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/boards/:boardId/sprints',
    scope: 'issues:write',
    summary: 'Creates a future sprint on a scrum board (name defaults to "<board> Sprint <n>").',
    params: BoardPath,
    body: z.object({
      name: z.optional(trimmed(1, 80)),
      goal: z.optional(str(0, 2000)),
      startDate: z.optional(Millis),
      endDate: z.optional(Millis),
      capacity: z.optional(z.number().check(z.minimum(0), z.maximum(1_000_000))),
    }),
    errors: {
      400: ['Only scrum boards have sprints.'],
      403: [TRACKER_MESSAGES.cannotSprints],
      404: [TRACKER_MESSAGES.boardNotFound],
    },
    run: async (ctx) => created({ sprint: await createSprint(actorOf(ctx), ctx.params.boardId, ctx.body) }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/boards/:boardId/velocity',
    scope: 'issues:read',
    summary: 'Velocity: the last 7 closed sprints, committed and completed estimates in the board’s estimation.',
    params: BoardPath,
    errors: { 404: [TRACKER_MESSAGES.boardNotFound] },
    run: async (ctx) => ok(await velocity(actorOf(ctx), ctx.params.boardId)),
  }),
];
