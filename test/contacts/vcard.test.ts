import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ContactsWorld, defaultBook, startContactsWorld } from './helpers';

/**
 * vCard import (2.1, 3.0, 4.0; real files of Evolution and rolo; chunks; uploads; known UIDs
 * update) and export (3.0 and 4.0 round trips, photos inline, the link for large files).
 */
const FIXTURES = join(__dirname, '../fixtures/contacts');
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

let w: ContactsWorld;
let book: string;
beforeAll(async () => {
  w = await startContactsWorld();
  book = await defaultBook(w);
});
afterAll(() => w.close());

const bookPath = (abk: string) => `${w.base}/address-books/${abk}`;
async function newBook(name: string) {
  const res = await w.p.post(`${w.base}/address-books`, { name });
  expect(res.status).toBe(201);
  return res.body.addressBook.addressBookId as string;
}
async function contactsIn(abk: string) {
  const res = await w.p.get(`${w.base}/contacts?addressBookId=${abk}&limit=500`);
  expect(res.status).toBe(200);
  return res.body.contacts as Record<string, any>[];
}
const importInto = (abk: string, body: unknown) => w.p.post(`${bookPath(abk)}/import`, body);

describe('import of real files', () => {
  it("rolo's example address book (vCard 2.1 and 3.0): every card", async () => {
    const abk = await newBook('rolo');
    const res = await importInto(abk, { content: fixture('rolo/contacts.vcf') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 27, updated: 0, skipped: 0, done: true, next: null });
    const all = await contactsIn(abk);
    expect(all).toHaveLength(27);
    const public_ = all.find((c) => c.uid === '19950401-080045-40000F192713-0052');
    expect(public_).toMatchObject({
      fullName: 'Mr. John Q. Public, Esq.',
      name: { family: 'Public', given: 'John', additional: 'Quinlan', prefix: 'Mr.', suffix: 'Esq.' },
      nickname: 'Robbie',
      birthday: '1996-04-15',
      organization: 'ABC, Inc.',
      department: 'North American Division, Marketing',
      title: 'Director, Research and Development',
      phones: [{ value: '+1-213-555-1234', type: 'work', pref: true }],
      emails: [{ value: 'jqpublic@xyz.dom1.com', type: 'other' }],
      categories: ['TRAVEL AGENT'],
      hasPhoto: false,
    });
    // vCard 2.1: bare parameters (TEL;WORK;FAX) read as types.
    const fred = all.find((c) => c.name.family === 'Friday');
    expect(fred?.phones).toEqual([
      { value: '+1-213-555-1234', type: 'work' },
      { value: '+1-213-555-5678', type: 'work fax' },
    ]);
    expect(fred?.displayName).toBe('Fred Friday');
    // Searchable at once.
    const found = await w.p.get(`${w.base}/contacts?q=${encodeURIComponent('555 5678')}`);
    expect(found.body.contacts.map((c: { name: { family: string } }) => c.name.family)).toEqual(['Friday']);
  });

  it.each(readdirSync(join(FIXTURES, 'evolution')).sort())('Evolution %s', async (file) => {
    const abk = await newBook(file);
    const res = await importInto(abk, { content: fixture(`evolution/${file}`) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 1, skipped: 0, done: true });
    const [contact] = await contactsIn(abk);
    expect(contact?.displayName).toBeTruthy();
    const uid = /^UID:(.*)$/m.exec(fixture(`evolution/${file}`))?.[1]?.trim();
    if (uid) expect(contact?.uid).toBe(uid);
    if (file === 'photo-1.vcf') {
      // Its PHOTO says jpeg but holds a PNG: stored as what it is.
      expect(contact?.hasPhoto).toBe(true);
      const link = await w.p.get(`${w.base}/contacts/${contact?.contactId}/photo`);
      const got = await fetch(link.body.url);
      expect(got.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await got.arrayBuffer());
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    } else expect(contact?.hasPhoto).toBe(false);
  });
});

