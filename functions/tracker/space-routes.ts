import * as z from 'zod/mini';
import { permissionsFor } from '../../shared/domains/tracker/access';
import { PERMISSIONS } from '../../shared/domains/tracker/model';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import {
  createSpace,
  listSpaces,
  patchSpace,
  requireSpace,
  spaceComponents,
  spaceVersions,
} from '../../shared/domains/tracker/spaces';
import { invalid } from '../../shared/kernel/ground/errors';
import { created, ok, route } from '../../shared/kernel/http/route';
import { actorOf, OrgPath, str, trimmed } from './common';

const SpacePath = z.object({ orgId: z.string(), spaceKey: str(1, 64) });
const Color = z.enum(['gray', 'blue', 'green', 'teal', 'yellow', 'orange', 'red', 'pink', 'purple']);
const Template = z.enum(['scrum', 'kanban', 'bugs', 'service', 'basic']);
const Recipient = z.enum(['assignee', 'reporter', 'watchers', 'lead', 'participants']);
const Grant = z.object({ type: str(1, 20), role: z.optional(str(1, 20)), id: z.optional(str(1, 64)) });
const GRANT_TYPES = ['spaceRole', 'orgRole', 'user', 'team', 'reporter', 'assignee', 'lead', 'anyone'];

const Config = z.object({
  issueTypeIds: z.optional(z.array(str(1, 32)).check(z.maxLength(50))),
  defaultTypeId: z.optional(str(1, 32)),
  workflows: z.optional(z.record(str(1, 32), str(1, 64))),
  screens: z.optional(
    z.object({
      create: z.record(z.string(), str(0, 64)),
      edit: z.record(z.string(), str(0, 64)),
      view: z.record(z.string(), str(0, 64)),
    }),
  ),
  fieldSettings: z.optional(
    z.record(
      str(1, 64),
      z.object({
        required: z.optional(z.boolean()),
        hidden: z.optional(z.boolean()),
        description: z.optional(str(0, 500)),
      }),
    ),
  ),
  customFieldIds: z.optional(z.array(str(1, 64)).check(z.maxLength(200))),
  access: z.optional(
    z.object({
      visibility: z.enum(['org', 'private']),
      members: z
        .array(
          z.object({ type: z.enum(['user', 'team']), id: str(1, 64), role: z.enum(['admin', 'member', 'viewer']) }),
        )
        .check(z.maxLength(500)),
    }),
  ),
  permissionSchemeId: z.optional(str(0, 64)),
  securityLevels: z.optional(
    z
      .array(
        z.object({
          id: str(1, 40),
          name: trimmed(1, 80),
          description: z.optional(str(0, 500)),
          grants: z.array(Grant).check(z.maxLength(50)),
        }),
      )
      .check(z.maxLength(20)),
  ),
  defaultSecurityLevelId: z.optional(str(0, 40)),
  notifications: z.optional(
    z.partialRecord(
      z.enum(['created', 'deleted', 'assigned', 'updated', 'transitioned', 'commented', 'mentioned', 'resolved']),
      z.array(Recipient),
    ),
  ),
  defaultAssignee: z.optional(z.enum(['unassigned', 'lead'])),
  estimation: z.optional(z.enum(['storyPoints', 'originalEstimate', 'count'])),
  servicedesk: z.optional(
    z.object({
      requestTypes: z.optional(
        z
          .array(
            z.object({
              id: str(1, 40),
              name: trimmed(1, 80),
              description: z.optional(str(0, 500)),
              icon: z.optional(str(0, 40)),
              typeId: str(1, 32),
              group: z.optional(str(0, 60)),
              fields: z.array(str(1, 64)).check(z.maxLength(30)),
              hidden: z.optional(z.boolean()),
            }),
          )
          .check(z.maxLength(100)),
      ),
      queues: z.optional(
        z
          .array(
            z.object({
              id: str(1, 40),
              name: trimmed(1, 80),
              query: str(0, 2000),
              columns: z.optional(z.array(str(1, 64)).check(z.maxLength(30))),
            }),
          )
          .check(z.maxLength(50)),
      ),
      slas: z.optional(
        z
          .array(
            z.object({
              id: str(1, 40),
              name: trimmed(1, 80),
              start: z.array(str(1, 64)).check(z.maxLength(20)),
              pause: z.array(str(1, 64)).check(z.maxLength(20)),
              stop: z.array(str(1, 64)).check(z.maxLength(20)),
              goals: z
                .array(
                  z.object({
                    query: z.optional(str(0, 2000)),
                    minutes: z.int().check(z.minimum(0), z.maximum(525_600)),
                    calendar: z.enum(['business', 'always']),
                  }),
                )
                .check(z.maxLength(20)),
            }),
          )
          .check(z.maxLength(20)),
      ),
      hours: z.optional(
        z.object({
          timeZone: str(1, 64),
          // ISO weekdays 1 (Monday) to 7; a day left out is closed.
          days: z.partialRecord(
            z.enum(['1', '2', '3', '4', '5', '6', '7']),
            z.array(z.string().check(z.regex(/^\d{2}:\d{2}-\d{2}:\d{2}$/))).check(z.maxLength(10)),
          ),
          holidays: z.array(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))).check(z.maxLength(200)),
        }),
      ),
      satisfaction: z.optional(z.boolean()),
    }),
  ),
});

