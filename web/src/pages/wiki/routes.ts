import type { RouteObject } from 'react-router';
import { org, page } from '../../lib/route-kit';

/**
 * This area's pages, under `orgs/:orgId/pages` (each its own chunk): the tree with a new page, search,
 * favorites, a page, its editor and its history.
 */
export const pageRoutes: RouteObject[] = [
  { path: `${org}/pages`, ...page(() => import('./home')) },
  { path: `${org}/pages/search`, ...page(() => import('./search')) },
  { path: `${org}/pages/favorites`, ...page(() => import('./favorites')) },
  { path: `${org}/pages/:pageId`, ...page(() => import('./view')) },
  { path: `${org}/pages/:pageId/edit`, ...page(() => import('./edit')) },
  { path: `${org}/pages/:pageId/history`, ...page(() => import('./history')) },
];
