import type { RouteObject } from 'react-router';
import { org, page } from '../../lib/route-kit';

/** This area's pages, under `orgs/:orgId/` (`org` and `page` from ../../lib/route-kit make lazy chunks). */
export const notificationRoutes: RouteObject[] = [
  { path: `${org}/notifications`, ...page(() => import('./notices')) },
  { path: `${org}/notifications/protocols`, ...page(() => import('./protocols')) },
];
