import type { $ZodType } from 'zod/v4/core';

/**
 * The success responses of a group's routes, for the OpenAPI document and the typed client:
 * `'METHOD /path'` (as in routes.ts) → status → zod schema of the body, or `null` for no body.
 *
 * Each group keeps them in `functions/<group>/responses.ts`, which its handler does not import:
 * the schemas stay out of the Lambda bundles. Route tests check every 2xx answer against them
 * (test/helpers/platform.ts), so the document can't drift from what the API really answers.
 */
export type ResponseDocs = Record<string, Partial<Record<number, $ZodType | null>>>;
