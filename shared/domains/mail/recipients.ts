import { PREFIXES } from '../../kernel/store/keys';
import { getMany } from '../../kernel/store/table';
import { mail } from '../../ports/mail-transport';
import { mailboxFor } from './deliver';
import { mailPk } from './threads';

const VALID = /^[^\s@<>(),;:"[\]\\]+@([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

/** The key recording that a mailbox exchanged mail with an address (a known contact). */
export const correspondentKey = (mailboxId: string, address: string) => ({
  pk: mailPk(mailboxId),
  sk: `${PREFIXES.mail.correspondent}${address.toLowerCase()}`,
});

/**
 * Per address: well formed, a mailbox of the platform (internal), someone the mailbox has
 * exchanged mail with (contact), on the mail system's suppression list (suppressed).
 */
export async function checkRecipients(mailboxId: string, addresses: string[]) {
  const list = addresses.map((a) => a.trim().toLowerCase());
  const valid = list.map((a) => VALID.test(a));
  const good = list.filter((_, i) => valid[i]);
  const [internal, known, suppressed] = await Promise.all([
    Promise.all(list.map((a, i) => (valid[i] ? mailboxFor(a).then((m) => !!m) : false))),
    getMany(list.map((a) => correspondentKey(mailboxId, a))),
    good.length ? mail().suppressed(good) : Promise.resolve(new Set<string>()),
  ]);
  return list.map((address, i) => ({
    address,
    valid: valid[i] ?? false,
    internal: internal[i] ?? false,
    contact: !!known[i],
    suppressed: suppressed.has(address),
  }));
}
