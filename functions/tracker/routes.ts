import { issueRoutes } from './issue-routes';
import { spaceRoutes } from './space-routes';

/**
 * The tracker group (`/v1/orgs/{orgId}/issues`): spaces, boards and sprints, issues and their
 * parts, search, rank, bulk changes, import and export. Literal paths come before `:issueKey`.
 */
export const routes = [...spaceRoutes, ...issueRoutes];
