import { createHash } from 'node:crypto';

/**
 * A collection's ctag and sync token (RFC 6578). The ctag is a hash of what the collection holds
 * (each member's name and ETag): it moves with any change. The sync token names an instant `M`:
 * the latest change (a member's `updatedAt`, a tombstone's time), never older than a week; the
 * changes since a token are the members updated and the tombstones written since `M` less a
 * margin, which covers a write stamped before `M` that landed after the token was read (a member
 * seen twice is harmless: programs compare ETags). Tombstones live 30 days, so a token older than
 * that (less a day) is answered `valid-sync-token`: the program syncs afresh.
 */
const DAY = 86_400_000;
export const SYNC_MARGIN_MS = 60_000;
const KEEP_MS = 29 * DAY;
const PREFIX = 'urn:platform:dav:sync:';

export function syncTokenOf(stamps: number[], now = Date.now()): string {
  const floor = Math.floor((now - 7 * DAY) / DAY) * DAY;
  return `${PREFIX}${Math.max(floor, ...stamps)}`;
}

/** The instant changes are read from for a token, or undefined when it is not (or no longer) valid. */
export function sinceOf(token: string, now = Date.now()): number | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const m = token.slice(PREFIX.length);
  if (!/^\d{1,16}$/.test(m)) return undefined;
  const at = Number(m);
  if (at < now - KEEP_MS || at > now + DAY) return undefined;
  return at - SYNC_MARGIN_MS;
}

export const ctagOf = (members: { name: string; etag: string }[]) =>
  `"${createHash('sha256')
    .update(
      members
        .map((m) => `${m.name}\0${m.etag}`)
        .sort()
        .join('\n'),
    )
    .digest('base64url')
    .slice(0, 27)}"`;
