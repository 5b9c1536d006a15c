/**
 * What the platform keeps of a custom domain to check and undo it, and never answers: the table's
 * keys; the ownership token (the user sees it where it is meant for them, in the TXT line of
 * `records`); when the re-checks stop and the next one is due; the records it wrote through the
 * connected provider; who added it (spec part A's Domain record has no such field).
 */
const KEPT_BACK = [
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'token',
  'checksUntil',
  'nextCheckAt',
  'written',
  'createdBy',
] as const;

/**
 * The Domain record as the API answers it (spec part A, plus `version` for `ifVersion`), the same
 * from the domains routes and from the project detail (shared/domains/projects/read.ts). It lives
 * here, below custom domains, because a project's detail shows its domains.
 */
export function toDomain<T extends object>(d: T): Omit<T, (typeof KEPT_BACK)[number]> {
  const shown = { ...d } as Record<string, unknown>;
  for (const k of KEPT_BACK) delete shown[k];
  return shown as Omit<T, (typeof KEPT_BACK)[number]>;
}
