import { type MailWorld, mailboxFor, startMailWorld } from '../mail/helpers';

/** A contacts test file's world: the mail world (its own artifacts bucket) and one mailbox of the owner. */
export interface ContactsWorld extends MailWorld {
  mailboxId: string;
  /** `/v1/orgs/<org>/mail/mailboxes/<mailboxId>` */
  base: string;
}

export async function startContactsWorld(): Promise<ContactsWorld> {
  const world = await startMailWorld();
  const { mailboxId } = await mailboxFor(world.p, [world.p.owner.userId]);
  return { ...world, mailboxId, base: `/v1/orgs/${world.p.org.orgId}/mail/mailboxes/${mailboxId}` };
}

/** The default address book's id (made on first use). */
export async function defaultBook(w: ContactsWorld): Promise<string> {
  const res = await w.p.get(`${w.base}/address-books`);
  if (res.status !== 200) throw new Error(`address books: ${res.status} ${res.text}`);
  return res.body.addressBooks[0].addressBookId as string;
}
