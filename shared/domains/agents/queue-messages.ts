import * as z from 'zod/mini';

/**
 * The agent workers' queue messages (lib/workers.ts: each queue row names its schema; the worker's
 * batch parses every message with it before its handler runs, and the senders are typed by it).
 */

/** What the agent-callbacks worker is sent: a job that ended, and how many tries were made. */
export const CallbackMessage = z.object({ orgId: z.string(), jobId: z.string(), attempt: z.int() });
export type CallbackMessage = z.infer<typeof CallbackMessage>;

/** What the agent-checks worker is sent: a job to read when it could have expired or its device stopped. */
export const JobCheckMessage = z.object({ orgId: z.string(), jobId: z.string() });
export type JobCheckMessage = z.infer<typeof JobCheckMessage>;