describe('import details', () => {
  const card = (...lines: string[]) => ['BEGIN:VCARD', ...lines, 'END:VCARD', ''].join('\r\n');
  const png = readFileSync(join(FIXTURES, 'images/python.png'));

  it("2.1 quoted-printable and CHARSET, Apple's groups and labels, yearless dates, 4.0 photos, remote photos", async () => {
    const abk = await newBook('details');
    const content = [
      card(
        'VERSION:2.1',
        'N;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:M=C3=BCller;J=C3=BCrgen',
        'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Gr=FC=DFe aus K=F6ln,=0D=0A=',
        'zweite Zeile',
        'TEL;CELL:+49 170 1234567',
        'BDAY:19800229',
      ),
      card(
        'VERSION:3.0',
        'FN:Tim Apple',
        'N:Apple;Tim;;;',
        'UID:apple-1',
        'item1.EMAIL;type=INTERNET;type=pref:tim@apple.example',
        'item1.X-ABLabel:_$!<Other>!$_',
        'item2.URL:https://school.example',
        'item2.X-ABLabel:School',
        'BDAY;X-APPLE-OMIT-YEAR=1604:1604-11-01',
        'X-ANNIVERSARY:2001-02-03',
        'PHOTO;VALUE=uri:https://photos.example/tim.jpg',
      ),
      card(
        'VERSION:4.0',
        'FN:Four',
        'UID:urn:uuid:4e4e4e4e-0000-4000-8000-000000000004',
        'BDAY:--0704',
        'ANNIVERSARY:20100612',
        `PHOTO:data:image/jpeg;base64,${png.toString('base64')}`,
        'TEL;VALUE=uri;TYPE="voice,cell";PREF=1:tel:+1-555-0104',
      ),
      card('VERSION:3.0', 'NOTE:nothing that names anyone'),
    ].join('');
    const res = await importInto(abk, { content });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 3, updated: 0, skipped: 1, done: true });
    expect(res.body.warnings).toEqual([
      'Card 2: a photo by URL was not fetched',
      'Card 4: A contact needs at least a name, an organization, an email address or a phone number. Skipped.',
    ]);
    const [muller, tim, four] = await contactsIn(abk);
    expect(muller).toMatchObject({
      name: { family: 'Müller', given: 'Jürgen' },
      notes: 'Grüße aus Köln,\nzweite Zeile',
      phones: [{ value: '+49 170 1234567', type: 'mobile' }],
      birthday: '1980-02-29',
    });
    expect(tim).toMatchObject({
      uid: 'apple-1',
      emails: [{ value: 'tim@apple.example', type: 'other', pref: true }],
      urls: [{ value: 'https://school.example', type: 'school' }],
      birthday: '--11-01',
      anniversary: '2001-02-03',
      hasPhoto: false,
    });
    expect(four).toMatchObject({
      uid: 'urn:uuid:4e4e4e4e-0000-4000-8000-000000000004',
      fullName: 'Four',
      birthday: '--07-04',
      anniversary: '2010-06-12',
      phones: [{ value: '+1-555-0104', type: 'mobile', pref: true }],
      hasPhoto: true,
    });
    // The data URI said JPEG; the bytes are a PNG.
    const link = await w.p.get(`${w.base}/contacts/${four?.contactId}/photo`);
    const got = await fetch(link.body.url);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);

    // A known UID updates: the card is the truth for its fields.
    const again = await importInto(abk, { content: card('VERSION:3.0', 'FN:Tim Cook', 'UID:apple-1') });
    expect(again.body).toMatchObject({ imported: 0, updated: 1, skipped: 0 });
    const after = (await contactsIn(abk)).find((c) => c.uid === 'apple-1');
    expect(after).toMatchObject({ fullName: 'Tim Cook', emails: [], version: tim?.version + 1 });
    expect(after).not.toHaveProperty('birthday');
  });

  it('works in chunks of 200 with `next`, and from an upload', async () => {
    const abk = await newBook('chunks');
    const many = Array.from({ length: 205 }, (_, i) => card('VERSION:3.0', `FN:Person ${i}`, `UID:p-${i}`)).join('');
    const first = await importInto(abk, { content: many });
    expect(first.body).toMatchObject({ imported: 200, done: false, next: expect.any(String) });
    const second = await importInto(abk, { next: first.body.next });
    expect(second.body).toMatchObject({ imported: 5, updated: 0, done: true, next: null });
    // The file is gone once done.
    const replay = await importInto(abk, { next: first.body.next });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'The file to import is not there: upload it first, or this import is finished.',
    });
    expect(await contactsIn(abk)).toHaveLength(205);

    const file = Buffer.from(fixture('rolo/contacts.vcf'), 'utf8');
    const start = await importInto(abk, { size: file.length });
    expect(start.body).toMatchObject({ imported: 0, done: false, next: expect.any(String), upload: { method: 'PUT' } });
    const early = await importInto(abk, { next: start.body.next });
    expect(early.status).toBe(400);
    const put = await fetch(start.body.upload.url, { method: 'PUT', headers: start.body.upload.headers, body: file });
    expect(put.ok).toBe(true);
    const done = await importInto(abk, { next: start.body.next });
    expect(done.body).toMatchObject({ imported: 27, done: true });
    // A token of another address book is refused.
    const other = await importInto(book, { next: start.body.next });
    expect(other.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
  });

  it('an uploaded file in Windows-1252 is read as such; entries past the limits are left out with one warning', async () => {
    const abk = await newBook('legacy');
    const file = Buffer.concat([
      Buffer.from('BEGIN:VCARD\r\nVERSION:2.1\r\nN:Jos', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from(';Mar\xeda\r\nEND:VCARD\r\n', 'latin1'),
    ]);
    const start = await importInto(abk, { size: file.length });
    await fetch(start.body.upload.url, { method: 'PUT', headers: start.body.upload.headers, body: file });
    expect((await importInto(abk, { next: start.body.next })).body).toMatchObject({ imported: 1, done: true });
    const addresses = Array.from({ length: 12 }, (_, i) => `ADR;TYPE=home:;;${i} Main St;;;;`);
    const many = await importInto(abk, { content: card('VERSION:3.0', 'FN:Many Homes', ...addresses) });
    expect(many.body.warnings).toEqual(['Card 1: more than 10 addresses: the rest were left out']);
    const [legacy, homes] = await contactsIn(abk);
    expect(legacy?.name).toMatchObject({ family: 'José', given: 'María' });
    expect(homes?.addresses).toHaveLength(10);
  });

  it('refuses what it cannot import', async () => {
    const path = bookPath(book);
    expect((await w.p.post(`${path}/import`, {})).body).toEqual({ error: 'Send one of `content`, `size` or `next`.' });
    expect((await w.p.post(`${path}/import`, { content: 'x', size: 3 })).status).toBe(400);
    expect((await w.p.post(`${path}/import`, { content: 'hello' })).body).toEqual({
      error: 'No vCard (BEGIN:VCARD … END:VCARD) was found.',
    });
    const big = await w.p.post(`${path}/import`, { content: card('FN:x', `NOTE:${'n'.repeat(4 * 1024 * 1024)}`) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      error: 'An import body can hold at most 4 MB of vCard: upload a larger file (send its `size`).',
    });
    expect((await w.p.post(`${path}/import`, { size: 50 * 1024 * 1024 + 1 })).status).toBe(413);
    expect((await w.p.post(`${w.base}/address-books/abk_nothing/import`, { content: card('FN:x') })).body).toEqual({
      error: 'Address book not found',
    });
    expect((await w.p.get(`${w.base}/address-books/abk_nothing/export`)).status).toBe(404);
  });
});