export const spaceRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/spaces',
    scope: 'issues:read',
    summary: 'The spaces the caller can browse, by key; `archived=1` includes archived ones.',
    params: OrgPath,
    query: z.object({ archived: z._default(z.enum(['0', '1']), '0') }),
    run: async (ctx) => ok({ spaces: await listSpaces(actorOf(ctx), ctx.query.archived === '1') }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/spaces',
    scope: 'issues:write',
    summary:
      'Creates a space from a template (Jira’s issue types and workflows; `service` adds the service desk with ' +
      'the SLAs "Time to first response" and "Time to resolution") with its board; the caller leads it. ' +
      'Keys are unique in the organization, former keys included.',
    params: OrgPath,
    body: z.object({
      key: trimmed(2, 10),
      name: trimmed(1, 80),
      template: Template,
      description: z.optional(str(0, 2000)),
      leadId: z.optional(str(1, 64)),
      icon: z.optional(str(0, 16)),
      color: z.optional(Color),
    }),
    errors: { 400: [TRACKER_MESSAGES.keyFormat], 409: [TRACKER_MESSAGES.keyTaken] },
    run: async (ctx) => {
      const { space } = await createSpace(actorOf(ctx), ctx.body);
      return created({ space });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/spaces/:spaceKey',
    scope: 'issues:read',
    summary:
      'A space by key (former keys too) or `spc_` id, with the caller’s permissions, the 21 permission names in ' +
      'order, its versions and components.',
    params: SpacePath,
    errors: { 404: [TRACKER_MESSAGES.spaceNotFound] },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const space = await requireSpace(actor, ctx.params.spaceKey);
      const [versions, components] = await Promise.all([
        spaceVersions(actor.orgId, space.spaceId),
        spaceComponents(actor.orgId, space.spaceId),
      ]);
      return ok({
        space,
        permissions: permissionsFor(space, actor),
        allPermissions: [...PERMISSIONS],
        versions,
        components,
      });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/issues/spaces/:spaceKey',
    scope: 'issues:write',
    summary:
      'Changes a space’s name, key (old keys keep resolving; no issue is rewritten), lead, look, `archived` ' +
      'and configuration (each `config` field given replaces the stored one). Space administrators only.',
    params: SpacePath,
    body: z.object({
      name: z.optional(trimmed(1, 80)),
      key: z.optional(trimmed(2, 10)),
      description: z.optional(str(0, 2000)),
      leadId: z.optional(str(1, 64)),
      icon: z.optional(str(0, 16)),
      color: z.optional(Color),
      archived: z.optional(z.boolean()),
      config: z.optional(Config),
    }),
    errors: {
      400: [TRACKER_MESSAGES.keyFormat],
      403: [TRACKER_MESSAGES.administer],
      404: [TRACKER_MESSAGES.spaceNotFound],
      409: [TRACKER_MESSAGES.keyTaken],
    },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const config = ctx.body.config;
      if (config?.securityLevels) {
        for (const l of config.securityLevels)
          for (const g of l.grants) if (!GRANT_TYPES.includes(g.type)) throw badGrant(g.type);
      }
      const space = await patchSpace(actor, ctx.params.spaceKey, ctx.body as Parameters<typeof patchSpace>[2]);
      return ok({ space });
    },
  }),
];

const badGrant = (type: string) => invalid(`Unknown grant type: ${type}`);
