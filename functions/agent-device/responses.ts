import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/http/responses';

/** Success responses of the agent device routes (see shared/http/responses.ts): documentation only. */
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
};
