import * as z from 'zod/mini';
import { RESOURCE_TYPES, type ResourceType } from '../../shared/domains/notifications/kinds';
import {
  attach,
  createProtocol,
  deleteProtocol,
  detach,
  listProtocols,
  PROTOCOL_MESSAGES,
  replaceProtocol,
  requireProtocol,
  shownProtocol,
} from '../../shared/domains/notifications/protocols';
import { ProtocolBody, ResourceTypeSchema } from '../../shared/domains/notifications/schemas';
import { TEMPLATES } from '../../shared/domains/notifications/templates';
import { callerId } from '../../shared/kernel/auth/caller';
import type { Role } from '../../shared/kernel/auth/scopes';
import { conflict, invalid } from '../../shared/kernel/ground/errors';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { checkTarget, NOT_ATTACHABLE } from './targets';

const OrgPath = z.object({ orgId: z.string() });
const ProtocolPath = z.object({ orgId: z.string(), protocolId: z.string() });
const roles: { allow: Role[]; refusal: string } = {
  allow: ['owner', 'admin'],
  refusal: 'Only owners and admins can change notification protocols.',
};

/** The organization's notification protocols and their attachments (`…/notify/protocols`). */
export const protocolRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/notify/protocols/templates',
    access: 'token',
    summary: 'The protocol templates a protocol can be made from (`{ template }`).',
    params: OrgPath,
    run: async () => ok({ templates: TEMPLATES }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/notify/protocols',
    scope: 'org:read',
    summary: "The organization's notification protocols, oldest first.",
    params: OrgPath,
    read: async ({ orgId }) => ({ protocols: (await listProtocols(orgId)).map(shownProtocol) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/notify/protocols',
    scope: 'org:write',
    roles,
    summary:
      'Creates a protocol: `{ template }` copies a template, else `{ name, description?, enabled?, rules }`. ' +
      'A protocol attached nowhere holds for the whole organization.',
    params: OrgPath,
    body: z.union([z.object({ template: z.string().check(z.maxLength(64)) }), ProtocolBody]),
    errors: { 400: [PROTOCOL_MESSAGES.unknownTemplate, PROTOCOL_MESSAGES.tooMany] },
    run: async ({ org, body, caller }) => {
      let input: z.infer<typeof ProtocolBody>;
      if ('template' in body) {
        const t = TEMPLATES.find((x) => x.id === body.template);
        if (!t) throw invalid(PROTOCOL_MESSAGES.unknownTemplate);
        input = { name: t.name, description: t.description, enabled: true, rules: t.rules };
      } else input = body;
      return created({ protocol: shownProtocol(await createProtocol(org.orgId, input, callerId(caller))) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId',
    scope: 'org:read',
    summary: 'A protocol with its rules and attachments.',
    params: ProtocolPath,
    errors: { 404: [PROTOCOL_MESSAGES.notFound] },
    run: async ({ org, params }) =>
      ok({ protocol: shownProtocol(await requireProtocol(org.orgId, params.protocolId)) }),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId',
    scope: 'org:write',
    roles,
    summary: 'Replaces a protocol (attachments stay); with `ifVersion`, only if it is still that version.',
    params: ProtocolPath,
    body: z.extend(ProtocolBody, { ifVersion: z.optional(z.int()) }),
    errors: { 404: [PROTOCOL_MESSAGES.notFound], 409: [PROTOCOL_MESSAGES.changed] },
    run: async ({ org, params, body }) => {
      const p = await requireProtocol(org.orgId, params.protocolId, true);
      const { ifVersion, ...input } = body;
      if (ifVersion !== undefined && ifVersion !== p.version) throw conflict(PROTOCOL_MESSAGES.changed);
      return ok({ protocol: shownProtocol(await replaceProtocol(p, input, ifVersion)) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId',
    scope: 'org:write',
    roles,
    summary: 'Deletes a protocol and its attachments.',
    params: ProtocolPath,
    errors: { 404: [PROTOCOL_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      await deleteProtocol(await requireProtocol(org.orgId, params.protocolId, true));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId/attachments',
    scope: 'org:write',
    roles,
    summary:
      'Attaches a resource: its events follow this protocol (and not the organization-wide ones). ' +
      '`org` names this organization; a project, device, space (`spc_` id), mailbox or calendar must be one of ' +
      'the organization.',
    params: ProtocolPath,
    body: z.object({
      type: ResourceTypeSchema,
      id: z.string().check(z.minLength(1), z.maxLength(128)),
      label: z.optional(z.string().check(z.maxLength(120))),
    }),
    errors: {
      400: [NOT_ATTACHABLE.org, NOT_ATTACHABLE.prefix, PROTOCOL_MESSAGES.tooManyAttachments],
      404: [
        PROTOCOL_MESSAGES.notFound,
        NOT_ATTACHABLE.project,
        NOT_ATTACHABLE.agent,
        NOT_ATTACHABLE.space,
        NOT_ATTACHABLE.mailbox,
        NOT_ATTACHABLE.calendar,
      ],
      409: [PROTOCOL_MESSAGES.changed],
    },
    run: async ({ org, params, body }) => {
      const p = await requireProtocol(org.orgId, params.protocolId, true);
      await checkTarget(org.orgId, body.type, body.id);
      await attach(p, {
        resourceType: body.type,
        resourceId: body.id,
        ...(body.label !== undefined ? { resourceLabel: body.label } : {}),
      });
      return created({ ok: true });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId/attachments/:resourceType/:targetId',
    scope: 'org:write',
    roles,
    summary: 'Detaches a resource.',
    params: z.object({ orgId: z.string(), protocolId: z.string(), resourceType: z.string(), targetId: z.string() }),
    errors: {
      400: [PROTOCOL_MESSAGES.unknownType],
      404: [PROTOCOL_MESSAGES.notFound, PROTOCOL_MESSAGES.attachmentNotFound],
      409: [PROTOCOL_MESSAGES.changed],
    },
    run: async ({ org, params }) => {
      const type = params.resourceType as ResourceType;
      if (!RESOURCE_TYPES.includes(type)) throw invalid(PROTOCOL_MESSAGES.unknownType);
      await detach(await requireProtocol(org.orgId, params.protocolId, true), type, params.targetId);
      return noContent();
    },
  }),
];
