import * as z from 'zod/mini';
import { EVENT_KINDS } from '../../shared/domains/notifications/kinds';
import { listDeliveries, redeliver, requireDelivery, shownDelivery } from '../../shared/domains/webhooks/deliveries';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  requireEndpoint,
  rotateSecret,
  shownEndpoint,
  updateEndpoint,
  WEBHOOK_MESSAGES,
} from '../../shared/domains/webhooks/endpoints';
import { callerId } from '../../shared/kernel/auth/caller';
import type { Role } from '../../shared/kernel/auth/scopes';
import { conflict, invalid } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import { accepted, created, noContent, ok, route } from '../../shared/kernel/http/route';
import { plainText } from '../../shared/kernel/http/text-checks';
import { checkPublicUrl, UnresolvableHostError, UnsafeUrlError } from '../../shared/kernel/net/guarded-fetch';

const OrgPath = z.object({ orgId: z.string() });
const EndpointPath = z.object({ orgId: z.string(), endpointId: z.string() });
const DeliveryPath = z.object({ orgId: z.string(), endpointId: z.string(), deliveryId: z.string() });
const roles: { allow: Role[]; refusal: string } = {
  allow: ['owner', 'admin'],
  refusal: 'Only owners and admins can change webhooks.',
};
const UNRESOLVED = "The URL's host <host> does not resolve.";
const Url = z.string().check(z.minLength(1), z.maxLength(2048));
const Events = z.array(z.enum(EVENT_KINDS)).check(z.minLength(1), z.maxLength(EVENT_KINDS.length));
const Description = z.string().check(z.maxLength(300), plainText);

/** A public https URL, as the guarded fetch will reach it (its address is checked again at each try). */
async function publicUrl(raw: string): Promise<string> {
  try {
    return (await checkPublicUrl(raw)).toString();
  } catch (err) {
    // A name without an address says so: the URL may be right, its DNS not there yet.
    if (err instanceof UnresolvableHostError) throw invalid(err.message);
    if (err instanceof UnsafeUrlError) throw invalid(WEBHOOK_MESSAGES.url);
    throw err;
  }
}

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/webhooks',
    scope: 'org:read',
    summary: "The organization's webhook endpoints (their secrets never).",
    params: OrgPath,
    read: async ({ orgId }) => ({ endpoints: (await listEndpoints(orgId)).map(shownEndpoint) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/webhooks',
    scope: 'org:write',
    roles,
    summary:
      'Registers an endpoint for event kinds (those notifications raise). Each delivery is a POST signed as ' +
      'Standard Webhooks sign (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the secret answered ' +
      'here, once.',
    params: OrgPath,
    body: z.object({
      url: Url,
      events: Events,
      description: z.optional(Description),
      enabled: z._default(z.boolean(), true),
    }),
    errors: { 400: [WEBHOOK_MESSAGES.url, UNRESOLVED, WEBHOOK_MESSAGES.tooMany] },
    run: async ({ org, body, caller }) => {
      const url = await publicUrl(body.url);
      const { endpoint, secret } = await createEndpoint(
        org.orgId,
        { ...body, url, events: [...new Set(body.events)] },
        callerId(caller),
      );
      return created({ endpoint: shownEndpoint(endpoint), secret });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/webhooks/:endpointId',
    scope: 'org:read',
    summary: 'An endpoint.',
    params: EndpointPath,
    errors: { 404: [WEBHOOK_MESSAGES.notFound] },
    run: async ({ org, params }) =>
      ok({ endpoint: shownEndpoint(await requireEndpoint(org.orgId, params.endpointId)) }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/webhooks/:endpointId',
    scope: 'org:write',
    roles,
    summary:
      'Changes an endpoint: `url`, `events`, `description`, `enabled`; with `ifVersion`, only if it is still that version.',
    params: EndpointPath,
    body: z.object({
      url: z.optional(Url),
      events: z.optional(Events),
      description: z.optional(Description),
      enabled: z.optional(z.boolean()),
      ifVersion: z.optional(z.int()),
    }),
    errors: {
      400: [WEBHOOK_MESSAGES.url, UNRESOLVED, 'Nothing to update.'],
      404: [WEBHOOK_MESSAGES.notFound],
      409: [WEBHOOK_MESSAGES.changed],
    },
    run: async ({ org, params, body }) => {
      const e = await requireEndpoint(org.orgId, params.endpointId);
      const { ifVersion, ...changes } = body;
      const fields = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      if (Object.keys(fields).length === 0) throw invalid('Nothing to update.');
      if (ifVersion !== undefined && ifVersion !== e.version) throw conflict(WEBHOOK_MESSAGES.changed);
      if (body.url !== undefined) fields.url = await publicUrl(body.url);
      if (body.events !== undefined) fields.events = [...new Set(body.events)];
      return ok({ endpoint: shownEndpoint(await updateEndpoint(e, fields)) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/webhooks/:endpointId',
    scope: 'org:write',
    roles,
    summary: 'Removes an endpoint; deliveries still pending end failed.',
    params: EndpointPath,
    errors: { 404: [WEBHOOK_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      await deleteEndpoint(await requireEndpoint(org.orgId, params.endpointId));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/webhooks/:endpointId/secret',
    scope: 'org:write',
    roles,
    summary:
      'A new signing secret (answered once). The one it replaces signs beside it for 24 hours: each delivery then ' +
      'carries both signatures, so the receiver can switch without missing one.',
    params: EndpointPath,
    errors: { 404: [WEBHOOK_MESSAGES.notFound], 409: [WEBHOOK_MESSAGES.changed] },
    run: async ({ org, params }) => {
      const { endpoint, secret } = await rotateSecret(await requireEndpoint(org.orgId, params.endpointId));
      return ok({ endpoint: shownEndpoint(endpoint), secret });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/webhooks/:endpointId/deliveries',
    scope: 'org:read',
    summary:
      "The endpoint's deliveries, newest first, with each try's status or error and time: pages of `limit` (1-100).",
    params: EndpointPath,
    query: z.object({
      cursor: z.optional(z.string().check(z.maxLength(2000))),
      limit: queryInt(1, 100, 30),
    }),
    errors: { 400: ['Invalid page cursor. Run the request again.'], 404: [WEBHOOK_MESSAGES.notFound] },
    run: async ({ org, params, query }) => {
      const e = await requireEndpoint(org.orgId, params.endpointId);
      return ok(await listDeliveries(org.orgId, e.endpointId, query.limit, query.cursor));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/webhooks/:endpointId/deliveries/:deliveryId',
    scope: 'org:read',
    summary: 'A delivery with the payload it sends and its tries.',
    params: DeliveryPath,
    errors: { 404: [WEBHOOK_MESSAGES.notFound, WEBHOOK_MESSAGES.deliveryNotFound] },
    run: async ({ org, params }) => {
      const d = await requireDelivery(org.orgId, params.endpointId, params.deliveryId);
      return ok({ delivery: shownDelivery(d, true) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
    scope: 'org:write',
    roles,
    summary: 'Sends a delivery again, as a new delivery of the same payload (its own `webhook-id` and tries).',
    params: DeliveryPath,
    errors: { 404: [WEBHOOK_MESSAGES.notFound, WEBHOOK_MESSAGES.deliveryNotFound] },
    run: async ({ org, params }) => {
      const e = await requireEndpoint(org.orgId, params.endpointId);
      const copy = await redeliver(await requireDelivery(org.orgId, e.endpointId, params.deliveryId));
      return accepted({ delivery: shownDelivery(copy) });
    },
  }),
];
