import { invalid, notFound } from '../../ground/errors';
import { HttpError } from '../http-error';
import type { Route } from '../route';
import { isEntry, isWrite, type RouteEntry, type RouteTable } from '../route-entry';
import { createRouter } from '../router';
import type { Middleware, Request } from './state';

export const MALFORMED_PATH = 'Malformed path: invalid percent-encoding.';

/**
 * The route: unknown path → 404 `Not found`; known path, other method → 405 with `Allow` (HEAD is a GET's);
 * a path that is not valid percent-encoding → 400 (API Gateway hands it over as it came).
 */
export const matchRoute = (routes: RouteTable): Middleware => {
  const match = createRouter<Route | RouteEntry>(routes);
  return {
    before: async (request: Request) => {
      request.context.api = { params: {} };
      // HEAD is GET without the body (RFC 9110): the stack's wrapper drops the body (./handler.ts).
      const method = request.event.requestContext.http.method;
      const m = match(method === 'HEAD' ? 'GET' : method, request.event.rawPath);
      if (m.kind === 'malformed') throw invalid(MALFORMED_PATH);
      if (m.kind === 'none') throw notFound();
      if (m.kind === 'method') throw new HttpError(405, 'Method not allowed', {}, { allow: m.allow.join(', ') });
      request.context.api.route = await routeOf(m.route);
      request.context.api.params = m.params;
      if (request.event.headers['if-match'] !== undefined && isWrite(m.route.method)) {
        const current = match('GET', request.event.rawPath);
        if (current.kind === 'found') {
          request.context.api.current = { route: await routeOf(current.route), params: current.params };
        }
      }
    },
  };
};

/** A route, or the route an index entry names, loaded with the first request that needs it. */
const routeOf = (r: Route | RouteEntry): Route | Promise<Route> => (isEntry(r) ? r.resolve() : r);
