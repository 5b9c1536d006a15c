import fc from 'fast-check';
import { jsonSchemaOf } from '../../lib/openapi';
import { allRoutes } from '../helpers/routes';
import { fromSchema, type JsonSchema, oddText, wild } from '../http/fuzz-arbitraries';
import { type ContactsWorld, defaultBook, startContactsWorld } from './helpers';

/**
 * Past membership (the route table's fuzz has no mailbox of its own): bodies from each write's
 * schema and anything else, and vCard files made of real and broken lines, never answer a 5xx,
 * and an error is `{ error }`. The seed is fixed (FUZZ_SEED, FUZZ_RUNS explore further).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

let w: ContactsWorld;
let book: string;
let contact: string;
beforeAll(async () => {
  w = await startContactsWorld();
  book = await defaultBook(w);
  const made = await w.p.post(`${w.base}/address-books/${book}/contacts`, { fullName: 'Fuzzed' });
  contact = made.body.contact.contactId;
});
afterAll(() => w.close());

const schemaOf = (method: string, suffix: string) => {
  const route = allRoutes()
    .groups.flatMap((g) => g.routes)
    .find((r) => r.method === method && r.path.endsWith(suffix));
  if (!route?.body) throw new Error(`no route ${method} …${suffix}`);
  return jsonSchemaOf(route.body, `${method} ${route.path}`) as JsonSchema;
};

async function sane(method: string, path: string, body: unknown) {
  const res = await w.p.call(method, path, { body: body === undefined ? null : body });
  if (res.status >= 500 || (res.status >= 400 && typeof res.body?.error !== 'string')) {
    throw new Error(
      `${method} ${path} ${JSON.stringify(body).slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`,
    );
  }
}

it('contact, address book and photo writes: no 5xx, whatever the body', async () => {
  const writes: [string, string, string][] = [
    ['POST', `${w.base}/address-books/${book}/contacts`, '/address-books/:addressBookId/contacts'],
    ['PUT', `${w.base}/address-books/${book}/contacts/${contact}`, '/contacts/:contactId'],
    ['PATCH', `${w.base}/address-books/${book}`, '/address-books/:addressBookId'],
    ['PUT', `${w.base}/contacts/${contact}/photo`, '/contacts/:contactId/photo'],
  ];
  for (const [method, path, suffix] of writes) {
    const schema = schemaOf(method, suffix);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fromSchema(schema), wild), (body) => sane(method, path, body)),
      { seed: SEED, numRuns: 25 },
    );
  }
});

it('imports of odd vCard files: no 5xx', async () => {
  const lines = fc.oneof(
    fc.constantFrom(
      'VERSION:2.1',
      'VERSION:4.0',
      'FN:x',
      'N:a;b;c;d;e;f;g',
      'N:',
      'TEL;WORK;VOICE;;:+1',
      'EMAIL;TYPE="a,b:c":x@y',
      'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=nonsense:=ZZ=4=',
      'PHOTO;ENCODING=b;TYPE=JPEG:!!!notbase64',
      'PHOTO:data:image/png;base64,',
      'PHOTO:data:,%ZZ',
      'BDAY:not-a-date',
      'BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-30',
      'ANNIVERSARY:--1399',
      'item1.X-ABLabel:_$!<>!$_',
      ':novalue',
      'NONAME',
      ' folded continuation',
      'BEGIN:VCARD',
      'END:VCARD',
      'ADR;TYPE=home:;;;;;;;;;;',
      'CATEGORIES:,,,',
      'UID:',
    ),
    oddText.map((t) => `NOTE:${t}`),
    fc.string().map((t) => `X-${t}`),
  );
  const card = fc.array(lines, { maxLength: 8 }).map((ls) => ['BEGIN:VCARD', ...ls, 'END:VCARD'].join('\r\n'));
  await fc.assert(
    fc.asyncProperty(fc.array(card, { minLength: 1, maxLength: 3 }), (cards) =>
      sane('POST', `${w.base}/address-books/${book}/import`, { content: cards.join('\r\n') }),
    ),
    { seed: SEED, numRuns: RUNS },
  );
});
