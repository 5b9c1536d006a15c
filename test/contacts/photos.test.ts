import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contactKeys } from '../../shared/domains/contacts/records';
import { queryPrefix } from '../../shared/kernel/store/ops';
import { mailboxFor } from '../mail/helpers';
import { type ContactsWorld, defaultBook, startContactsWorld } from './helpers';

/**
 * Photos: stored with the type their bytes are (JPEG, PNG, GIF, WebP), answered by a short link whose
 * download is byte-equal, refused when the bytes are no such image, 413 over 1 MB; deleted with the contact.
 */
const IMAGES = join(__dirname, '../fixtures/contacts/images');
const image = (name: string) => readFileSync(join(IMAGES, name));

let w: ContactsWorld;
let book: string;
beforeAll(async () => {
  w = await startContactsWorld();
  book = await defaultBook(w);
});
afterAll(() => w.close());

async function newContact(fullName = 'Monty Python') {
  const res = await w.p.post(`${w.base}/address-books/${book}/contacts`, { fullName });
  expect(res.status).toBe(201);
  return res.body.contact.contactId as string;
}
const photoOf = (contactId: string) => `${w.base}/contacts/${contactId}/photo`;

async function download(contactId: string) {
  const link = await w.p.get(photoOf(contactId));
  expect(link.status).toBe(200);
  const res = await fetch(link.body.url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

it.each([
  ['python.jpg', 'image/jpeg'],
  ['python.png', 'image/png'],
  ['python.gif', 'image/gif'],
  ['python.webp', 'image/webp'],
])('%s: upload, then a byte-equal download through the link, typed %s', async (file, type) => {
  const contactId = await newContact();
  const bytes = image(file);
  const put = await w.p.put(photoOf(contactId), { contentType: type, data: bytes.toString('base64') });
  expect(put.status).toBe(200);
  expect(put.body.contact).toMatchObject({ contactId, hasPhoto: true, version: 2 });
  const got = await download(contactId);
  expect(got).toEqual({ status: 200, type, bytes });
});

it('the stored type is the sniffed one: a JPEG sent as PNG is kept as JPEG', async () => {
  const contactId = await newContact();
  const bytes = image('python.jpg');
  expect((await w.p.put(photoOf(contactId), { contentType: 'image/png', data: bytes.toString('base64') })).status).toBe(
    200,
  );
  expect(await download(contactId)).toEqual({ status: 200, type: 'image/jpeg', bytes });
});

it('refuses HTML sent as PNG, a BMP, and data that is no base64', async () => {
  const contactId = await newContact();
  const html = Buffer.from('<!doctype html><html><script>alert(1)</script></html>');
  for (const data of [html.toString('base64'), image('python.bmp').toString('base64')]) {
    const res = await w.p.put(photoOf(contactId), { contentType: 'image/png', data });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The photo must be a JPEG, PNG, GIF or WebP image.' });
  }
  const bad = await w.p.put(photoOf(contactId), { contentType: 'image/png', data: 'not base64!' });
  expect(bad.body).toEqual({ error: 'The photo data must be base64.' });
  expect((await w.p.put(photoOf(contactId), { contentType: 'image/bmp', data: 'AAAA' })).status).toBe(400);
  expect((await w.p.put(photoOf(contactId), { contentType: 'image/png', data: '' })).status).toBe(400);
  const none = await w.p.get(photoOf(contactId));
  expect(none.status).toBe(404);
  expect(none.body).toEqual({ error: 'This contact has no photo.' });
});

it('1 MB passes, 1 MB + 1 byte is 413, a body over 2 MB is 413', async () => {
  const contactId = await newContact();
  const png = image('python.png');
  const exactly = Buffer.concat([png, Buffer.alloc(1024 * 1024 - png.length)]);
  const ok = await w.p.put(photoOf(contactId), { contentType: 'image/png', data: exactly.toString('base64') });
  expect(ok.status).toBe(200);
  const over = Buffer.concat([exactly, Buffer.alloc(1)]);
  const refused = await w.p.put(photoOf(contactId), { contentType: 'image/png', data: over.toString('base64') });
  expect(refused.status).toBe(413);
  expect(refused.body).toEqual({ error: 'Photos can be at most 1 MB.' });
  const huge = await w.p.put(photoOf(contactId), {
    contentType: 'image/png',
    data: png.toString('base64'),
    padding: 'x'.repeat(2 * 1024 * 1024),
  });
  expect(huge.status).toBe(413);
  expect(huge.body).toEqual({ error: 'The request body can be at most 2 MB.' });
  // The photo of the first upload is still the one shown.
  expect((await download(contactId)).bytes.equals(exactly)).toBe(true);
});

it('replace, delete the photo, and delete the contact with its photo', async () => {
  const contactId = await newContact();
  await w.p.put(photoOf(contactId), { contentType: 'image/gif', data: image('python.gif').toString('base64') });
  const firstLink = (await w.p.get(photoOf(contactId))).body.url as string;
  await w.p.put(photoOf(contactId), { contentType: 'image/png', data: image('python.png').toString('base64') });
  // The replaced photo is gone; the new one is shown.
  expect((await fetch(firstLink)).status).toBe(404);
  expect((await download(contactId)).type).toBe('image/png');
  const removed = await w.p.delete(photoOf(contactId));
  expect(removed.status).toBe(200);
  expect(removed.body.contact).toMatchObject({ hasPhoto: false });
  expect((await w.p.get(photoOf(contactId))).status).toBe(404);
  // Deleting a photo that is not there changes nothing.
  expect((await w.p.delete(photoOf(contactId))).body.contact.version).toBe(removed.body.contact.version);

  await w.p.put(photoOf(contactId), { contentType: 'image/png', data: image('python.png').toString('base64') });
  const link = (await w.p.get(photoOf(contactId))).body.url as string;
  expect((await w.p.delete(`${w.base}/address-books/${book}/contacts/${contactId}`)).status).toBe(204);
  expect((await fetch(link)).status).toBe(404);
  const gone = await w.p.put(photoOf(contactId), {
    contentType: 'image/png',
    data: image('python.png').toString('base64'),
  });
  expect(gone.body).toEqual({ error: 'Contact not found' });
  expect((await w.p.get(photoOf(contactId))).body).toEqual({ error: 'Contact not found' });
  expect((await w.p.delete(photoOf(contactId))).status).toBe(404);
});

it("deleting the mailbox removes its contacts and their photos (they live in the mailbox's partition and folder)", async () => {
  const { mailboxId } = await mailboxFor(w.p, [w.p.owner.userId]);
  const base = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}`;
  const abk = (await w.p.get(`${base}/address-books`)).body.addressBooks[0].addressBookId as string;
  const made = await w.p.post(`${base}/address-books/${abk}/contacts`, { fullName: 'Short Lived' });
  const contactId = made.body.contact.contactId as string;
  await w.p.put(`${base}/contacts/${contactId}/photo`, {
    contentType: 'image/png',
    data: image('python.png').toString('base64'),
  });
  const link = (await w.p.get(`${base}/contacts/${contactId}/photo`)).body.url as string;
  expect((await fetch(link)).status).toBe(200);
  expect((await w.p.delete(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes/${mailboxId}`)).status).toBe(204);
  expect((await fetch(link)).status).toBe(404);
  const left = await queryPrefix(contactKeys.pk(mailboxId), 'CTS#');
  expect(left).toEqual([]);
});
