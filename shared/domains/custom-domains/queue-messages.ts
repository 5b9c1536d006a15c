import * as z from 'zod/mini';

/** What the domain-checks worker is sent: a custom domain whose DNS check is due (lib/workers.ts). */
export const CheckMessage = z.object({ orgId: z.string(), hostname: z.string(), due: z.number() });
export type CheckMessage = z.infer<typeof CheckMessage>;
