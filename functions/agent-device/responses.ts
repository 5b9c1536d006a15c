import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the agent device routes (see shared/kernel/http/responses.ts): documentation only. */
export const responses: ResponseDocs = {
  'POST /v1/agent/login': {
    200: z.object({
      deviceCode: z.string(),
      userCode: z.string(),
      verificationUri: z.string(),
      verificationUriComplete: z.string(),
      interval: z.number(),
      expiresIn: z.number(),
    }),
  },
  'POST /v1/agent/login/token': { 200: z.object({ token: z.string(), deviceId: z.string(), orgId: z.string() }) },
  'POST /v1/agent/network-requests': { 200: z.object({ ok: z.literal(true) }) },
  'POST /v1/agent/poll': {
    200: z.object({
      policy: z.object({
        capabilities: z.array(z.enum(['http', 'browser', 'exec'])),
        networkMode: z.optional(z.enum(['allowlist', 'full'])),
        hosts: z.optional(z.array(z.string())),
      }),
      job: z.nullable(
        z.object({
          jobId: z.string(),
          type: z.enum(['http.batch', 'exec', 'browser.batch']),
          label: z.optional(z.string()),
          hosts: z.optional(z.array(z.string())),
          input: z.unknown(),
          uploadUrl: z.string(),
        }),
      ),
      nextPollMs: z.number(),
    }),
  },
  'POST /v1/agent/jobs/:jobId/heartbeat': { 200: z.object({ ok: z.literal(true), cancel: z.boolean() }) },
  'POST /v1/agent/jobs/:jobId/complete': { 200: z.object({ ok: z.literal(true) }) },
  'POST /v1/agent/jobs/:jobId/upload-url': { 200: z.object({ uploadUrl: z.string() }) },
};
