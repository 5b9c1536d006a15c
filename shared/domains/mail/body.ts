import type { AttachmentRef, MessageRecord } from './messages';
import { getObject, linkTo } from './objects';

export interface Body {
  text: string;
  html: string | null;
  remoteImagesBlocked: number;
  /** Cut to fit a response (Lambda's 6 MB): the whole message is at `…/raw`. */
  truncated: boolean;
}

/** What a response may carry of a body (Lambda answers at most 6 MB, JSON escaping included). */
const MAX_BODY_CHARS = 2_000_000;

/** A body over the limit: its text cut to it, its HTML left out (cut HTML would not be whole). */
function capped(b: Body): Body {
  if (b.text.length + (b.html?.length ?? 0) <= MAX_BODY_CHARS) return b;
  return { ...b, text: b.text.slice(0, MAX_BODY_CHARS), html: null, truncated: true };
}

/**
 * A message's body as a mail client shows it: the text, and the HTML cleaned by sanitize-html (no
 * scripts, event handlers, forms, frames or styles that load anything); remote images blocked
 * unless `images` (their address kept in `data-blocked-src`), `cid:` parts as short-lived links.
 */
export async function bodyOf(m: MessageRecord, images: boolean): Promise<Body> {
  const stored = await getObject(m.bodyKey);
  const body = stored
    ? (JSON.parse(stored.toString('utf8')) as { text: string; html: string | null })
    : { text: '', html: null };
  if (!body.html) return capped({ text: body.text, html: null, remoteImagesBlocked: 0, truncated: false });
  const byCid = new Map(m.attachments.filter((a) => a.contentId).map((a) => [a.contentId as string, a]));
  const links = new Map<string, string>();
  await Promise.all(
    [...byCid.entries()].map(async ([cid, a]: [string, AttachmentRef]) =>
      links.set(cid, await linkTo(a.key, undefined, 600)),
    ),
  );
  let blocked = 0;
  // Loaded with the first HTML body (out of the mail group's cold start).
  const { default: sanitizeHtml } = await import('sanitize-html');
  const html = sanitizeHtml(body.html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'font', 'center', 'span'],
    allowedAttributes: {
      '*': ['style', 'align', 'dir', 'title', 'lang'],
      a: ['href', 'name', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height', 'data-blocked-src'],
      font: ['color', 'face', 'size'],
      td: ['colspan', 'rowspan', 'width', 'valign', 'bgcolor'],
      th: ['colspan', 'rowspan', 'width', 'valign'],
      table: ['width', 'border', 'cellpadding', 'cellspacing', 'bgcolor'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'cid'],
    allowedSchemesByTag: { img: ['http', 'https', 'cid'] },
    allowedStyles: {
      '*': {
        color: [/^[#\w\s(),.%-]+$/],
        'background-color': [/^[#\w\s(),.%-]+$/],
        'text-align': [/^\w+$/],
        'font-size': [/^[\w.%-]+$/],
        'font-weight': [/^\w+$/],
        'font-family': [/^[\w\s,"'-]+$/],
      },
    },
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
      img: (tagName, attribs) => {
        const src = attribs.src ?? '';
        if (/^cid:/i.test(src)) {
          const link = links.get(src.slice(4).replace(/^<|>$/g, ''));
          const { src: _s, ...rest } = attribs;
          return { tagName, attribs: link ? { ...rest, src: link } : rest };
        }
        if (/^https?:/i.test(src) && !images) {
          blocked++;
          const { src: _s, ...rest } = attribs;
          return { tagName, attribs: { ...rest, 'data-blocked-src': src } };
        }
        return { tagName, attribs };
      },
    },
  });
  return capped({ text: body.text, html, remoteImagesBlocked: blocked, truncated: false });
}
