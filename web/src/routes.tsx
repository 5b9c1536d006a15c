import { createBrowserRouter } from 'react-router';
import { org, page } from './lib/route-kit';
import { agentRoutes } from './pages/agents/routes';
import { calendarRoutes } from './pages/calendar/routes';
import { Home } from './pages/home';
import { issueRoutes } from './pages/issues/routes';
import { mailRoutes } from './pages/mail/routes';
import { notificationRoutes } from './pages/notifications/routes';
import { trackerRoutes } from './pages/tracker/routes';
import { pageRoutes } from './pages/wiki/routes';
import { Layout, RouteError } from './ui/layout';

const repo = `${org}/repos/:name`;

/**
 * Made on first use, after the start has put the address the person comes back to in place (the
 * router reads the location once, when it is made).
 */
let router: ReturnType<typeof createBrowserRouter> | undefined;
export const appRouter = () =>
  (router ??= createBrowserRouter(
    [
      {
        path: '/',
        Component: Layout,
        ErrorBoundary: RouteError,
        children: [
          { index: true, Component: Home },
          { path: org, Component: Home },
          { path: `${org}/projects`, ...page(() => import('./pages/projects')) },
          { path: `${org}/projects/:projectId`, ...page(() => import('./pages/project')) },
          { path: `${org}/projects/:projectId/settings`, ...page(() => import('./pages/project-settings')) },
          { path: `${org}/projects/:projectId/env`, ...page(() => import('./pages/project-env')) },
          { path: `${org}/projects/:projectId/domains`, ...page(() => import('./pages/project-domains')) },
          { path: `${org}/deployments`, ...page(() => import('./pages/deployments')) },
          { path: `${org}/deployments/:deploymentId`, ...page(() => import('./pages/deployment')) },
          { path: `${org}/repos`, ...page(() => import('./pages/repos')) },
          { path: repo, ...page(() => import('./pages/repo-code')) },
          { path: `${repo}/edit`, ...page(() => import('./pages/repo-edit')) },
          { path: `${repo}/branches`, ...page(() => import('./pages/repo-branches')) },
          { path: `${repo}/commits`, ...page(() => import('./pages/repo-commits')) },
          { path: `${repo}/settings`, ...page(() => import('./pages/repo-settings')) },
          { path: `${repo}/pulls`, ...page(() => import('./pages/pulls')) },
          { path: `${repo}/pulls/new`, ...page(() => import('./pages/pull-new')) },
          { path: `${repo}/pulls/:number`, ...page(() => import('./pages/pull')) },
          { path: `${org}/members`, ...page(() => import('./pages/members')) },
          { path: `${org}/keys`, ...page(() => import('./pages/keys')) },
          { path: `${org}/audit`, ...page(() => import('./pages/audit')) },
          // The work apps (part two): each area's routes in its own folder.
          ...trackerRoutes,
          ...issueRoutes,
          ...mailRoutes,
          ...calendarRoutes,
          ...pageRoutes,
          ...notificationRoutes,
          ...agentRoutes,
          { path: '*', ...page(() => import('./pages/not-found')) },
        ],
      },
    ],
    { basename: import.meta.env.BASE_URL.replace(/\/$/, '') },
  ));
