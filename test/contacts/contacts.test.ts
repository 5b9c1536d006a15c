import { contactKeys } from '../../shared/domains/contacts/records';
import { queryPrefix } from '../../shared/kernel/store/ops';
import { mailboxFor } from '../mail/helpers';
import { type ContactsWorld, defaultBook, startContactsWorld } from './helpers';

/**
 * Address books (default made once, limit, names as text, delete with contacts) and contacts (create,
 * get, put with its version guard, delete, the list with `q`, `addressBookId` and a signed cursor),
 * behind mailbox membership.
 */
let w: ContactsWorld;
let book: string;
beforeAll(async () => {
  w = await startContactsWorld();
  book = await defaultBook(w);
});
afterAll(() => w.close());

const books = () => `${w.base}/address-books`;
const contactsOf = (abk: string) => `${w.base}/address-books/${abk}/contacts`;

async function create(body: Record<string, unknown>, abk = book) {
  const res = await w.p.post(contactsOf(abk), body);
  expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
  return res.body.contact;
}

describe('membership', () => {
  it('keys and non-members get 403, an unknown mailbox 404', async () => {
    const key = await w.p.apiKey();
    for (const path of [books(), `${w.base}/contacts`]) {
      expect((await w.p.get(path, { token: key })).body).toEqual({ error: 'Mailboxes are only available to members.' });
    }
    const other = await w.p.person('developer');
    const refused = await w.p.post(books(), { name: 'x' }, { token: other.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Mailboxes are only available to members.' });
    const unknown = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/mbx_nothing/address-books`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Mailbox not found' });
    const photo = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/mbx_nothing/contacts/ctc_x/photo`);
    expect(photo.body).toEqual({ error: 'Mailbox not found' });
  });
});

describe('address books', () => {
  it('the default one is made exactly once under concurrent first calls', async () => {
    const { mailboxId } = await mailboxFor(w.p, [w.p.owner.userId]);
    const path = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}/address-books`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => w.p.get(path)));
    const ids = new Set(
      answers.map((a) => a.body.addressBooks.map((b: { addressBookId: string }) => b.addressBookId).join()),
    );
    expect([...ids]).toHaveLength(1);
    const list = (await w.p.get(path)).body.addressBooks;
    expect(list).toEqual([
      { addressBookId: expect.stringMatching(/^abk_/), name: 'Contacts', isDefault: true, version: 1 },
    ]);
  });

  it('names are any JSON kept as text; rename; default first; the 21st is 409; the default cannot be deleted', async () => {
    const { mailboxId } = await mailboxFor(w.p, [w.p.owner.userId]);
    const path = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}/address-books`;
    const made = await w.p.post(path, { name: '  Friends  ' });
    expect(made.status).toBe(201);
    expect(made.body.addressBook).toMatchObject({ name: 'Friends', isDefault: false, version: 1 });
    expect((await w.p.post(path, { name: 42 })).body.addressBook.name).toBe('42');
    expect((await w.p.post(path, { name: { a: [1, true] } })).body.addressBook.name).toBe('{"a":[1,true]}');
    expect((await w.p.post(path, { name: '   ' })).body).toEqual({ error: 'The address book needs a name.' });
    expect((await w.p.post(path, {})).status).toBe(400);
    const renamed = await w.p.patch(`${path}/${made.body.addressBook.addressBookId}`, { name: ['Work', 1] });
    expect(renamed.status).toBe(200);
    expect(renamed.body.addressBook).toMatchObject({ name: '["Work",1]', version: 2 });
    expect((await w.p.patch(`${path}/abk_nothing`, { name: 'x' })).body).toEqual({ error: 'Address book not found' });
    const listed = (await w.p.get(path)).body.addressBooks as { name: string; isDefault: boolean }[];
    expect(listed.map((b) => b.name)).toEqual(['Contacts', '["Work",1]', '42', '{"a":[1,true]}']);
    // 4 now: 16 more fill it, concurrently.
    const more = await Promise.all(Array.from({ length: 17 }, (_, i) => w.p.post(path, { name: `B${i}` })));
    expect(more.filter((r) => r.status === 201)).toHaveLength(16);
    const refused = more.find((r) => r.status === 409);
    expect(refused?.body).toEqual({ error: 'A mailbox can have at most 20 address books.' });
    const all = (await w.p.get(path)).body.addressBooks as { addressBookId: string; isDefault: boolean }[];
    expect(all).toHaveLength(20);
    const def = all[0] as { addressBookId: string; isDefault: boolean };
    expect(def.isDefault).toBe(true);
    const no = await w.p.delete(`${path}/${def.addressBookId}`);
    expect(no.status).toBe(400);
    expect(no.body).toEqual({ error: "The default address book can't be deleted." });
    // Deleting one makes room again.
    expect((await w.p.delete(`${path}/${made.body.addressBook.addressBookId}`)).status).toBe(204);
    expect((await w.p.delete(`${path}/${made.body.addressBook.addressBookId}`)).status).toBe(404);
    expect((await w.p.post(path, { name: 'Again' })).status).toBe(201);
  });

  it('deleting an address book deletes its contacts', async () => {
    const other = (await w.p.post(books(), { name: 'Temporary' })).body.addressBook.addressBookId as string;
    const c = await create({ fullName: 'Gone Soon' }, other);
    const kept = await create({ fullName: 'Stays Here' });
    expect((await w.p.delete(`${books()}/${other}`)).status).toBe(204);
    expect((await w.p.get(`${contactsOf(other)}/${c.contactId}`)).status).toBe(404);
    expect((await w.p.get(`${contactsOf(book)}/${kept.contactId}`)).status).toBe(200);
    expect((await w.p.get(`${w.base}/contacts?addressBookId=${other}`)).body).toEqual({
      error: 'Address book not found',
    });
  });
});

