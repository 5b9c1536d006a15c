import type { RouteObject } from 'react-router';
import { org, page } from '../../lib/route-kit';

/** This area's pages, under `orgs/:orgId/` (`org` and `page` from ../../lib/route-kit make lazy chunks). */
export const issueRoutes: RouteObject[] = [
  { path: `${org}/tracker/search`, ...page(() => import('./search')) },
  { path: `${org}/tracker/issues/new`, ...page(() => import('./new-issue')) },
  { path: `${org}/tracker/issues/:issueKey`, ...page(() => import('./issue')) },
];
