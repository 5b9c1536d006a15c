import * as z from 'zod/mini';

/**
 * A whole number in a query string: decimal digits only. `Number()` would take `0x10`, `1e2`,
 * ` ` or `''` (0); a query parameter of a route is either digits or a 400.
 */
export const QueryInt = z
  .pipe(
    z.string().check(z.regex(/^\d{1,15}$/, 'Expected a whole number (decimal digits)')),
    z.transform((s: string) => Number(s)),
  )
  // Documented (OpenAPI) as the whole number a client sends, not as the string it travels as.
  .register(z.globalRegistry, { type: 'integer', minimum: 0, pattern: undefined });

/** A whole number query parameter between `min` and `max`, `fallback` when absent. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z
    ._default(z.pipe(QueryInt, z.int().check(z.minimum(min), z.maximum(max))), fallback)
    .register(z.globalRegistry, { type: 'integer', minimum: min, maximum: max });
