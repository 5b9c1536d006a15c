import { itemRoutes } from './items';
import { tableRoutes } from './tables';

/** The databases group (`/v1/orgs/{orgId}/databases`): the databases and their tables, then their items. */
export const routes = [...tableRoutes.slice(0, 2), ...itemRoutes, ...tableRoutes.slice(2)];
