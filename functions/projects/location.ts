import { defaultLocation, findLocation } from '../../shared/config';
import { badRequest } from '../../shared/ground/errors';

/** A location of the registry (the registry's default when none is given), or 400. */
export function checkLocation(location: string | undefined): string {
  const id = location ?? defaultLocation;
  if (!findLocation(id)) throw badRequest(`Unknown location: ${id}`);
  return id;
}
