import * as z from 'zod/mini';
import type { NotifyEvent } from './kinds';

/**
 * The notify worker's messages (lib/workers.ts): an event to deliver, or a later step of a notice
 * (a timer, with the time it was due: the step is judged as of then at the earliest, so a timer
 * that fires a little early, or a test's clock, is not held by quiet hours that have ended).
 */
export const NotifyMessage = z.union([
  z.object({
    type: z.literal('event'),
    event: z.custom<NotifyEvent>((e) => typeof (e as { eventId?: unknown } | null)?.eventId === 'string'),
  }),
  z.object({
    type: z.literal('step'),
    userId: z.string(),
    noticeId: z.string(),
    step: z.int(),
    at: z.optional(z.number()),
  }),
]);
export type NotifyMessage = z.infer<typeof NotifyMessage>;
