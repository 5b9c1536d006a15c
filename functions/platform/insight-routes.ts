import type { Route } from '../../shared/http/route';

/** The platform group's insight routes: platform-wide analytics, audit and stats (operators only). */
export const routes: Route[] = [];
