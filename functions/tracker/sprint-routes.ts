import * as z from 'zod/mini';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { changeSprint, deleteSprint, requireSprint } from '../../shared/domains/tracker/sprints';
import { ok, route } from '../../shared/kernel/http/route';
import { actorOf, str, trimmed } from './common';

const SprintPath = z.object({ orgId: z.string(), sprintId: str(1, 64) });
const Millis = z.int().check(z.minimum(0));

/** A sprint: read, change (start, complete with carry-over), delete. */
export const sprintRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/sprints/:sprintId',
    scope: 'issues:read',
    summary: 'A sprint, with its report once closed (`data.report`: committed, added, removed, completed, incomplete).',
    params: SprintPath,
    errors: { 404: [TRACKER_MESSAGES.sprintNotFound] },
    run: async (ctx) => {
      const { sprint } = await requireSprint(actorOf(ctx), ctx.params.sprintId);
      const {
        pk: _p,
        sk: _s,
        version: _v,
        committedIssueIds: _c,
        ...shown
      } = sprint as typeof sprint & { committedIssueIds?: unknown };
      return ok({ sprint: shown });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/issues/sprints/:sprintId',
    scope: 'issues:write',
    summary:
      'Changes a sprint; `state` starts it (`active`: one per board) or completes it (`closed`: the report is ' +
      'written, unfinished issues go to `carryTo`, a future sprint of the board, or to the backlog).',
    params: SprintPath,
    body: z.object({
      name: z.optional(trimmed(1, 80)),
      goal: z.optional(str(0, 2000)),
      startDate: z.optional(Millis),
      endDate: z.optional(Millis),
      capacity: z.optional(z.number().check(z.minimum(0), z.maximum(1_000_000))),
      state: z.optional(z.enum(['active', 'closed'])),
      carryTo: z.optional(str(1, 64)),
    }),
    errors: {
      400: ['carryTo names a future sprint of the same board.'],
      403: [TRACKER_MESSAGES.cannotSprints],
      404: [TRACKER_MESSAGES.sprintNotFound],
      409: [TRACKER_MESSAGES.oneActive],
    },
    run: async (ctx) => ok({ sprint: await changeSprint(actorOf(ctx), ctx.params.sprintId, ctx.body) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/issues/sprints/:sprintId',
    scope: 'issues:write',
    summary: 'Deletes a sprint that is not active; a future sprint’s issues return to the backlog.',
    params: SprintPath,
    errors: {
      403: [TRACKER_MESSAGES.cannotSprints],
      404: [TRACKER_MESSAGES.sprintNotFound],
      409: ["The active sprint can't be deleted. Complete it first."],
    },
    run: async (ctx) => {
      await deleteSprint(actorOf(ctx), ctx.params.sprintId);
      return ok({ sprintId: ctx.params.sprintId });
    },
  }),
];
