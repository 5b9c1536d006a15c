import { createHash } from 'node:crypto';
import type { Middleware, Request } from './state';

/** The ETag of a JSON answer: a hash of its body (see `conditionalReads`). */
export const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
export const listsTag = (header: string, etag: string) =>
  header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);

/**
 * Conditional reads: a 200 GET with a JSON body answers an `ETag` (a hash of the body: it changes
 * with the record's version and with anything else the answer shows), and `If-None-Match` naming it
 * answers 304 without the body, as HTTP caches and `gh`-style clients expect.
 */
export const conditionalReads = (): Middleware => ({
  after: (request: Request) => {
    const res = request.response;
    const method = request.event.requestContext.http.method;
    if ((method !== 'GET' && method !== 'HEAD') || !res || res.statusCode !== 200) return;
    if (typeof res.body !== 'string' || res.isBase64Encoded || res.headers?.etag) return;
    const etag = etagOf(res.body);
    const asked = request.event.headers['if-none-match'];
    if (asked && listsTag(asked, etag)) {
      request.response = { statusCode: 304, headers: { etag } };
      return;
    }
    request.response = { ...res, headers: { ...res.headers, etag } };
  },
});
