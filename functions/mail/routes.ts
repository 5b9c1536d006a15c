import { adminRoutes } from './admin-routes';
import { mailboxRoutes } from './mailbox-routes';

/** The mail group: administration (domains, mailboxes, aliases) and each mailbox's own routes. */
export const routes = [...adminRoutes, ...mailboxRoutes];
