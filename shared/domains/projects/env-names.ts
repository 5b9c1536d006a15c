import { invalid } from '../../kernel/ground/errors';
import { isReservedName, isValidName } from './env-schema';

export const NAME_RULE = 'Use letters, numbers and underscores, not starting with a number.';

/** Each name once, in the order first given. */
const unique = (names: string[]) => [...new Set(names)];

/**
 * Checks every name of a bulk write before anything is written: all invalid names in one 400,
 * then all reserved ones, named exactly as they were sent.
 */
export function checkNames(names: string[]): void {
  const bad = unique(names.filter((n) => !isValidName(n)));
  if (bad.length > 0) throw invalid(`Invalid names: ${bad.join(', ')}. ${NAME_RULE}`);
  const reserved = unique(names.filter(isReservedName));
  if (reserved.length > 0) throw invalid(`Reserved by the platform: ${reserved.join(', ')}.`);
}

/** Checks the name of a single write. */
export function checkName(name: string): void {
  if (!isValidName(name)) throw invalid(NAME_RULE);
  if (isReservedName(name)) throw invalid(`${name} is reserved by the platform.`);
}
