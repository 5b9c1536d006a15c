import * as z from 'zod/mini';
import {
  CREDENTIAL_NOT_FOUND,
  createCredential,
  deleteCredential,
  GIT_SCOPES,
  listCredentials,
  toCredential,
} from '../../shared/domains/repos/credentials';
import { forbidden } from '../../shared/kernel/ground/errors';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';

const PEOPLE_ONLY = 'Git credentials belong to people: sign in to make one.';
const DAY = 86_400_000;

/** Git credentials are a person's: keys get the 403, and each person sees and deletes only their own. */
function personOf(caller: { kind: string; userId?: string }): string {
  if (caller.kind !== 'user' || !caller.userId) throw forbidden(PEOPLE_ONLY);
  return caller.userId;
}

export const credentialRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/git-credentials',
    scope: 'git:read',
    summary: "The caller's git credentials in this organization, newest first; passwords are never shown again.",
    errors: { 403: [PEOPLE_ONLY] },
    run: async ({ org, caller }) => {
      const userId = personOf(caller);
      return ok({ credentials: (await listCredentials(org.orgId, userId)).map(toCredential) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/git-credentials',
    scope: 'git:read',
    summary:
      'Makes a password for git over HTTPS (any user name): its git scopes as far as the caller holds them, an ' +
      'expiry in days (90 unless given). The password is shown once; at each use it grants only what the ' +
      "person's role still allows.",
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
      scopes: z.array(z.enum(GIT_SCOPES)).check(z.minLength(1), z.maxLength(2)),
      expiresInDays: z._default(z.int().check(z.minimum(1), z.maximum(366)), 90),
    }),
    errors: { 403: [PEOPLE_ONLY, 'You need ... to give it.'] },
    run: async ({ org, caller, body, scopes }) => {
      const userId = personOf(caller);
      const wanted = [...new Set(body.scopes)];
      for (const s of wanted) if (!scopes.has(s)) throw forbidden(`You need ${s} to give it.`);
      const { credential, password } = await createCredential({
        orgId: org.orgId,
        userId,
        name: body.name,
        scopes: wanted,
        expiresAt: Date.now() + body.expiresInDays * DAY,
      });
      return created({ credential: toCredential(credential), username: 'git', password });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/git-credentials/:keyId',
    scope: 'git:read',
    summary: 'Deletes one of your git credentials: it stops working at once.',
    params: z.object({ orgId: z.string(), keyId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    errors: { 403: [PEOPLE_ONLY], 404: [CREDENTIAL_NOT_FOUND] },
    run: async ({ org, caller, params }) => {
      await deleteCredential(org.orgId, personOf(caller), params.keyId);
      return noContent();
    },
  }),
];
