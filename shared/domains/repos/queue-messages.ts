import * as z from 'zod/mini';

/** What the repo-archives worker is sent: one archive of a commit (lib/workers.ts). */
export const ArchiveJob = z.object({
  repoId: z.string(),
  commit: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
  format: z.enum(['zip', 'tar.gz']),
  requestedAt: z.number(),
});
export type ArchiveJob = z.infer<typeof ArchiveJob>;
