import { isAudited } from '../../audit/actions';
import { authenticate } from '../../auth/authenticate';
import { HttpError } from '../http-error';
import type { Route } from '../route';
import type { Middleware, Request } from './state';
import { validInput } from './validate';

/**
 * Authentication, the path's organization and role, the scope check. A read route (`read`)
 * starts its data call as soon as the credential is well formed and the input valid, so it runs
 * together with authentication's round trip; what it finds waits for authorization to pass.
 */
export const authorize = (): Middleware => ({
  before: async (request: Request) => {
    const state = request.context.api;
    const route = state.route as Route;
    if (route.access === 'public') return;
    const orgId = route.orgScoped ? state.params.orgId : undefined;
    const startRead = () => {
      if (!route.read || orgId === undefined) return;
      const input = validInput(request);
      if (!input) return;
      state.input = input;
      state.read = route.read({ orgId, ...input });
      // Refused callers never await it: its failure must not surface as an unhandled rejection.
      state.read.catch(() => undefined);
    };
    const { caller, access } = await authenticate(
      request.event.headers.authorization,
      route.access === 'device',
      orgId,
      startRead,
    );
    state.caller = caller;
    if (access) {
      state.access = access;
      if (route.access === 'scope' && route.scope) {
        const pass = [route.scope, ...(route.allowed ?? [])].some((s) => access.scopes.has(s));
        if (!pass) throw new HttpError(403, `Missing scope ${route.scope}`);
      }
      const roles = route.roles;
      if (roles && access.role === undefined && roles.keyScope) {
        if (!access.scopes.has(roles.keyScope)) throw new HttpError(403, `Missing scope ${roles.keyScope}`);
      } else if (roles && !(access.role && roles.allow.includes(access.role))) {
        throw new HttpError(403, roles.refusal);
      }
      // Suspended by a platform operator (PATCH /v1/platform/orgs/:orgId): reads work, writes don't.
      if (access.org.suspended && isAudited(route)) throw new HttpError(403, 'This organization is suspended.');
    }
  },
});
