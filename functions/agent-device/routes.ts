import * as z from 'zod/mini';
import { fileRequest, LOGIN_INTERVAL, loginToken, startLogin } from '../../shared/agents/devices';
import { HttpError } from '../../shared/ground/errors';
import { ok, route } from '../../shared/http/route';

/** Where a person types the user code: the platform's own address (`<origin>/device`). */
function verificationUri(headers: Record<string, string | undefined>): string {
  const host = headers.host ?? 'localhost';
  const proto =
    headers['x-forwarded-proto'] ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}/device`;
}

export const routes = [
  route({
    method: 'POST',
    path: '/v1/agent/login',
    access: 'public',
    summary:
      'Starts a device login (RFC 8628): the device shows `userCode` for a person to approve ' +
      '(`POST /v1/orgs/:orgId/agents/login`) and asks `login/token` every `interval` seconds.',
    body: z.object({
      name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
      platform: z.optional(z.string().check(z.maxLength(64))),
      version: z.optional(z.string().check(z.maxLength(32))),
    }),
    run: async ({ body, event }) => {
      const login = await startLogin(body);
      const uri = verificationUri(event.headers);
      return ok({ ...login, verificationUri: uri, verificationUriComplete: `${uri}?code=${login.userCode}` });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/agent/login/token',
    access: 'public',
    summary:
      'The device token of an approved login, once: until then 400 `authorization_pending` (`slow_down` when ' +
      `asked more often than every ${LOGIN_INTERVAL} s), \`access_denied\` or \`expired_token\`.`,
    body: z.object({ deviceCode: z.string().check(z.minLength(1), z.maxLength(128)) }),
    errors: { 400: ['authorization_pending', 'slow_down', 'expired_token', 'access_denied'] },
    run: async ({ body }) => {
      const answer = await loginToken(body.deviceCode);
      if ('error' in answer) throw new HttpError(400, answer.error);
      return ok(answer);
    },
  }),
  route({
    method: 'POST',
    path: '/v1/agent/network-requests',
    access: 'device',
    summary: "Asks for a host the device's allowlist lacks (one pending request per host, refreshed when asked again).",
    body: z.object({
      host: z.string().check(z.trim(), z.toLowerCase(), z.minLength(3), z.maxLength(253)),
      reason: z.optional(z.string().check(z.maxLength(500))),
    }),
    run: async ({ body, caller }) => {
      if (caller.kind !== 'device') throw new HttpError(401, 'Unauthorized');
      await fileRequest(caller.orgId, caller.deviceId, body.host, body.reason);
      return ok({ ok: true });
    },
  }),
];
