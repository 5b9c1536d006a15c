import type { RouteObject } from 'react-router';
import { org, page } from '../../lib/route-kit';

/** This area's pages, under `orgs/:orgId/` (`org` and `page` from ../../lib/route-kit make lazy chunks). */
export const mailRoutes: RouteObject[] = [
  { path: `${org}/mail`, ...page(() => import('./mail-index')) },
  { path: `${org}/mail/:mailboxId`, ...page(() => import('./mail-list')) },
  { path: `${org}/mail/:mailboxId/threads/:threadId`, ...page(() => import('./mail-thread')) },
  { path: `${org}/mail/:mailboxId/compose`, ...page(() => import('./mail-compose')) },
];
