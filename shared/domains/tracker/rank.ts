import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/**
 * Ranks: fractional-indexing keys (base-62 ASCII), ordered byte-wise exactly as DynamoDB orders a
 * string sort key. Never `localeCompare`: it orders `a` before `B`, DynamoDB does not.
 */
export const MAX_RANK_LENGTH = 128;

export function compareRanks(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `n` ranks in order strictly between `low` and `high` (null: open end). */
export function ranksBetween(low: string | null, high: string | null, n: number): string[] {
  return generateNKeysBetween(low, high, n);
}

export const rankAfter = (last: string | null) => generateKeyBetween(last, null);

/** Whether any of `ranks` has grown past what the tracker keeps: the list is rebalanced then. */
export const needsRebalance = (ranks: string[]) => ranks.some((r) => r.length > MAX_RANK_LENGTH);

/**
 * Places `moving` (ids) right before or after `anchor` in `ordered` (every ranked item, in rank
 * order; the moving ones included anywhere) and returns the new ranks of the moving items, in the
 * order given. When a new rank would pass MAX_RANK_LENGTH, every item is ranked afresh, evenly,
 * order kept: `all` then holds the new rank of every item whose rank changed.
 */
export function placeRanks(
  ordered: { id: string; rank: string }[],
  moving: string[],
  anchor: { id: string; side: 'before' | 'after' },
): { ranks: Map<string, string>; rebalanced: boolean } {
  const set = new Set(moving);
  const rest = ordered.filter((x) => !set.has(x.id));
  const at = rest.findIndex((x) => x.id === anchor.id);
  if (at < 0) throw new Error('anchor not among the ranked items');
  const low = anchor.side === 'before' ? (rest[at - 1]?.rank ?? null) : (rest[at]?.rank ?? null);
  const high = anchor.side === 'before' ? (rest[at]?.rank ?? null) : (rest[at + 1]?.rank ?? null);
  const fresh = ranksBetween(low, high, moving.length);
  if (!needsRebalance(fresh))
    return { ranks: new Map(moving.map((id, i) => [id, fresh[i] as string])), rebalanced: false };
  const cut = anchor.side === 'before' ? at : at + 1;
  const order = [...rest.slice(0, cut).map((x) => x.id), ...moving, ...rest.slice(cut).map((x) => x.id)];
  const even = ranksBetween(null, null, order.length);
  return { ranks: new Map(order.map((id, i) => [id, even[i] as string])), rebalanced: true };
}
