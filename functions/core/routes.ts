import { publicLocations } from '../../shared/domains/platform-admin/geo';
import { ok, route } from '../../shared/kernel/http/route';
import { appPasswordRoutes } from './app-passwords';
import { deviceCodeRoutes } from './device-codes';
import { describeCaller } from './me';
import { orgRoutes } from './orgs';
import { sessionRoutes } from './sessions';

export const routes = [
  route({
    method: 'GET',
    path: '/health',
    access: 'public',
    summary: 'Liveness: answers without a token.',
    run: async () => ok({ ok: true, time: Date.now() }, { 'cache-control': 'no-store' }),
  }),
  route({
    method: 'GET',
    path: '/v1/me',
    access: 'token',
    summary: 'The caller: kind, id, email and name where known, organizations with role and kind, scopes.',
    run: async ({ caller }) => ok({ me: await describeCaller(caller) }),
  }),
  route({
    method: 'GET',
    path: '/v1/locations',
    access: 'token',
    summary: 'The locations projects and resources can be placed in, with the default marked.',
    // The platform's registry (shared/domains/platform-admin/geo.ts), seeded from LOCATIONS: its enabled locations.
    run: async () => ok(await publicLocations()),
  }),
  ...sessionRoutes,
  ...appPasswordRoutes,
  ...deviceCodeRoutes,
  ...orgRoutes,
];
