import * as z from 'zod/mini';
import {
  addDomain,
  deleteDomain,
  listDomains,
  PROVIDER_FAILED,
  patchDomain,
  toDomain,
  verify,
  writeRecords,
} from '../../shared/domains/custom-domains/domains';
import {
  authorize,
  connect,
  disconnect,
  finishOAuth,
  INTEGRATION_MESSAGES,
  readIntegration,
  toIntegration,
} from '../../shared/domains/custom-domains/integration';
import { ProviderKindSchema } from '../../shared/domains/custom-domains/provider-kinds';
import { DOMAIN_MESSAGES } from '../../shared/domains/custom-domains/records';
import {
  actorId,
  PROJECT_DELETING,
  PROJECT_NOT_FOUND,
  PROJECT_TRANSFERRING,
} from '../../shared/domains/projects/records';
import type { Role } from '../../shared/kernel/auth/scopes';
import { invalid } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';

const OrgPath = z.object({ orgId: z.string() });
const DomainPath = z.object({ orgId: z.string(), hostname: z.string().check(z.maxLength(300)) });
const Hostname = z.string().check(z.minLength(1), z.maxLength(300));
const roles: { allow: Role[]; refusal: string } = {
  allow: ['owner', 'admin'],
  refusal: 'Only owners and admins can change the DNS provider.',
};
const IN_USE = '<hostname> is already in use.';
const HOSTNAME_ERRORS = [
  DOMAIN_MESSAGES.tooLong,
  DOMAIN_MESSAGES.labelTooLong,
  DOMAIN_MESSAGES.twoLabels,
  DOMAIN_MESSAGES.wildcard,
  DOMAIN_MESSAGES.ipLiteral,
  DOMAIN_MESSAGES.invalid,
  'Hostnames under <apps domain> belong to the platform.',
];
const RoleCredentials = z.object({
  roleArn: z.string().check(z.regex(/^arn:aws:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/)),
  externalId: z.string().check(z.minLength(2), z.maxLength(1224)),
});
const TokenCredentials = z.object({ apiToken: z.string().check(z.minLength(1), z.maxLength(4096)) });
const Credentials = z.union([RoleCredentials, TokenCredentials, z.object({})]);
/** What each kind takes: a body whose credentials are another kind's is a 400, never a provider call. */
const CREDENTIALS_OF = {
  route53: {
    schema: RoleCredentials,
    message: 'Route 53 takes { roleArn, externalId }: a role the platform may assume.',
  },
  cloudflare: { schema: TokenCredentials, message: 'Cloudflare takes { apiToken }.' },
} as const;