describe('export', () => {
  const rich = {
    fullName: 'Zoë Ångström-Łukasiewicz',
    name: { family: 'Ångström-Łukasiewicz', given: 'Zoë', additional: 'Q.', prefix: 'Dr.', suffix: 'PhD' },
    nickname: 'Zo; the, "physicist"',
    emails: [
      { value: 'zoe@physics.example', type: 'work', pref: true },
      { value: 'zoe@home.example', type: 'home' },
      { value: 'z@club.example', type: 'chess club' },
    ],
    phones: [
      { value: '+46 70 123 45 67', type: 'mobile' },
      { value: '+46 8 123 456', type: 'work fax' },
      { value: '+46 8 000 000', type: 'other' },
    ],
    urls: [{ value: 'https://zoe.example/a,b;c', type: 'other' }],
    addresses: [
      { type: 'work', street: 'Lägerhyddsvägen 1', locality: 'Uppsala', postalCode: '752 37', country: 'Sweden' },
      { type: 'other', poBox: 'Box 12; 3', extended: 'c/o, x' },
    ],
    organization: 'Uppsala universitet',
    department: 'Physics; Astronomy',
    title: 'Professor',
    birthday: '1970-01-31',
    anniversary: '--06-21',
    notes: `Line one\nLine two, with; marks \\ and a long tail ${'x'.repeat(200)}`,
    categories: ['science', 'a,b'],
  };
  const png = readFileSync(join(FIXTURES, 'images/python.png'));
  const comparable = (c: Record<string, any>) => {
    const { contactId: _i, addressBookId: _a, version: _v, updatedAt: _u, ...rest } = c;
    return rest;
  };

  it.each(['3.0', '4.0'])('vCard %s: export, import into another address book, the same contacts', async (version) => {
    const from = await newBook(`from ${version}`);
    const made = await w.p.post(`${bookPath(from)}/contacts`, rich);
    expect(made.status).toBe(201);
    const id = made.body.contact.contactId as string;
    await w.p.put(`${w.base}/contacts/${id}/photo`, { contentType: 'image/png', data: png.toString('base64') });
    await w.p.post(`${bookPath(from)}/contacts`, { organization: 'Only An Org', phones: [{ value: '123' }] });
    const out = await w.p.get(`${bookPath(from)}/export${version === '4.0' ? '?version=4.0' : ''}`);
    expect(out.status).toBe(200);
    expect(out.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    expect(out.headers.get('content-disposition')).toContain(`filename="from ${version}.vcf"`);
    const text = out.text;
    expect(text).toContain(`VERSION:${version}\r\n`);
    expect(text.match(/^FN:/gm)).toHaveLength(2);
    expect(text.match(/^N:/gm)).toHaveLength(2);
    expect(text.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    if (version === '3.0') {
      expect(text).toContain('EMAIL;TYPE=INTERNET,work,pref:zoe@physics.example');
      expect(text).toContain('X-ANNIVERSARY;X-APPLE-OMIT-YEAR=1604:1604-06-21');
      expect(text).toContain('PHOTO;ENCODING=b;TYPE=PNG:');
    } else {
      expect(text).toContain('EMAIL;TYPE=work;PREF=1:zoe@physics.example');
      expect(text).toContain('ANNIVERSARY:--0621');
      expect(text).toContain('PHOTO:data:image/png;base64,');
    }
    const to = await newBook(`to ${version}`);
    const back = await importInto(to, { content: text });
    expect(back.body).toMatchObject({ imported: 2, updated: 0, skipped: 0, warnings: [] });
    const [original, second] = await contactsIn(from);
    const [copy, secondCopy] = await contactsIn(to);
    expect(comparable(copy as Record<string, any>)).toEqual(comparable(original as Record<string, any>));
    // FN is always written: the copy of a contact without a full name gets its display name.
    expect(comparable(secondCopy as Record<string, any>)).toEqual({
      ...comparable(second as Record<string, any>),
      fullName: 'Only An Org',
    });
    const link = await w.p.get(`${w.base}/contacts/${copy?.contactId}/photo`);
    expect(Buffer.from(await (await fetch(link.body.url)).arrayBuffer()).equals(png)).toBe(true);
  });

  it('answers by link when asked (and when too large for a response)', async () => {
    const abk = await newBook('Linked «export»');
    await w.p.post(`${bookPath(abk)}/contacts`, { fullName: 'By Link' });
    const path = `${bookPath(abk)}/export?link=true`;
    const raw = await fetch(`${w.p.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${w.p.owner.token}` },
      redirect: 'manual',
    });
    expect(raw.status).toBe(303);
    const file = await fetch(raw.headers.get('location') as string);
    expect(await file.text()).toContain('FN:By Link\r\n');
    // Followed, as clients do.
    const followed = await w.p.get(path);
    expect(followed.status).toBe(200);
    expect(followed.text).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
    expect((await w.p.get(`${bookPath(abk)}/export?version=2.1`)).status).toBe(400);
  });
});
