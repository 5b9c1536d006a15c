import type { CorsRule } from './port';

/** The ID of the platform's own CORS rule; customers' rules may not use it. */
export const RESERVED_CORS_ID = 'reserved-uploads';

/**
 * The platform's own CORS rule: browsers on any origin may PUT and GET with the presigned links
 * the API hands out (the signature, not the origin, guards a link). Kept apart from the customer's
 * rules: `PUT .../cors` replaces theirs and keeps this one.
 */
export const uploadCorsRule = (): CorsRule => ({
  ID: RESERVED_CORS_ID,
  AllowedOrigins: ['*'],
  AllowedMethods: ['GET', 'PUT', 'HEAD'],
  AllowedHeaders: ['*'],
  ExposeHeaders: ['ETag', 'Content-Length', 'Content-Type'],
  MaxAgeSeconds: 3000,
});

/** The bucket's rules with the reserved one taken out, and the reserved one (or its definition). */
export function splitCors(rules: CorsRule[]): { cors: CorsRule[]; cloudCors: CorsRule } {
  const reserved = rules.find((r) => r.ID === RESERVED_CORS_ID);
  return { cors: rules.filter((r) => r.ID !== RESERVED_CORS_ID), cloudCors: reserved ?? uploadCorsRule() };
}
