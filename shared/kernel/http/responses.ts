import type { $ZodType } from 'zod/v4/core';

/**
 * A success response that is more than a JSON body: a file in its own media type(s), a redirect,
 * headers of the route's own. (The headers every route of a kind carries, `ETag`, `RateLimit-*`,
 * `Idempotent-Replayed`, `Retry-After`, are the stack's: lib/openapi.ts documents them from the
 * route table.)
 */
export interface ResponseDoc {
  /** Media type → schema of the body (`{ 'text/csv': z.string(), 'application/json': … }`); none: no body. */
  content?: Record<string, $ZodType>;
  /** The route's own headers of this answer: name → what it says. Always sent. */
  headers?: Record<string, string>;
  /** The body is bytes (answered base64-encoded to API Gateway): no `ETag`. */
  bytes?: true;
}

/** A status's documented answer: a JSON body's schema, `null` for no body, or a ResponseDoc. */
export type ResponseEntry = $ZodType | null | ResponseDoc;

/**
 * The success responses of a group's routes, for the OpenAPI document and the typed client:
 * `'METHOD /path'` (as in routes.ts) → status → its ResponseEntry.
 *
 * Each group keeps them in `functions/<group>/responses.ts`, which its handler does not import:
 * the schemas stay out of the Lambda bundles. Route tests check every 2xx answer against them
 * (test/helpers/platform.ts): status, media type, the route's own headers and the body, so the
 * document can't drift from what the API really answers.
 */
export type ResponseDocs = Record<string, Partial<Record<number, ResponseEntry>>>;

const isSchema = (entry: ResponseEntry): entry is $ZodType => entry !== null && '_zod' in entry;

/** Any entry as a ResponseDoc: a schema is a JSON body, `null` no body. */
export function responseDoc(entry: ResponseEntry): ResponseDoc {
  if (entry === null) return {};
  if (isSchema(entry)) return { content: { 'application/json': entry } };
  return entry;
}

/** A file answered as is: its media type(s) and schema(s), and its `Content-Disposition`. */
export const fileAnswer = (
  content: Record<string, $ZodType>,
  disposition: string,
  more: ResponseDoc = {},
): ResponseDoc => ({
  ...more,
  content,
  headers: { 'Content-Disposition': disposition, ...more.headers },
});

/** `303 See Other` to a link: `Location` is the link, no body. */
export const seeOther = (link: string): ResponseDoc => ({ headers: { Location: link } });
