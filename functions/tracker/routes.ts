import { boardRoutes } from './board-routes';
import { issueRoutes } from './issue-routes';
import { partRoutes } from './part-routes';
import { releaseRoutes } from './release-routes';
import { searchRoutes } from './search-routes';
import { spaceRoutes } from './space-routes';
import { sprintRoutes } from './sprint-routes';

/**
 * The tracker group (`/v1/orgs/{orgId}/issues`): spaces, boards and sprints, search, rank, bulk
 * changes, then the issues and their parts (literal paths before `:issueKey`).
 */
export const routes = [
  ...spaceRoutes,
  ...boardRoutes,
  ...sprintRoutes,
  ...searchRoutes,
  ...issueRoutes,
  ...partRoutes,
  ...releaseRoutes,
];
