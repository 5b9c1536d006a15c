import * as z from 'zod/mini';
import { isWellFormed } from '../../shared/domains/databases/attributes';
import { DATABASE_NOT_FOUND, TABLE_NOT_FOUND } from '../../shared/domains/databases/load';

/** What the group's routes share: the not-found answers, the backend's answers, the path. */
export const NOT_FOUND = [
  DATABASE_NOT_FOUND,
  TABLE_NOT_FOUND,
  'Not found in the backend. It may have been deleted outside the platform.',
];
export const BACKEND = {
  409: ['The resource is busy. Try again shortly.'],
  429: ['The backend is throttling requests. Try again in a moment.'],
  502: ['The backend request failed. Try again.'],
};

export const Params = z.object({ orgId: z.string(), resourceId: z.string() });

/** True when `s` has no control characters (attribute names in filters and projections). */
const noControl = (s: string) =>
  isWellFormed(s) && ![...s].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);
export const AttributeName = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(255),
    z.refine(noControl, 'Attribute names are valid Unicode without control characters.'),
  );