describe('contacts', () => {
  it('creates with defaults, reads back, and refuses a contact with nothing to name it', async () => {
    const c = await create({
      name: { given: 'Ada', family: 'Lovelace' },
      emails: [{ value: 'ada@example.com', type: 'Work', pref: true }, { value: 'a@home.example' }],
      organization: { team: 'Analytical' },
      addresses: [{ street: '1 Engine Way', country: 'UK' }],
      birthday: '1815-12-10',
      anniversary: '--06-08',
      categories: ['math', 'math', 'vip'],
    });
    expect(c).toEqual({
      contactId: expect.stringMatching(/^ctc_[0-9a-z]{26}$/),
      addressBookId: book,
      uid: expect.any(String),
      version: 1,
      updatedAt: expect.any(Number),
      hasPhoto: false,
      fullName: '',
      displayName: 'Ada Lovelace',
      name: { given: 'Ada', family: 'Lovelace', additional: '', prefix: '', suffix: '' },
      nickname: '',
      emails: [
        { value: 'ada@example.com', type: 'work', pref: true },
        { value: 'a@home.example', type: 'other' },
      ],
      phones: [],
      urls: [],
      addresses: [
        {
          type: 'home',
          poBox: '',
          extended: '',
          street: '1 Engine Way',
          locality: '',
          region: '',
          postalCode: '',
          country: 'UK',
        },
      ],
      organization: '{"team":"Analytical"}',
      department: '',
      title: '',
      birthday: '1815-12-10',
      anniversary: '--06-08',
      notes: '',
      categories: ['math', 'vip'],
    });
    const got = await w.p.get(`${contactsOf(book)}/${c.contactId}`);
    expect(got.body.contact).toEqual(c);
    for (const body of [{}, { notes: 'only notes' }, { name: {} }, { emails: [] }]) {
      const res = await w.p.post(contactsOf(book), body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'A contact needs at least a name, an organization, an email address or a phone number.',
      });
    }
    for (const bad of ['1815-13-10', '2023-02-29', '12-10', '-12-10', 'soon']) {
      expect((await w.p.post(contactsOf(book), { fullName: 'D', birthday: bad })).body).toEqual({
        error: 'Dates are YYYY-MM-DD, or --MM-DD for an unknown year.',
      });
    }
    expect((await w.p.post(contactsOf(book), { fullName: 'Leap', birthday: '--02-29' })).status).toBe(201);
    expect((await w.p.post(contactsOf('abk_nothing'), { fullName: 'x' })).body).toEqual({
      error: 'Address book not found',
    });
    expect((await w.p.get(`${contactsOf(book)}/ctc_nothing`)).body).toEqual({ error: 'Contact not found' });
  });

  it('put keeps left-out fields, clears empty dates, checks ifVersion; delete', async () => {
    const c = await create({ fullName: 'Grace Hopper', phones: [{ value: '+1 555 0100' }], birthday: '1906-12-09' });
    const path = `${contactsOf(book)}/${c.contactId}`;
    const put = await w.p.put(path, { title: 'Rear Admiral', birthday: '', ifVersion: 1 });
    expect(put.status).toBe(200);
    expect(put.body.contact).toMatchObject({ fullName: 'Grace Hopper', title: 'Rear Admiral', version: 2 });
    expect(put.body.contact.phones).toEqual([{ value: '+1 555 0100', type: 'other' }]);
    expect(put.body.contact).not.toHaveProperty('birthday');
    const stale = await w.p.put(path, { title: 'Commodore', ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'This contact changed since it was read. Reload and try again.' });
    expect((await w.p.get(path)).body.contact.title).toBe('Rear Admiral');
    const emptied = await w.p.put(path, { fullName: '', phones: [] });
    expect(emptied.status).toBe(400);
    // Another address book's path does not reach it.
    const other = (await w.p.post(books(), { name: 'Other' })).body.addressBook.addressBookId as string;
    expect((await w.p.put(`${contactsOf(other)}/${c.contactId}`, { title: 'x' })).status).toBe(404);
    expect((await w.p.delete(`${contactsOf(other)}/${c.contactId}`)).status).toBe(404);
    expect((await w.p.delete(path)).status).toBe(204);
    expect((await w.p.get(path)).status).toBe(404);
    expect((await w.p.delete(path)).body).toEqual({ error: 'Contact not found' });
  });

  it('q: every word must start a word of a name, email or organization, or be part of a phone; case- and accent-blind', async () => {
    const { mailboxId } = await mailboxFor(w.p, [w.p.owner.userId]);
    const base = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}`;
    const abk = (await w.p.get(`${base}/address-books`)).body.addressBooks[0].addressBookId as string;
    const add = async (body: Record<string, unknown>) =>
      (await w.p.post(`${base}/address-books/${abk}/contacts`, body)).body.contact.contactId as string;
    const zoe = await add({ fullName: 'Zoë Ångström', emails: [{ value: 'zoe@physics.example' }] });
    const bob = await add({ name: { given: 'Bob', family: 'Muller' }, phones: [{ value: '+49 (30) 123-4567' }] });
    const acme = await add({ organization: 'ACME Corp', emails: [{ value: 'sales@acme.example' }] });
    const find = async (q: string) =>
      ((await w.p.get(`${base}/contacts?q=${encodeURIComponent(q)}`)).body.contacts as { contactId: string }[]).map(
        (c) => c.contactId,
      );
    expect(await find('zoe')).toEqual([zoe]);
    expect(await find('ANGSTROM zoë')).toEqual([zoe]);
    expect(await find('zoe bob')).toEqual([]);
    expect(await find('1234567')).toEqual([bob]);
    expect(await find('123-4567')).toEqual([bob]);
    expect(await find('müller')).toEqual([bob]);
    expect(await find('acme')).toEqual([acme]);
    expect(await find('example')).toEqual([zoe, acme]);
    expect(await find('')).toEqual([zoe, bob, acme]);
    expect(await find('nobody')).toEqual([]);
  });

  it('q follows changes: words start tokens, phone parts match, postings go with the contact', async () => {
    const { mailboxId } = await mailboxFor(w.p, [w.p.owner.userId]);
    const base = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}`;
    const abk = (await w.p.get(`${base}/address-books`)).body.addressBooks[0].addressBookId as string;
    const other = (await w.p.post(`${base}/address-books`, { name: 'Other' })).body.addressBook.addressBookId as string;
    const made = await w.p.post(`${base}/address-books/${abk}/contacts`, {
      name: { given: 'Ada', family: 'Lovelace' },
      phones: [{ value: '+44 20 7946 0100' }],
    });
    const id = made.body.contact.contactId as string;
    await w.p.post(`${base}/address-books/${other}/contacts`, { fullName: 'Ada Other' });
    const find = async (q: string, extra = '') =>
      (
        (await w.p.get(`${base}/contacts?q=${encodeURIComponent(q)}${extra}`)).body.contacts as {
          fullName: string;
          name: { family: string };
        }[]
      ).map((c) => c.fullName || c.name.family);
    expect(await find('lov')).toEqual(['Lovelace']);
    expect(await find('ovelace')).toEqual([]);
    expect(await find('0100')).toEqual(['Lovelace']);
    expect(await find('7946 010')).toEqual(['Lovelace']);
    expect(await find('ada')).toEqual(['Lovelace', 'Ada Other']);
    expect(await find('ada', `&addressBookId=${other}`)).toEqual(['Ada Other']);
    await w.p.put(`${base}/address-books/${abk}/contacts/${id}`, { name: { given: 'Augusta', family: 'King' } });
    expect(await find('lovelace')).toEqual([]);
    expect(await find('augusta king')).toEqual(['King']);
    expect(await find('0100')).toEqual(['King']);
    await w.p.delete(`${base}/address-books/${abk}/contacts/${id}`);
    await w.p.delete(`${base}/address-books/${other}`);
    expect(await find('ada')).toEqual([]);
    // Nothing of the index is left behind.
    expect(await queryPrefix(contactKeys.pk(mailboxId), 'CTS#W#')).toEqual([]);
  });

  it('pages with a signed cursor, limit 1-500, and refuses a forged cursor', async () => {
    const { mailboxId } = await mailboxFor(w.p, [w.p.owner.userId]);
    const base = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}`;
    const abk = (await w.p.get(`${base}/address-books`)).body.addressBooks[0].addressBookId as string;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await w.p.post(`${base}/address-books/${abk}/contacts`, { fullName: `Person ${i}` });
      made.push(res.body.contact.contactId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any } = await w.p.get(
        `${base}/contacts?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.contacts.map((c: { contactId: string }) => c.contactId));
      cursor = res.body.cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(made);
    expect(pages).toBe(3);
    // With q, pages hold only matches.
    const first = await w.p.get(`${base}/contacts?q=person&limit=4`);
    expect(first.body.contacts).toHaveLength(4);
    const rest = await w.p.get(`${base}/contacts?q=person&limit=4&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(rest.body.contacts.map((c: { contactId: string }) => c.contactId)).toEqual(made.slice(4));
    expect(rest.body.cursor).toBeNull();
    // A cursor of another mailbox, or a hand-made one, is refused.
    const mine = (await w.p.get(`${w.base}/contacts?limit=1`)).body.cursor as string;
    expect(mine).toBeTruthy();
    const forged = await w.p.get(`${base}/contacts?cursor=${encodeURIComponent(mine)}`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    expect((await w.p.get(`${base}/contacts?cursor=abc.def`)).status).toBe(400);
    for (const limit of ['0', '501', '0x10'])
      expect((await w.p.get(`${base}/contacts?limit=${limit}`)).status).toBe(400);
    expect((await w.p.get(`${base}/contacts?limit=500`)).status).toBe(200);
  });
});
