import { adminRoutes } from './admin-routes';
import { composeRoutes } from './compose-routes';
import { mailboxRoutes } from './mailbox-routes';
import { threadRoutes } from './thread-routes';

/** The mail group: administration (domains, mailboxes, aliases) and each mailbox's own routes. */
export const routes = [...adminRoutes, ...mailboxRoutes, ...threadRoutes, ...composeRoutes];
