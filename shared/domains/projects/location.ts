import { invalid } from '../../kernel/ground/errors';
import { usableLocation } from '../platform-admin/geo';

/** A usable location of the registry (the registry's default when none is given), or 400. */
export async function checkLocation(location: string | undefined): Promise<string> {
  const found = await usableLocation(location);
  if (!found) throw invalid(`Unknown location: ${location}`);
  return found.id;
}
