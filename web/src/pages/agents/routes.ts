import type { RouteObject } from 'react-router';
import { org, page } from '../../lib/route-kit';

/**
 * This area's pages, under `orgs/:orgId/`, and the device login's approval at the app's root
 * (`/device?code=…`): a device code names no organization (the person picks one when approving),
 * and the command line's own login by device code has none at all.
 */
export const agentRoutes: RouteObject[] = [
  { path: `${org}/agents`, ...page(() => import('./agents')) },
  { path: `${org}/agents/jobs/:jobId`, ...page(() => import('./job')) },
  { path: `${org}/agents/approve`, ...page(() => import('./approve')) },
  { path: 'device', ...page(() => import('./approve')) },
];
