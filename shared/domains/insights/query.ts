import * as z from 'zod/mini';
import { invalid } from '../../kernel/ground/errors';

/** A time in a query string: epoch milliseconds, or an ISO 8601 date or date-time (UTC unless it says). */
export const QueryTime = z
  .pipe(
    z
      .string()
      .check(
        z.refine(
          (s) =>
            /^\d{1,15}$/.test(s) ||
            (/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s))),
          'Expected epoch milliseconds or an ISO 8601 date-time',
        ),
      ),
    z.transform((s: string) =>
      /^\d+$/.test(s) ? Number(s) : Date.parse(/T/.test(s) && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? `${s}Z` : s),
    ),
  )
  .register(z.globalRegistry, { type: 'string', description: 'Epoch milliseconds or an ISO 8601 date-time' });

export const FROM_AFTER_TO = '`from` is after `to`.';
export const RANGE_TOO_LONG = 'The range from `from` to `to` is at most 90 days.';
export const MAX_RANGE_MS = 90 * 86_400_000;

/**
 * `from` and `to` with their defaults, checked: `to` is the end of the current `grain` (an hour or
 * a day: the same answer, and ETag, for every read within it), `from` `span` before it.
 */
export function rangeOf(from: number | undefined, to: number | undefined, span: number, grain = 1, now = Date.now()) {
  const end = to ?? Math.floor(now / grain) * grain + grain - 1;
  const start = from ?? end - span + 1;
  if (start > end) throw invalid(FROM_AFTER_TO);
  if (end - start > MAX_RANGE_MS) throw invalid(RANGE_TOO_LONG);
  return { from: start, to: end };
}
