import type { RouteObject } from 'react-router';

/** This area's pages, under `orgs/:orgId/` (`org` and `page` from ../../lib/route-kit make lazy chunks). */
export const issueRoutes: RouteObject[] = [];