function credentialsFor(kind: string, credentials: unknown): unknown {
  const rule = CREDENTIALS_OF[kind as keyof typeof CREDENTIALS_OF];
  if (!rule) return credentials;
  const parsed = z.safeParse(rule.schema, credentials);
  if (!parsed.success) throw invalid(rule.message);
  return parsed.data;
}

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/domains',
    scope: 'domains:read',
    summary: "The organization's custom domains by hostname, of one project with `projectId`; paged by `cursor`.",
    params: OrgPath,
    query: z.object({
      projectId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
      cursor: z.optional(z.string().check(z.maxLength(2048))),
      limit: queryInt(1, 100, 50),
    }),
    errors: { 400: [INVALID_CURSOR] },
    run: async ({ org, query }) => ok(await listDomains(org.orgId, query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/domains',
    scope: 'projects:write',
    summary:
      'Adds a custom domain to a project: `pending`, with the DNS `records` to create (routing CNAME, or ALIAS at ' +
      'an apex, and the TXT ownership token), its `zone`, and `dnsProvider` when the connected provider holds it. ' +
      'Re-checked every 5 minutes for 72 hours.',
    params: OrgPath,
    body: z.object({
      hostname: Hostname,
      projectId: z.string().check(z.minLength(1), z.maxLength(64)),
      redirectTo: z.optional(Hostname),
    }),
    errors: {
      400: HOSTNAME_ERRORS,
      404: [PROJECT_NOT_FOUND],
      409: [
        IN_USE,
        DOMAIN_MESSAGES.tooMany,
        DOMAIN_MESSAGES.redirectUnknown,
        DOMAIN_MESSAGES.redirectChain,
        PROJECT_DELETING,
        PROJECT_TRANSFERRING,
      ],
    },
    run: async ({ org, caller, body }) => created({ domain: toDomain(await addDomain(org.orgId, caller, body)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/domains/:hostname/verify',
    scope: 'projects:write',
    summary:
      'Checks DNS now: with the TXT and routing records found the domain becomes `active`; otherwise `message` ' +
      'names what is missing.',
    params: DomainPath,
    errors: { 404: [DOMAIN_MESSAGES.notFound] },
    run: async ({ org, params }) => ok({ domain: toDomain(await verify(org.orgId, params.hostname)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/domains/:hostname/dns-provider',
    scope: 'projects:write',
    summary: "Writes the domain's records through the organization's connected DNS provider; verify afterwards.",
    params: DomainPath,
    errors: {
      404: [DOMAIN_MESSAGES.notFound],
      409: [DOMAIN_MESSAGES.connectFirst, 'The connected DNS provider does not hold the zone <zone>.'],
      502: [PROVIDER_FAILED],
    },
    run: async ({ org, params }) => ok({ domain: toDomain(await writeRecords(org.orgId, params.hostname)) }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/domains/:hostname',
    scope: 'projects:write',
    summary:
      'Moves the domain to another project of the organization, or sets `redirectTo` (a 308 to another domain of ' +
      'the same project; no chains) or removes it with null.',
    params: DomainPath,
    body: z.object({
      projectId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
      redirectTo: z.optional(z.nullable(Hostname)),
      ifVersion: z.optional(z.int().check(z.minimum(1))),
    }),
    errors: {
      404: [DOMAIN_MESSAGES.notFound, PROJECT_NOT_FOUND],
      409: [
        DOMAIN_MESSAGES.changed,
        DOMAIN_MESSAGES.tooMany,
        DOMAIN_MESSAGES.redirectUnknown,
        DOMAIN_MESSAGES.redirectChain,
        DOMAIN_MESSAGES.redirectedTo,
        PROJECT_DELETING,
      ],
    },
    run: async ({ org, params, body }) => ok({ domain: toDomain(await patchDomain(org.orgId, params.hostname, body)) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/domains/:hostname',
    scope: 'projects:write',
    summary: 'Removes the domain: its routing, the records the platform wrote for it, and its reservation.',
    params: DomainPath,
    errors: { 404: [DOMAIN_MESSAGES.notFound], 409: [DOMAIN_MESSAGES.redirectedTo] },
    run: async ({ org, params }) => {
      await deleteDomain(org.orgId, params.hostname);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/integrations/dns-provider',
    scope: 'domains:read',
    roles: { allow: ['owner', 'admin'], refusal: 'Only owners and admins can see the DNS provider.' },
    summary:
      "The organization's DNS provider (owners and admins): `{ provider: null | { kind, connected, zones, connectedBy } }`.",
    params: OrgPath,
    read: ({ orgId }) => readIntegration(orgId),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/integrations/dns-provider',
    scope: 'projects:write',
    roles,
    summary:
      'Connects a DNS provider: `route53` with `{ roleArn, externalId }` (a role of your account the platform ' +
      'assumes), `cloudflare` with `{ apiToken }`, `local` on `npm start`. Checked by listing zones; stored encrypted.',
    params: OrgPath,
    body: z.object({ kind: ProviderKindSchema, credentials: Credentials }),
    errors: {
      400: [INTEGRATION_MESSAGES.refused, CREDENTIALS_OF.route53.message, CREDENTIALS_OF.cloudflare.message],
      502: [INTEGRATION_MESSAGES.unreachable],
    },
    run: async ({ org, caller, body }) =>
      ok(
        toIntegration(
          await connect(org.orgId, actorId(caller), body.kind, credentialsFor(body.kind, body.credentials) as never),
        ),
      ),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/integrations/dns-provider',
    scope: 'projects:write',
    roles,
    summary: 'Disconnects the DNS provider (records it wrote stay).',
    params: OrgPath,
    run: async ({ org }) => {
      await disconnect(org.orgId);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/integrations/dns-provider/authorize',
    scope: 'projects:write',
    roles,
    summary:
      "Starts a provider's OAuth sign-in: `{ url }` to open; its state is good once, for 10 minutes, for this " +
      'person and organization.',
    params: OrgPath,
    body: z.object({ kind: ProviderKindSchema }),
    errors: { 400: [INTEGRATION_MESSAGES.noOAuth] },
    run: async ({ org, caller, body }) => ok({ url: await authorize(org.orgId, actorId(caller), body.kind) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/integrations/dns-provider/oauth',
    scope: 'projects:write',
    roles,
    summary: "Finishes the OAuth sign-in with the provider's `code` and `state`: the provider is connected.",
    params: OrgPath,
    body: z.object({
      code: z.string().check(z.minLength(1), z.maxLength(4096)),
      state: z.string().check(z.minLength(1), z.maxLength(256)),
    }),
    errors: { 400: [INTEGRATION_MESSAGES.refused], 409: [INTEGRATION_MESSAGES.startAgain] },
    run: async ({ org, caller, body }) =>
      ok(toIntegration(await finishOAuth(org.orgId, actorId(caller), body.code, body.state))),
  }),
];
