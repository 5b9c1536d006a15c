import { contentRoutes } from './contents';
import { credentialRoutes } from './credentials';
import { historyRoutes } from './history';
import { repoRoutes } from './repos';

/** The repos group: repositories and their settings, refs and contents, labels, git credentials. */
export const routes = [...repoRoutes, ...contentRoutes, ...historyRoutes, ...credentialRoutes];
