import ICAL from 'ical.js';
import type { ContactInput } from './contacts';
import type { Address, Typed } from './records';

/**
 * vCard 2.1, 3.0 and 4.0 in. Each card is first brought to a form ical.js parses (lines unfolded,
 * 2.1's quoted-printable and CHARSET decoded, its bare parameters `TEL;WORK;FAX` made `TYPE=`,
 * base64 named `ENCODING=b`), then parsed by ical.js and mapped to a contact. Photos inline
 * only (3.0 `ENCODING=b`, 4.0 `data:` URIs): a photo by URL is never fetched.
 */

/** One card of a file: where it starts (1-based) and its logical lines. */
export interface RawCard {
  index: number;
  lines: string[];
}

export interface ParsedCard {
  uid?: string;
  input: ContactInput;
  /** Inline photo bytes (the type is sniffed later; the card's word is not trusted). */
  photo?: Buffer;
  warnings: string[];
}

/** The name and parameter part of a content line: up to the first `:` outside double quotes. */
function splitLine(line: string): { head: string; value: string } | undefined {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) return { head: line.slice(0, i), value: line.slice(i + 1) };
  }
  return undefined;
}

const isQuotedPrintable = (line: string) =>
  /;\s*(ENCODING\s*=\s*)?QUOTED-PRINTABLE\b/i.test(splitLine(line)?.head ?? '');

/**
 * The cards of a file, each as its unfolded logical lines: folding (a line starting with a space
 * or tab continues the one before) and 2.1's quoted-printable soft breaks (`=` at a line's end).
 */
export function splitCards(text: string): RawCard[] {
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const logical: string[] = [];
  for (const line of physical) {
    const last = logical.length - 1;
    const prev = logical[last];
    if (prev !== undefined && (line.startsWith(' ') || line.startsWith('\t'))) {
      logical[last] = prev + line.slice(1);
    } else if (prev?.endsWith('=') && isQuotedPrintable(prev)) {
      logical[last] = prev.slice(0, -1) + line;
    } else logical.push(line);
  }
  const cards: RawCard[] = [];
  let current: string[] | undefined;
  let depth = 0;
  for (const line of logical) {
    const upper = line.trim().toUpperCase();
    if (upper === 'BEGIN:VCARD') {
      depth++;
      if (depth === 1) {
        current = [];
        continue;
      }
    } else if (upper === 'END:VCARD' && current) {
      depth--;
      if (depth === 0) {
        cards.push({ index: cards.length + 1, lines: current });
        current = undefined;
        continue;
      }
    }
    if (current && depth === 1 && line.trim() !== '') current.push(line);
  }
  return cards;
}

const ENCODINGS = new Set(['QUOTED-PRINTABLE', 'BASE64', 'B', '8BIT', '7BIT']);

/** Splits on `sep` outside double quotes. */
function splitOutside(s: string, sep: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '"') quoted = !quoted;
    else if (s[i] === sep && !quoted) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function decodeQuotedPrintable(value: string, charset: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    const hex = value.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
  }
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset || 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(Uint8Array.from(bytes));
}

/** Text read from a 2.1 value, escaped as 3.0 wants it (2.1 escapes only `;`). */
const escape21 = (s: string) =>
  s
    .replace(/\\(?!;)/g, '\\\\')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

/** Properties whose values are split on `;` (kept escaped for ical.js). */
const STRUCTURED = new Set(['N', 'ADR', 'ORG', 'GENDER', 'CLIENTPIDMAP', 'LABEL']);

