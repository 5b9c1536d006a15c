import type MarkdownIt from 'markdown-it';

/**
 * The words of a page, as the search index and its queries see them: the text of the Markdown
 * (markdown-it's tokens: prose, code, image descriptions; never link targets or markup), cut into
 * words by `Intl.Segmenter`, lower-cased, accents folded (`Café` → `cafe`).
 */
let parser: Promise<InstanceType<typeof MarkdownIt>> | undefined;
/** markdown-it loads with the first page read as text (a chunk of its own: reads never load it). */
const md = () => {
  parser ??= import('markdown-it').then(({ default: Parser }) => new Parser({ html: false, linkify: false }));
  return parser;
};
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** Words longer than this are not indexed (base64, hashes): no one searches for them. */
const MAX_TERM = 64;

/** A word and where it is in the text it came from. */
export interface Word {
  term: string;
  start: number;
  end: number;
}

/** `Café` → `cafe`: lower case, compatibility forms, marks removed. */
export const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The readable text of Markdown: one line per block, inline markup dropped. */
export async function markdownText(markdown: string): Promise<string> {
  if (markdown === '') return '';
  const out: string[] = [];
  for (const token of (await md()).parse(markdown, {})) {
    if (token.type === 'inline') {
      let line = '';
      for (const child of token.children ?? []) {
        if (child.type === 'text' || child.type === 'code_inline') line += child.content;
        else if (child.type === 'softbreak' || child.type === 'hardbreak') line += ' ';
        else if (child.type === 'image') line += child.content;
      }
      out.push(line);
    } else if (token.type === 'fence' || token.type === 'code_block') {
      out.push(token.content.replace(/\n$/, ''));
    }
  }
  return out.join('\n');
}

/**
 * Text is segmented in pieces of about CHUNK characters cut at white space: ICU's word iterator
 * slows down far more than linearly on one long string (a 1,000,000-character page took minutes).
 */
const CHUNK = 2_000;

/** The words of a text, in order, with their offsets. */
export function words(text: string): Word[] {
  const found: Word[] = [];
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + CHUNK);
    if (to < text.length) {
      let cut = to;
      while (cut > from + CHUNK / 2 && !/\s/.test(text[cut - 1] as string)) cut--;
      if (cut > from + CHUNK / 2) to = cut;
      else if (/[\uD800-\uDBFF]/.test(text[to - 1] as string)) to--; // never between a surrogate pair
    }
    for (const s of segmenter.segment(text.slice(from, to))) {
      if (!s.isWordLike) continue;
      const term = fold(s.segment);
      if (term === '' || term.length > MAX_TERM) continue;
      found.push({ term, start: from + s.index, end: from + s.index + s.segment.length });
    }
    from = to;
  }
  return found;
}

/** How often each word occurs (the first `maxDistinct` words met, at most). */
export function frequencies(text: string, maxDistinct = Number.POSITIVE_INFINITY): { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  for (const w of words(text)) {
    const seen = counts.get(w.term);
    if (seen !== undefined) counts.set(w.term, seen + 1);
    else if (counts.size < maxDistinct) counts.set(w.term, 1);
  }
  return { counts };
}
