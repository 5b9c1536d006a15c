import * as z from 'zod/mini';
import { ROLES, SCOPES } from '../../shared/kernel/auth/scopes';
import type { ResponseDocs } from '../../shared/kernel/http/responses';
import {
  InviteAnswer as Invite,
  MemberAnswer as Member,
  OrganizationAnswer as Organization,
} from '../../shared/kernel/identity/answers';

/** Success responses of the core routes (see shared/kernel/http/responses.ts): documentation only. */
const OrgEntry = z.object({
  orgId: z.string(),
  slug: z.string(),
  name: z.string(),
  kind: z.enum(['platform', 'customer']),
  role: z.nullable(z.enum(ROLES)),
  scopes: z.array(z.enum(SCOPES)),
});

const MyInvite = z.extend(Invite, { org: z.object({ orgId: z.string(), slug: z.string(), name: z.string() }) });

const DeviceCode = z.object({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationUri: z.string(),
  verificationUriComplete: z.string(),
  interval: z.number(),
  expiresIn: z.number(),
});

const AppPassword = z.object({
  passwordId: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(['calendars', 'contacts'])),
  access: z.enum(['read', 'readwrite']),
  createdAt: z.number(),
  lastUsedAt: z.nullable(z.number()),
});

export const responses: ResponseDocs = {
  'POST /v1/me/app-passwords': { 201: z.object({ appPassword: AppPassword, password: z.string() }) },
  'GET /v1/me/app-passwords': { 200: z.object({ appPasswords: z.array(AppPassword) }) },
  'DELETE /v1/me/app-passwords/:passwordId': { 204: null },
  'GET /v1/me/device-codes/:userCode': {
    200: z.object({
      deviceCode: z.object({
        kind: z.enum(['agent-device', 'command-line']),
        userCode: z.string(),
        name: z.nullable(z.string()),
        platform: z.nullable(z.string()),
        capabilities: z.array(z.string()),
        status: z.enum(['pending', 'approved', 'denied', 'issued']),
      }),
    }),
  },
  'POST /v1/login/device': { 200: DeviceCode },
  'POST /v1/login/device/token': {
    200: z.object({ token: z.string(), sessionId: z.string(), expiresAt: z.number() }),
  },
  'POST /v1/login/device/answer': { 200: z.object({ ok: z.literal(true) }) },
  'GET /v1/me/sessions': {
    200: z.object({
      sessions: z.array(
        z.object({ sessionId: z.string(), label: z.string(), createdAt: z.number(), expiresAt: z.number() }),
      ),
    }),
  },
  'DELETE /v1/me/sessions/:sessionId': { 204: null },
  'GET /health': {
    200: {
      content: { 'application/json': z.object({ ok: z.literal(true), time: z.number() }) },
      headers: { 'Cache-Control': '`no-store`' },
    },
  },
  'GET /v1/me': {
    200: z.object({
      me: z.object({
        kind: z.enum(['user', 'api_key', 'agent_key']),
        userId: z.optional(z.string()),
        keyId: z.optional(z.string()),
        email: z.optional(z.nullable(z.string())),
        name: z.optional(z.nullable(z.string())),
        scopes: z.optional(z.array(z.enum(SCOPES))),
        orgs: z.array(OrgEntry),
      }),
    }),
  },
  'GET /v1/locations': {
    200: z.object({
      locations: z.array(z.object({ id: z.string(), name: z.string(), region: z.string(), default: z.boolean() })),
      default: z.string(),
    }),
  },
  'POST /v1/orgs': { 201: z.object({ org: Organization, member: Member }) },
  'GET /v1/me/invites': { 200: z.object({ invites: z.array(MyInvite) }) },
  'POST /v1/me/invites/:inviteId/accept': { 200: z.object({ org: Organization, member: Member }) },
};
