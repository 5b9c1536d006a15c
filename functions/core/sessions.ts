import * as z from 'zod/mini';
import { forbidden } from '../../shared/kernel/ground/errors';
import { HttpError } from '../../shared/kernel/http/http-error';
import { ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { verificationUri } from '../../shared/kernel/http/verification-uri';
import {
  answerSessionLogin,
  listSessions,
  revokeSession,
  SESSION_MESSAGES,
  sessionToken,
  startSessionLogin,
} from '../../shared/kernel/identity/sessions';

/**
 * People's command-line logins by device code (RFC 8628, as `gh auth login`): the command line
 * starts one and polls for its token; the person approves the user code while signed in (the
 * approval page at `<origin>/device`, or this API); the token acts as the person. Their sessions
 * are listed and revoked under `/v1/me/sessions`.
 */
const personOnly = (caller: { kind: string }) => {
  if (caller.kind !== 'user') throw forbidden(SESSION_MESSAGES.peopleOnly);
};

export const sessionRoutes = [
  route({
    method: 'POST',
    path: '/v1/login/device',
    access: 'public',
    summary:
      "Starts a person's login by device code (RFC 8628): the command line shows `userCode` and " +
      '`verificationUri` for the person to approve while signed in, and asks `login/device/token` every ' +
      '`interval` seconds until then.',
    body: z.object({
      name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64), oneLine)),
      platform: z.optional(z.string().check(z.maxLength(64), oneLine)),
      version: z.optional(z.string().check(z.maxLength(32), oneLine)),
    }),
    run: async ({ body, event }) => {
      const login = await startSessionLogin(body);
      const uri = verificationUri(event.headers);
      return ok({ ...login, verificationUri: uri, verificationUriComplete: `${uri}?code=${login.userCode}` });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/login/device/token',
    access: 'public',
    summary:
      'The session token of an approved login, once (it acts as the person, 90 days): until then 400 ' +
      '`authorization_pending` (`slow_down` when asked more often than `interval`), `access_denied` or `expired_token`.',
    body: z.object({ deviceCode: z.string().check(z.minLength(1), z.maxLength(128)) }),
    errors: { 400: ['authorization_pending', 'slow_down', 'expired_token', 'access_denied'] },
    run: async ({ body }) => {
      const answer = await sessionToken(body.deviceCode);
      if ('error' in answer) throw new HttpError(400, answer.error);
      return ok(answer);
    },
  }),
  route({
    method: 'POST',
    path: '/v1/login/device/answer',
    access: 'token',
    summary:
      "Answers a login's user code as the signed-in person: approved, that command line acts as them. People only.",
    body: z.object({
      userCode: z.string().check(z.minLength(1), z.maxLength(16)),
      approve: z._default(z.boolean(), true),
    }),
    errors: {
      403: [SESSION_MESSAGES.peopleOnly],
      404: [SESSION_MESSAGES.codeNotFound],
      409: [SESSION_MESSAGES.codeUsed],
    },
    run: async ({ body, caller }) => {
      personOnly(caller);
      await answerSessionLogin(
        caller as { userId: string; email?: string; name?: string },
        body.userCode,
        body.approve,
      );
      return ok({ ok: true });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/me/sessions',
    access: 'token',
    summary: "The person's command-line sessions (never their tokens), newest first. People only.",
    errors: { 403: [SESSION_MESSAGES.peopleOnly] },
    run: async ({ caller }) => {
      personOnly(caller);
      return ok({ sessions: await listSessions((caller as { userId: string }).userId) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/me/sessions/:sessionId',
    access: 'token',
    summary: "Ends one of the person's command-line sessions: its token stops working at once.",
    params: z.object({ sessionId: z.string() }),
    errors: { 403: [SESSION_MESSAGES.peopleOnly], 404: [SESSION_MESSAGES.sessionNotFound] },
    run: async ({ caller, params }) => {
      personOnly(caller);
      await revokeSession((caller as { userId: string }).userId, params.sessionId);
      return { status: 204 };
    },
  }),
];
