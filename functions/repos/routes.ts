import { contentRoutes } from './contents';
import { credentialRoutes } from './credentials';
import { historyRoutes } from './history';
import { importRoutes } from './imports';
import { repoRoutes } from './repos';

/** The repos group: repositories and their settings, refs and contents, labels, git credentials, imports. */
export const routes = [...importRoutes, ...repoRoutes, ...contentRoutes, ...historyRoutes, ...credentialRoutes];
