import { type ContactRecord, displayNameOf, type Typed } from './records';

/**
 * vCard out: 3.0 (RFC 2426, what most address books read) or 4.0 (RFC 6350). Always FN and N;
 * the preferred entry as `TYPE=pref` (3.0) or `PREF=1` (4.0); the anniversary as `X-ANNIVERSARY`
 * (3.0) or `ANNIVERSARY` (4.0); a yearless date as Apple's `X-APPLE-OMIT-YEAR=1604` (3.0) or
 * `--MMDD` (4.0); the photo inline (`ENCODING=b` or a `data:` URI). Lines are folded at 75 octets.
 */
export type VCardVersion = '3.0' | '4.0';

/** Escapes a text value (RFC 6350 3.4): backslash, line breaks, comma and semicolon. */
export const escapeText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/,/g, '\\,')
    .replace(/;/g, '\\;');

/**
 * A text value that is neither structured nor a list: 4.0 escapes no semicolon there (RFC 6350 3.4;
 * readers of 4.0 keep a `\\;` as it is), 3.0 escapes it (RFC 2426 5).
 */
const escapeFor = (version: VCardVersion) =>
  version === '4.0' ? (s: string) => escapeText(s).replace(/\\;/g, ';') : escapeText;

/** Folds a content line at 75 octets, never inside a UTF-8 character. */
export function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const out: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Back off continuation bytes (10xxxxxx): cut before the character they belong to.
    while (end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    out.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74;
  }
  return out.join('\r\n ');
}

/** A parameter value (commas separate a list's values), quoted where it holds `:` or `;`. */
const paramValue = (v: string) => (/[:;"]/.test(v) ? `"${v.replace(/"/g, "'")}"` : v);
const line = (name: string, params: [string, string][], value: string) =>
  fold(`${name}${params.map(([k, v]) => `;${k}=${paramValue(v)}`).join('')}:${value}`);

const KNOWN = /^(home|work|cell|fax|pager|voice|video|text|textphone|other)$/;

/**
 * The parameters of an email, phone or URL: vCard's TYPE words where the API's type is made of
 * them (`mobile` is `cell`, `work fax` is `work,fax`), else a label of one's own, which goes out as
 * Apple's `itemN.` group with `X-ABLabel` (`custom`).
 */
function typeParams(kind: 'email' | 'tel' | 'url', t: Typed, version: VCardVersion) {
  const words = t.type === 'mobile' ? ['cell'] : t.type.split(/\s+/);
  const own = !words.every((w) => KNOWN.test(w));
  const types = own ? [] : words.filter((w) => w !== 'other' || kind === 'tel');
  if (kind === 'email' && version === '3.0') types.unshift('INTERNET');
  if (version === '3.0' && t.pref) types.push('pref');
  const params: [string, string][] = [];
  if (types.length) params.push(['TYPE', types.join(',')]);
  if (version === '4.0' && t.pref) params.push(['PREF', '1']);
  if (kind === 'tel' && version === '4.0') params.push(['VALUE', 'text']);
  return { params, custom: own ? t.type : undefined };
}

function dateLine(name: string, date: string, version: VCardVersion): string {
  const yearless = date.startsWith('--');
  const [, mm, dd] = yearless ? ['', date.slice(2, 4), date.slice(5, 7)] : date.split('-');
  if (version === '4.0') return line(name, [], yearless ? `--${mm}${dd}` : date.replace(/-/g, ''));
  return yearless ? line(name, [['X-APPLE-OMIT-YEAR', '1604']], `1604-${mm}-${dd}`) : line(name, [], date);
}

const PHOTO_WORD: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/gif': 'GIF',
  'image/webp': 'WEBP',
};

/** One contact as a vCard (CRLF line ends), with its photo's bytes when it has one. */
export function contactToVCard(c: ContactRecord, version: VCardVersion, photo?: Buffer): string {
  const text = escapeFor(version);
  const out: string[] = ['BEGIN:VCARD', `VERSION:${version}`];
  if (version === '4.0') out.push('KIND:individual');
  out.push(line('UID', [], text(c.uid)));
  out.push(line('FN', [], text(c.fullName || displayNameOf(c))));
  const n = c.name;
  out.push(line('N', [], [n.family, n.given, n.additional, n.prefix, n.suffix].map(escapeText).join(';')));
  if (c.nickname) out.push(line('NICKNAME', [], text(c.nickname)));
  let item = 0;
  const entries = [
    ['EMAIL', 'email', c.emails],
    ['TEL', 'tel', c.phones],
    ['URL', 'url', c.urls],
  ] as const;
  for (const [name, kind, list] of entries) {
    for (const e of list) {
      const { params, custom } = typeParams(kind, e, version);
      const value = kind === 'url' ? e.value.replace(/[\r\n]+/g, ' ') : text(e.value);
      if (custom === undefined) {
        out.push(line(name, params, value));
        continue;
      }
      item++;
      out.push(line(`item${item}.${name}`, params, value));
      out.push(line(`item${item}.X-ABLabel`, [], text(custom)));
    }
  }
  for (const a of c.addresses) {
    const parts = [a.poBox, a.extended, a.street, a.locality, a.region, a.postalCode, a.country];
    out.push(line('ADR', a.type === 'other' ? [] : [['TYPE', a.type]], parts.map(escapeText).join(';')));
  }
  if (c.organization || c.department) {
    out.push(line('ORG', [], [c.organization, ...(c.department ? [c.department] : [])].map(escapeText).join(';')));
  }
  if (c.title) out.push(line('TITLE', [], text(c.title)));
  if (c.birthday) out.push(dateLine('BDAY', c.birthday, version));
  if (c.anniversary) out.push(dateLine(version === '4.0' ? 'ANNIVERSARY' : 'X-ANNIVERSARY', c.anniversary, version));
  if (c.notes) out.push(line('NOTE', [], text(c.notes)));
  if (c.categories.length) out.push(line('CATEGORIES', [], c.categories.map(text).join(',')));
  if (photo && c.photoType) {
    out.push(
      version === '4.0'
        ? line('PHOTO', [], `data:${c.photoType};base64,${photo.toString('base64')}`)
        : line(
            'PHOTO',
            [
              ['ENCODING', 'b'],
              ['TYPE', PHOTO_WORD[c.photoType] ?? 'JPEG'],
            ],
            photo.toString('base64'),
          ),
    );
  }
  out.push(line('REV', [], new Date(c.updatedAt).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')));
  out.push('END:VCARD');
  return `${out.join('\r\n')}\r\n`;
}
