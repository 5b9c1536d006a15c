import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * WebDAV's XML (RFC 4918) in and out. In: fast-xml-parser 5, element order kept, every name
 * resolved to its namespace from the `xmlns` declarations in scope (clients choose their own
 * prefixes: `D:`, `d:`, `a:`, or a default namespace); a DOCTYPE is refused (no entities to
 * expand). Out: text written with fixed prefixes, each namespace declared once on the root.
 */
export const NS = {
  dav: 'DAV:',
  caldav: 'urn:ietf:params:xml:ns:caldav',
  carddav: 'urn:ietf:params:xml:ns:carddav',
  cs: 'http://calendarserver.org/ns/',
  apple: 'http://apple.com/ns/ical/',
} as const;

const PREFIX: Record<string, string> = {
  [NS.dav]: 'D',
  [NS.caldav]: 'C',
  [NS.carddav]: 'CR',
  [NS.cs]: 'CS',
  [NS.apple]: 'A',
};

export interface XNode {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
  text: string;
}

export class XmlError extends Error {}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type Raw = Record<string, unknown>;

/** The document's root element; an XmlError when the text is not well-formed XML. */
export function parseXml(text: string): XNode {
  if (/<!DOCTYPE/i.test(text)) throw new XmlError('A DOCTYPE is not accepted.');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new XmlError(`Not well-formed XML: ${valid.err.msg} (line ${valid.err.line}).`);
  const raw = parser.parse(text) as Raw[];
  const roots = raw.flatMap((r) => build(r, { '': '' }));
  const root = roots[0];
  if (!root || roots.length > 1) throw new XmlError('The XML must have one root element.');
  return root;
}

function build(entry: Raw, scope: Record<string, string>): XNode[] {
  const tag = Object.keys(entry).find((k) => k !== ':@');
  if (tag === undefined || tag === '#text' || tag.startsWith('?') || tag === '#comment') return [];
  const attrs = (entry[':@'] ?? {}) as Record<string, string>;
  const inner: Record<string, string> = { ...scope };
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'xmlns') inner[''] = v;
    else if (k.startsWith('xmlns:')) inner[k.slice(6)] = v;
  }
  const colon = tag.indexOf(':');
  const prefix = colon >= 0 ? tag.slice(0, colon) : '';
  const ns = inner[prefix];
  if (ns === undefined) throw new XmlError(`The prefix ${prefix} is not declared.`);
  const kids = (entry[tag] ?? []) as Raw[];
  const children: XNode[] = [];
  let text = '';
  for (const k of kids) {
    if ('#text' in k) text += String(k['#text']);
    else children.push(...build(k, inner));
  }
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs))
    if (k !== 'xmlns' && !k.startsWith('xmlns:')) own[k.replace(/^.*:/, '')] = v;
  return [{ ns, name: colon >= 0 ? tag.slice(colon + 1) : tag, attrs: own, children, text }];
}

export const is = (n: XNode | undefined, ns: string, name: string) => !!n && n.ns === ns && n.name === name;
export const child = (n: XNode | undefined, ns: string, name: string) => n?.children.find((c) => is(c, ns, name));
export const childrenOf = (n: XNode | undefined, ns: string, name: string) =>
  n?.children.filter((c) => is(c, ns, name)) ?? [];

export const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);

/** A property's or element's qualified name: `{ns}name`. */
export const qname = (ns: string, name: string) => `{${ns}}${name}`;

/** An element in the fixed prefixes (a namespace without one gets its own declaration). */
export function el(ns: string, name: string, inner?: string): string {
  const p = PREFIX[ns];
  const open = p ? `${p}:${name}` : `X:${name} xmlns:X="${escapeXml(ns)}"`;
  const close = p ? `${p}:${name}` : `X:${name}`;
  return inner === undefined || inner === '' ? `<${open}/>` : `<${open}>${inner}</${close}>`;
}

export const text = (ns: string, name: string, value: string) => el(ns, name, escapeXml(value));

/** A document: the root with every fixed namespace declared. */
export function doc(ns: string, name: string, inner: string): string {
  const decls = Object.entries(PREFIX)
    .map(([uri, p]) => ` xmlns:${p}="${uri}"`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<${PREFIX[ns]}:${name}${decls}>${inner}</${PREFIX[ns]}:${name}>`;
}
