import { createHash } from 'node:crypto';
import { accessOrg } from '../../auth/authenticate';
import type { FieldIssue } from '../../ground/errors';
import { HttpError, statusOf } from '../http-error';
import { runRoute } from '../run-route';
import { etagOf, listsTag } from './conditional-reads';
import type { Middleware, Request, Result } from './state';
import { parse } from './validate';

export const PRECONDITION_FAILED = 'The resource changed since that version (If-Match). Reload and try again.';
export const PRECONDITION_BUSY = 'Another write with If-Match is in progress on this resource. Try again.';

/** An `If-Match` write holds its resource at most this long (a holder that died lets go then) and waits this long for it. */
const IF_MATCH_LEASE = { ttlMs: 30_000, waitMs: 15_000 };

/**
 * `If-Match` on a write: the answer of the same path's GET, as the caller may read it now,
 * must carry one of the ETags named (`*`: any, the resource exists), else 412 and nothing is
 * done. The check and the write are one critical section per resource: before reading, the write
 * takes a lease on the GET's route and parameters (shared/kernel/store/lease.ts), held until the answer
 * is made (`httpHandler` lets it go), so of concurrent writes naming the same ETag one runs and
 * the others, waiting for the lease, then read the new ETag and answer 412. A lease not free
 * within 15 s is 409 `PRECONDITION_BUSY`.
 */
export const preconditions = (): Middleware => ({
  before: async (request: Request) => {
    const state = request.context.api;
    const asked = request.event.headers['if-match'];
    if (asked === undefined || !state.current) return;
    const { route, params } = state.current;
    const resource = createHash('sha256')
      .update(`${route.path}\n${JSON.stringify(params)}`)
      .digest('base64url');
    const { takeLease } = await import('../../store/lease');
    state.release = await takeLease(`if-match#${resource}`, PRECONDITION_BUSY, IF_MATCH_LEASE);
    const issues: FieldIssue[] = [];
    const input = {
      params: parse(route.params, params, '', issues),
      query: parse(route.query, {}, '', issues),
      body: undefined,
    };
    let answer: Result;
    try {
      // The organization as it is now, under the lease (authentication read it before): the
      // organization's own GET shows it.
      const access = state.access && state.caller ? await accessOrg(state.caller, state.access.org.orgId) : undefined;
      answer = await runRoute(route, input, { ...state, access }, request.event, request.context);
    } catch (err) {
      if (statusOf(err) === 404) throw new HttpError(412, PRECONDITION_FAILED);
      throw err;
    }
    if (answer.statusCode !== 200 || typeof answer.body !== 'string' || !listsTag(asked, etagOf(answer.body))) {
      throw new HttpError(412, PRECONDITION_FAILED);
    }
  },
});
