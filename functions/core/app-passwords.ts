import * as z from 'zod/mini';
import { forbidden } from '../../shared/kernel/ground/errors';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import {
  APP_PASSWORD_ACCESS,
  APP_PASSWORD_MESSAGES,
  APP_PASSWORD_SCOPES,
  createAppPassword,
  listAppPasswords,
  revokeAppPassword,
} from '../../shared/kernel/identity/app-passwords';

/**
 * A person's app passwords (`/v1/me/app-passwords`): what calendar and contacts programs sign in
 * to CalDAV and CardDAV with (docs/routes/dav.md), scoped, shown once, listed, revoked. People only.
 */
const personOf = (caller: { kind: string; userId?: string }) => {
  if (caller.kind !== 'user') throw forbidden(APP_PASSWORD_MESSAGES.peopleOnly);
  return caller.userId as string;
};

export const appPasswordRoutes = [
  route({
    method: 'POST',
    path: '/v1/me/app-passwords',
    access: 'token',
    summary:
      "Makes an app password for calendar and contacts programs (CalDAV, CardDAV: the person's email as the user name), scoped to `calendars` and/or `contacts`, `read` or `readwrite` (the default): the password is answered once, never again. At most 25 a person. People only.",
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100), oneLine),
      scopes: z._default(z.array(z.enum(APP_PASSWORD_SCOPES)).check(z.minLength(1), z.maxLength(2)), [
        'calendars',
        'contacts',
      ]),
      access: z._default(z.enum(APP_PASSWORD_ACCESS), 'readwrite'),
    }),
    errors: { 403: [APP_PASSWORD_MESSAGES.peopleOnly], 409: [APP_PASSWORD_MESSAGES.tooMany] },
    run: async ({ caller, body }) => created(await createAppPassword(personOf(caller), body)),
  }),
  route({
    method: 'GET',
    path: '/v1/me/app-passwords',
    access: 'token',
    summary:
      "The person's app passwords, newest first: name, scopes, access, when made and last used (never the password). People only.",
    errors: { 403: [APP_PASSWORD_MESSAGES.peopleOnly] },
    run: async ({ caller }) => ok({ appPasswords: await listAppPasswords(personOf(caller)) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/me/app-passwords/:passwordId',
    access: 'token',
    summary: "Revokes one of the person's app passwords: programs signed in with it get 401 from their next request.",
    params: z.object({ passwordId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    errors: { 403: [APP_PASSWORD_MESSAGES.peopleOnly], 404: [APP_PASSWORD_MESSAGES.notFound] },
    run: async ({ caller, params }) => {
      await revokeAppPassword(personOf(caller), params.passwordId);
      return noContent();
    },
  }),
];
