import * as z from 'zod/mini';
import {
  changeComponent,
  changeVersion,
  createComponent,
  createVersion,
  deleteComponent,
  deleteVersion,
} from '../../shared/domains/tracker/parts';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { actorOf, str, trimmed } from './common';

const SpacePath = z.object({ orgId: z.string(), spaceKey: str(1, 64) });
const VersionPath = z.object({ orgId: z.string(), spaceKey: str(1, 64), versionId: str(1, 64) });
const ComponentPath = z.object({ orgId: z.string(), spaceKey: str(1, 64), componentId: str(1, 64) });
const Day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD'));
const spaceBase = '/v1/orgs/:orgId/issues/spaces/:spaceKey';

/** A space's versions and components. */
export const releaseRoutes = [
  route({
    method: 'POST',
    path: `${spaceBase}/versions`,
    scope: 'issues:write',
    summary: 'Adds a version (release) to a space (Jira’s POST /version); space administrators only.',
    params: SpacePath,
    body: z.object({
      name: trimmed(1, 255),
      description: z.optional(str(0, 2000)),
      startDate: z.optional(Day),
      releaseDate: z.optional(Day),
    }),
    errors: {
      403: [TRACKER_MESSAGES.administer],
      404: [TRACKER_MESSAGES.spaceNotFound],
      409: ['A version with this name exists in the space.'],
    },
    run: async (ctx) => created({ version: await createVersion(actorOf(ctx), ctx.params.spaceKey, ctx.body) }),
  }),
  route({
    method: 'PATCH',
    path: `${spaceBase}/versions/:versionId`,
    scope: 'issues:write',
    summary: 'Changes a version; `released: true` releases it (`releasedAt`).',
    params: VersionPath,
    body: z.object({
      name: z.optional(trimmed(1, 255)),
      description: z.optional(str(0, 2000)),
      startDate: z.optional(Day),
      releaseDate: z.optional(Day),
      released: z.optional(z.boolean()),
      archived: z.optional(z.boolean()),
    }),
    errors: {
      403: [TRACKER_MESSAGES.administer],
      404: [TRACKER_MESSAGES.spaceNotFound, TRACKER_MESSAGES.versionNotFound],
    },
    run: async (ctx) =>
      ok({ version: await changeVersion(actorOf(ctx), ctx.params.spaceKey, ctx.params.versionId, ctx.body) }),
  }),
  route({
    method: 'DELETE',
    path: `${spaceBase}/versions/:versionId`,
    scope: 'issues:write',
    params: VersionPath,
    errors: {
      403: [TRACKER_MESSAGES.administer],
      404: [TRACKER_MESSAGES.spaceNotFound, TRACKER_MESSAGES.versionNotFound],
    },
    run: async (ctx) => {
      await deleteVersion(actorOf(ctx), ctx.params.spaceKey, ctx.params.versionId);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: `${spaceBase}/components`,
    scope: 'issues:write',
    summary: 'Adds a component to a space (Jira’s POST /component); space administrators only.',
    params: SpacePath,
    body: z.object({
      name: trimmed(1, 255),
      description: z.optional(str(0, 2000)),
      leadId: z.optional(str(1, 64)),
      defaultAssignee: z.optional(z.enum(['space', 'lead', 'unassigned'])),
    }),
    errors: {
      403: [TRACKER_MESSAGES.administer],
      404: [TRACKER_MESSAGES.spaceNotFound],
      409: ['A component with this name exists in the space.'],
    },
    run: async (ctx) => created({ component: await createComponent(actorOf(ctx), ctx.params.spaceKey, ctx.body) }),
  }),
  route({
    method: 'PATCH',
    path: `${spaceBase}/components/:componentId`,
    scope: 'issues:write',
    params: ComponentPath,
    body: z.object({
      name: z.optional(trimmed(1, 255)),
      description: z.optional(str(0, 2000)),
      leadId: z.optional(str(1, 64)),
      defaultAssignee: z.optional(z.enum(['space', 'lead', 'unassigned'])),
    }),
    errors: {
      403: [TRACKER_MESSAGES.administer],
      404: [TRACKER_MESSAGES.spaceNotFound, TRACKER_MESSAGES.componentNotFound],
    },
    run: async (ctx) =>
      ok({ component: await changeComponent(actorOf(ctx), ctx.params.spaceKey, ctx.params.componentId, ctx.body) }),
  }),
  route({
    method: 'DELETE',
    path: `${spaceBase}/components/:componentId`,
    scope: 'issues:write',
    params: ComponentPath,
    errors: {
      403: [TRACKER_MESSAGES.administer],
      404: [TRACKER_MESSAGES.spaceNotFound, TRACKER_MESSAGES.componentNotFound],
    },
    run: async (ctx) => {
      await deleteComponent(actorOf(ctx), ctx.params.spaceKey, ctx.params.componentId);
      return noContent();
    },
  }),
];
