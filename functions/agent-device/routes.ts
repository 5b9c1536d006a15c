import * as z from 'zod/mini';
import {
  DEVICE_MESSAGES,
  fileRequest,
  LOGIN_INTERVAL,
  loginToken,
  markSeen,
  requireDevice,
  startLogin,
} from '../../shared/domains/agents/devices';
import {
  claimNext,
  completeJob,
  heartbeat,
  JOB_MESSAGES,
  resultsLink,
  uploadUrl,
} from '../../shared/domains/agents/jobs';
import type { Caller } from '../../shared/kernel/auth/caller';
import { HttpError } from '../../shared/kernel/http/http-error';
import { ok, route } from '../../shared/kernel/http/route';
import { verificationUri } from '../../shared/kernel/http/verification-uri';

const JobPath = z.object({ jobId: z.string() });

/** The calling device (a revoked one has no working token: 401 before this). */
async function deviceOf(caller: Caller) {
  if (caller.kind !== 'device') throw new HttpError(401, 'Unauthorized');
  const device = await requireDevice(caller.orgId, caller.deviceId);
  if (device.status !== 'active') throw new HttpError(401, 'Unauthorized');
  return device;
}

/** How long a device waits before its next poll: soon after work, a few seconds when idle, with jitter. */
const nextPoll = (busy: boolean) => (busy ? 1000 : 5000) + Math.floor(Math.random() * 1000);

export const routes = [
  route({
    method: 'POST',
    path: '/v1/agent/poll',
    access: 'device',
    summary:
      "Marks the device seen, answers its policy and claims the oldest queued job it may run (its type's " +
      'capability, hosts within the allowlist), with a results link; `nextPollMs` says when to ask again.',
    body: z.object({
      version: z.optional(z.string().check(z.maxLength(32))),
      platform: z.optional(z.string().check(z.maxLength(64))),
    }),
    run: async ({ body, caller }) => {
      const device = await deviceOf(caller);
      const [job] = await Promise.all([claimNext(device), markSeen(device, body)]);
      return ok({
        policy: { capabilities: device.capabilities, networkMode: device.networkMode, hosts: device.hosts },
        job: job
          ? {
              jobId: job.jobId,
              type: job.type,
              ...(job.label ? { label: job.label } : {}),
              hosts: job.hosts,
              input: job.input,
              uploadUrl: await resultsLink(job),
            }
          : null,
        nextPollMs: nextPoll(job !== undefined),
      });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/agent/jobs/:jobId/heartbeat',
    access: 'device',
    summary: 'Keeps a running job alive (every 30 s; after 2 minutes without one it fails); `cancel` says stop.',
    params: JobPath,
    body: z.object({ progress: z.optional(z.string().check(z.maxLength(500))) }),
    errors: { 404: [JOB_MESSAGES.notFound] },
    run: async ({ params, caller }) => ok(await heartbeat(await deviceOf(caller), params.jobId)),
  }),
  route({
    method: 'POST',
    path: '/v1/agent/jobs/:jobId/complete',
    access: 'device',
    summary: 'Ends a job the device ran: `done` or `failed` (while canceling: `canceled`); a repeat changes nothing.',
    params: JobPath,
    body: z.object({ status: z.enum(['done', 'failed']), error: z.optional(z.string().check(z.maxLength(2000))) }),
    errors: { 404: [JOB_MESSAGES.notFound] },
    run: async ({ params, body, caller }) => {
      await completeJob(await deviceOf(caller), params.jobId, body);
      return ok({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/agent/jobs/:jobId/upload-url',
    access: 'device',
    summary: 'A fresh results link (PUT, JSON, 15 minutes, 100 MB at most) for a job still running.',
    params: JobPath,
    errors: { 404: [JOB_MESSAGES.notFound] },
    run: async ({ params, caller }) => ok({ uploadUrl: await uploadUrl(await deviceOf(caller), params.jobId) }),
  }),
  route({
    method: 'POST',
    path: '/v1/agent/login',
    access: 'public',
    summary:
      'Starts a device login (RFC 8628): the device shows `userCode` for a person to approve ' +
      '(`POST /v1/orgs/:orgId/agents/login`) and asks `login/token` every `interval` seconds. `capabilities` ' +
      '(default `http`) are what the program asks to run: approving the login grants them (`http` always).',
    body: z.object({
      name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
      platform: z.optional(z.string().check(z.maxLength(64))),
      version: z.optional(z.string().check(z.maxLength(32))),
      capabilities: z.optional(z.array(z.enum(['http', 'browser', 'exec'])).check(z.maxLength(3))),
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
    errors: { 400: [DEVICE_MESSAGES.badHost('<host>')] },
    run: async ({ body, caller }) => {
      const device = await deviceOf(caller);
      await fileRequest(device.orgId, device.deviceId, body.host, body.reason, true);
      return ok({ ok: true });
    },
  }),
];