/** A logical line in the form ical.js parses as vCard 3.0 / 4.0. */
function normalizeLine(line: string, v21: boolean): string | undefined {
  const parts = splitLine(line);
  if (!parts) return undefined;
  const [nameWithGroup = '', ...rawParams] = splitOutside(parts.head, ';');
  let value = parts.value;
  const params: [string, string][] = [];
  let qp = false;
  let charset = '';
  for (const raw of rawParams) {
    const eq = raw.indexOf('=');
    const key = (eq < 0 ? '' : raw.slice(0, eq)).trim().toUpperCase();
    const val = (eq < 0 ? raw : raw.slice(eq + 1)).trim();
    if (val === '' && key === '') continue;
    if (key === '' && ENCODINGS.has(val.toUpperCase())) {
      if (val.toUpperCase() === 'QUOTED-PRINTABLE') qp = true;
      else if (val.toUpperCase().startsWith('B')) params.push(['ENCODING', 'b']);
      continue;
    }
    if (key === 'ENCODING') {
      const enc = val.toUpperCase();
      if (enc === 'QUOTED-PRINTABLE') qp = true;
      else if (enc === 'BASE64' || enc === 'B') params.push(['ENCODING', 'b']);
      continue;
    }
    if (key === 'CHARSET') {
      charset = val.replace(/"/g, '');
      continue;
    }
    params.push([key === '' ? 'TYPE' : key, val]);
  }
  if (qp) value = decodeQuotedPrintable(value, charset);
  if (v21 || qp) {
    // Keep `;` as the structured values' separator; a QP-decoded line break becomes `\n`.
    value = escape21(value);
  }
  const name = nameWithGroup.trim().replace(/^.*\./, '').toUpperCase();
  if (!STRUCTURED.has(name)) {
    // `\;` in a plain text value (RFC 2426 asks for it) is a semicolon; ical.js would keep the backslash.
    value = value.replace(/\\(.)/g, (all, c: string) => (c === ';' ? ';' : all));
  }
  const head = [
    nameWithGroup.trim(),
    ...params.map(([k, v]) => `${k}=${/[:;,]/.test(v) && !v.startsWith('"') ? `"${v}"` : v}`),
  ];
  return `${head.join(';')}:${value}`;
}

/** The card as jCard properties, parsed by ical.js; undefined (with the reason) when it can't be. */
export function parseCard(card: RawCard): { props: unknown[][] } | { error: string } {
  const version = card.lines
    .find((l) => /^VERSION:/i.test(l.trim()))
    ?.split(':')[1]
    ?.trim();
  const v21 = version === '2.1' || version === '2.0';
  const lines = card.lines
    .filter((l) => !/^VERSION:/i.test(l.trim()))
    .map((l) => normalizeLine(l, v21))
    .filter((l): l is string => l !== undefined);
  const text = ['BEGIN:VCARD', `VERSION:${version === '4.0' ? '4.0' : '3.0'}`, ...lines, 'END:VCARD'].join('\r\n');
  try {
    const parsed = ICAL.parse(text) as unknown[];
    const vcard = (typeof parsed[0] === 'string' ? parsed : parsed[0]) as unknown[];
    return { props: (vcard[1] ?? []) as unknown[][] };
  } catch (err) {
    return { error: (err as Error).message.slice(0, 200) };
  }
}

interface Prop {
  name: string;
  params: Record<string, string | string[]>;
  type: string;
  values: unknown[];
  group?: string;
}

const asProp = (p: unknown[]): Prop => {
  const params = { ...(p[1] as Record<string, string | string[]>) };
  const group = typeof params.group === 'string' ? params.group.toLowerCase() : undefined;
  delete params.group;
  return { name: String(p[0]), params, type: String(p[2]), values: p.slice(3), group };
};

const str = (v: unknown): string =>
  Array.isArray(v) ? v.map(str).join(',') : v === undefined || v === null ? '' : String(v);
const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/** The lowercased TYPE values of a property. */
function typesOf(p: Prop): string[] {
  const raw = p.params.type;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list
    .flatMap((t) => t.split(','))
    .map((t) => t.trim().replace(/"/g, '').toLowerCase())
    .filter(Boolean);
}

/** Apple's labels: `_$!<HomePage>!$_` → `homepage`; a label of one's own as it is. */
const label = (s: string) => {
  const m = /^_\$!<(.*)>!\$_$/.exec(s.trim());
  return clip((m ? (m[1] as string) : s.trim()).toLowerCase(), 40);
};

const IGNORED_TYPES = new Set(['internet', 'pref', 'voice', 'x400', 'dom', 'intl', 'postal', 'parcel', 'msg', 'text']);

function kindOf(p: Prop, kind: 'email' | 'tel' | 'url', labels: Map<string, string>): string {
  const byLabel = p.group ? labels.get(p.group) : undefined;
  if (byLabel) return byLabel;
  const types = typesOf(p).filter((t) => !IGNORED_TYPES.has(t));
  if (kind === 'tel') {
    if (types.includes('cell') || types.includes('mobile') || types.includes('iphone')) return 'mobile';
    if (types.includes('fax')) return types.includes('home') ? 'home fax' : types.includes('work') ? 'work fax' : 'fax';
    if (types.includes('pager')) return 'pager';
  }
  if (types.includes('home')) return 'home';
  if (types.includes('work')) return 'work';
  const first = types[0];
  return first ? clip(first, 40) : 'other';
}

const isPref = (p: Prop) => typesOf(p).includes('pref') || (p.params.pref !== undefined && str(p.params.pref) === '1');

/**
 * A vCard date as the API keeps it: `YYYY-MM-DD`, or `--MM-DD` when the year is unknown (4.0's
 * `--MMDD`, Apple's `X-APPLE-OMIT-YEAR=1604`). Undefined for what is no date.
 */
export function dateOf(value: string, omitYear?: string): string | undefined {
  const v = value.trim();
  let m = /^(\d{4})-?(\d{2})-?(\d{2})(?:T.*)?$/.exec(v);
  if (m) {
    if (omitYear !== undefined && m[1] === omitYear) return `--${m[2]}-${m[3]}`;
    return `${m[1]}-${m[2]}-${m[3]}`;
  }
  m = /^--(\d{2})-?(\d{2})$/.exec(v);
  if (m) return `--${m[1]}-${m[2]}`;
  return undefined;
}

const PHOTO_DATA = /^data:([^;,]*)(;[^,]*)?,(.*)$/s;

/** The contact a card describes (what the API would take), its UID and its inline photo. */
export function cardToContact(props: unknown[][]): ParsedCard {
  const warnings: string[] = [];
  const list = props.map(asProp);
  const labels = new Map<string, string>();
  for (const p of list) if (p.name === 'x-ablabel' && p.group) labels.set(p.group, label(str(p.values[0])));
  const input: ContactInput = {};
  const emails: Typed[] = [];
  const phones: Typed[] = [];
  const urls: Typed[] = [];
  const addresses: Partial<Address>[] = [];
  const categories: string[] = [];
  let uid: string | undefined;
  let photo: Buffer | undefined;
  const dates: Record<'birthday' | 'anniversary', string | undefined> = { birthday: undefined, anniversary: undefined };
  for (const p of list) {
    const first = p.values[0];
    switch (p.name) {
      case 'fn':
        input.fullName = clip(str(first).trim(), 1000);
        break;
      case 'n': {
        const parts = Array.isArray(first) ? first.map(str) : str(first).split(';');
        const [family = '', given = '', additional = '', prefix = '', suffix = ''] = parts.map((x) =>
          clip(x.trim(), 500),
        );
        input.name = { family, given, additional, prefix, suffix };
        break;
      }
      case 'nickname':
        input.nickname = clip(p.values.map(str).join(', ').trim(), 500);
        break;
      case 'email':
      case 'tel':
      case 'url': {
        let value = str(first).trim();
        if (p.name === 'tel') value = value.replace(/^tel:/i, '');
        if (!value) break;
        const target = p.name === 'email' ? emails : p.name === 'tel' ? phones : urls;
        const max = p.name === 'email' ? 320 : p.name === 'tel' ? 100 : 2000;
        if (target.length >= 50) {
          const text = `more than 50 ${p.name === 'tel' ? 'phones' : p.name === 'email' ? 'emails' : 'URLs'}: the rest were left out`;
          if (!warnings.includes(text)) warnings.push(text);
          break;
        }
        target.push({ value: clip(value, max), type: kindOf(p, p.name, labels), ...(isPref(p) ? { pref: true } : {}) });
        break;
      }
      case 'adr': {
        if (addresses.length >= 10) {
          const text = 'more than 10 addresses: the rest were left out';
          if (!warnings.includes(text)) warnings.push(text);
          break;
        }
        const parts = Array.isArray(first) ? first.map(str) : str(first).split(';');
        const [poBox = '', extended = '', street = '', locality = '', region = '', postalCode = '', country = ''] =
          parts.map((x) => clip(x.trim(), 500));
        const types = typesOf(p);
        const type = types.includes('work') ? 'work' : types.includes('home') ? 'home' : 'other';
        addresses.push({ type, poBox, extended, street, locality, region, postalCode, country });
        break;
      }
      case 'org': {
        const parts = Array.isArray(first) ? first.map(str) : [str(first)];
        input.organization = clip((parts[0] ?? '').trim(), 1000);
        if (parts.length > 1) input.department = clip(parts.slice(1).join(', ').trim(), 1000);
        break;
      }
      case 'title':
        input.title = clip(str(first).trim(), 1000);
        break;
      case 'note': {
        const note = p.values.map(str).join('\n');
        if (note.length > 32_000) warnings.push('the note was cut to 32,000 characters');
        input.notes = (input.notes ? `${input.notes}\n` : '') + note;
        input.notes = clip(input.notes, 32_000);
        break;
      }
      case 'categories':
        for (const c of p.values.map(str)) {
          const t = clip(c.trim(), 100);
          if (t && !categories.includes(t) && categories.length < 30) categories.push(t);
        }
        break;
      case 'uid':
        uid = clip(str(first).trim(), 255) || undefined;
        break;
      case 'bday':
      case 'anniversary':
      case 'x-anniversary': {
        const field = p.name === 'bday' ? 'birthday' : 'anniversary';
        const omit = p.params['x-apple-omit-year'];
        const date = dateOf(str(first), omit === undefined ? undefined : str(omit));
        if (date) dates[field] = date;
        else warnings.push(`${p.name.toUpperCase()} "${clip(str(first), 40)}" is no date: left out`);
        break;
      }
      case 'photo': {
        if (photo) break;
        const value = str(first).trim();
        const data = PHOTO_DATA.exec(value);
        if (data) {
          if ((data[2] ?? '').toLowerCase().includes('base64')) photo = Buffer.from(data[3] as string, 'base64');
          else {
            try {
              photo = Buffer.from(decodeURIComponent(data[3] as string), 'latin1');
            } catch {
              warnings.push('the photo is no valid data URI: left out');
            }
          }
        } else if (p.type === 'binary' || str(p.params.encoding).toLowerCase() === 'b') {
          photo = Buffer.from(value.replace(/\s+/g, ''), 'base64');
        } else if (value) {
          warnings.push('a photo by URL was not fetched');
        }
        break;
      }
      default:
        break;
    }
  }
  if (emails.length) input.emails = emails;
  if (phones.length) input.phones = phones;
  if (urls.length) input.urls = urls;
  if (addresses.length) input.addresses = addresses;
  if (categories.length) input.categories = categories;
  if (dates.birthday) input.birthday = dates.birthday;
  if (dates.anniversary) input.anniversary = dates.anniversary;
  return { uid, input, photo, warnings };
}
