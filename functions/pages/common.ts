import * as z from 'zod/mini';
import { PAGE_MESSAGES } from '../../shared/domains/pages/records';
import type { Role, Scope } from '../../shared/kernel/auth/scopes';

/** What the pages group's route files share. */
export const PagePath = z.object({ orgId: z.string(), pageId: z.string() });
export const Version = z.int().check(z.minimum(0));

/** People above viewer write pages; keys need org:write (the spec names no scope here). */
export const WRITERS: { allow: Role[]; refusal: string; keyScope: Scope } = {
  allow: ['owner', 'admin', 'developer'],
  refusal: PAGE_MESSAGES.viewer,
  keyScope: 'org:write',
};
