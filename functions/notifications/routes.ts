import { noticeRoutes } from './notices';
import { protocolRoutes } from './protocols';

/** The notifications group: a person's notices and settings, then the organization's protocols. */
export const routes = [...noticeRoutes, ...protocolRoutes];
