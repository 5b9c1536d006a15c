import type { RouteObject } from 'react-router';
import { org, page } from '../../lib/route-kit';

/** This area's pages, under `orgs/:orgId/` (`org` and `page` from ../../lib/route-kit make lazy chunks). */
export const calendarRoutes: RouteObject[] = [
  { path: `${org}/calendar`, ...page(() => import('./calendar')) },
  { path: `${org}/calendar/new`, ...page(() => import('./event')) },
  { path: `${org}/calendar/events/:calendarId/:eventId`, ...page(() => import('./event')) },
  { path: `${org}/contacts`, ...page(() => import('./contacts')) },
  { path: `${org}/contacts/new`, ...page(() => import('./contact')) },
  { path: `${org}/contacts/:addressBookId/:contactId`, ...page(() => import('./contact')) },
];
