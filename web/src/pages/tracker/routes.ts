import type { RouteObject } from 'react-router';
import { org, page } from '../../lib/route-kit';

/** This area's pages, under `orgs/:orgId/` (`org` and `page` from ../../lib/route-kit make lazy chunks). */
export const trackerRoutes: RouteObject[] = [
  { path: `${org}/tracker`, ...page(() => import('./spaces')) },
  { path: `${org}/tracker/boards/:boardId`, ...page(() => import('./board')) },
  { path: `${org}/tracker/boards/:boardId/backlog`, ...page(() => import('./backlog')) },
];
