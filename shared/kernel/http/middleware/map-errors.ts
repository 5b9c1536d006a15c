import { describeError, log } from '../../ground/log';
import { HttpError, httpErrorOf } from '../http-error';
import { rateHeaders } from '../rate-limits';
import { type Middleware, type Request, type Result, reply } from './state';

/** Every error becomes `{ error }` with its status; anything unexpected is a logged 500. */
export const mapErrors = (): Middleware => ({
  onError: async (request: Request) => {
    if (!request.context.api?.answered) request.response = await errorResult(request);
    // A counted request's error carries the budget too (a 429 has its own).
    const counted = request.context.api?.counted;
    if (counted && request.response && request.response.statusCode !== 429) {
      request.response = { ...request.response, headers: { ...request.response.headers, ...rateHeaders(counted) } };
    }
  },
});

/** The answer to the request's error (logged when it is the backend's or unexpected). */
export async function errorResult(request: Request): Promise<Result> {
  const err = request.error;
  // The platform's own answer: a DomainError by its kind, or the http layer's HttpError.
  const own = httpErrorOf(err);
  if (own) return reply({ status: own.status, body: own.toJSON(), headers: own.headers });
  // The backend's errors' table loads with the first error that is not the platform's own.
  const backend = await import('../../ground/backend-errors');
  let http: HttpError;
  if (backend.isBackendError(err)) {
    http = httpErrorOf(backend.backendError(err)) as HttpError;
    log.warn('backend error', {
      requestId: request.context.awsRequestId,
      route: routeName(request),
      backend: err.name,
      status: http.status,
    });
  } else {
    log.error('unhandled error', {
      requestId: request.context.awsRequestId,
      route: routeName(request),
      error: describeError(err),
    });
    http = new HttpError(500, 'Internal error');
  }
  return reply({ status: http.status, body: http.toJSON(), headers: http.headers });
}

const routeName = (request: Request) => {
  const route = request.context.api?.route;
  return route ? `${route.method} ${route.path}` : undefined;
};
