import { invalid } from '../../kernel/ground/errors';
import { decodeCursor, encodeCursor, INVALID_CURSOR } from '../../kernel/store/cursor';
import { queryPages } from '../../kernel/store/ops';
import { getMany } from '../../kernel/store/table';
import { readContent } from './content';
import { hidingIn, type PageRecord, pageKey, visibleOnly } from './records';
import { indexPk, indexStats, type Posting, type Stats } from './search-index';
import { markdownText, words } from './text';

/**
 * Search over an organization's pages: the query's words (the last one also as a prefix: `depl`
 * finds `deploy`), every word required, scored by BM25+ per field (title weighed twice the text),
 * as MiniSearch scores (k 1.2, b 0.7, d 0.5; a prefix's longer words weighed down by how much
 * they add). It reads the postings of the query's words and the index totals, then only the pages
 * of the answered page of results: the cost follows the query, not the number of pages.
 */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const BOOST = { title: 2, body: 1 };
const PREFIX_WEIGHT = 0.375;
/** Postings read for the words a prefix expands to, at most. */
const MAX_PREFIX_POSTINGS = 5_000;
const MAX_WORDS = 10;
/** The last code point: every key that starts with a string sorts at or below the string and this. */
const LAST = '\u{10FFFF}';

const bm25 = (tf: number, df: number, n: number, len: number, avg: number) =>
  Math.log(1 + (n - df + 0.5) / (df + 0.5)) *
  (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * len) / (avg || 1))));

type Found = Posting & { term: string };

/** The postings of a word (or of every word it begins, up to a cap). */
async function postings(orgId: string, word: string, prefix: boolean): Promise<Found[]> {
  const found: Found[] = [];
  const from = prefix ? word : `${word} `;
  const pages = queryPages<Posting & { sk: string }>({
    // BETWEEN rather than begins_with: the same range on DynamoDB, but DynamoDB Local reads the
    // whole partition for begins_with (17 ms vs 2 ms over 10,000 pages' postings).
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': indexPk(orgId), ':from': from, ':to': `${from}${LAST}` },
  });
  for await (const page of pages) {
    for (const item of page.items) found.push({ ...item, term: item.sk.slice(0, item.sk.lastIndexOf(' ')) });
    if (prefix && found.length >= MAX_PREFIX_POSTINGS) break;
  }
  return found;
}

/** Each page's score for one query word: the sum over the words it matched, title and text. */
function scoreWord(word: string, found: Found[], stats: Stats): Map<string, number> {
  const byTerm = new Map<string, Found[]>();
  for (const p of found) byTerm.set(p.term, [...(byTerm.get(p.term) ?? []), p]);
  const n = Math.max(stats.docs, 1);
  const avgTitle = stats.titleLength / n;
  const avgBody = stats.bodyLength / n;
  const scores = new Map<string, number>();
  for (const [term, list] of byTerm) {
    const distance = term.length - word.length;
    const weight = distance === 0 ? 1 : (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance);
    const dfTitle = list.filter((p) => p.t > 0).length;
    const dfBody = list.filter((p) => p.b > 0).length;
    for (const p of list) {
      let s = 0;
      if (p.t > 0) s += BOOST.title * bm25(p.t, dfTitle, n, p.tl, avgTitle);
      if (p.b > 0) s += BOOST.body * bm25(p.b, dfBody, n, p.bl, avgBody);
      scores.set(p.pageId, (scores.get(p.pageId) ?? 0) + weight * s);
    }
  }
  return scores;
}

export interface Hit {
  page: PageRecord;
  score: number;
  snippet: string;
  highlights: [number, number][];
}

/** One page of results, best first, and the cursor of the next. */
export async function searchPages(
  orgId: string,
  q: string,
  limit: number,
  cursor?: string,
): Promise<{ hits: Hit[]; cursor: string | null }> {
  const scope = `${orgId}:pages-search`;
  const from = decodeCursor<{ q: string; o: number }>(scope, cursor);
  if (from && (from.q !== q || !Number.isInteger(from.o) || from.o < 0)) throw invalid(INVALID_CURSOR);
  const offset = from?.o ?? 0;
  const query = [...new Set(words(q).map((w) => w.term))].slice(0, MAX_WORDS);
  if (query.length === 0) return { hits: [], cursor: null };
  const [stats, hiding, ...perWord] = await Promise.all([
    indexStats(orgId),
    hidingIn(orgId),
    ...query.map((w, i) => postings(orgId, w, i === query.length - 1)),
  ]);
  let total: Map<string, number> | undefined;
  query.forEach((word, i) => {
    const scores = scoreWord(word, perWord[i] as Found[], stats);
    if (!total) total = scores;
    else {
      const next = new Map<string, number>();
      for (const [pageId, s] of total) {
        const more = scores.get(pageId);
        if (more !== undefined) next.set(pageId, s + more);
      }
      total = next;
    }
  });
  const ranked = [...(total ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const slice = ranked.slice(offset, offset + limit);
  const found = await getMany<PageRecord>(slice.map(([pageId]) => pageKey(orgId, pageId)));
  const visible = new Set(
    (
      await visibleOnly(
        orgId,
        found.filter((p): p is PageRecord => p !== undefined),
        hiding as boolean,
      )
    ).map((p) => p.pageId),
  );
  const pages = found.map((p) => (p && visible.has(p.pageId) ? p : undefined));
  const matched = (term: string) =>
    query.slice(0, -1).includes(term) || term.startsWith(query[query.length - 1] as string);
  const hits = await Promise.all(
    slice.map(async ([, score], i) => {
      const page = pages[i];
      if (!page) return undefined;
      const text = await markdownText((await readContent(page.contentKey)) ?? '');
      return { page, score, ...snippetOf(text, matched) };
    }),
  );
  const next = offset + limit < ranked.length ? encodeCursor(scope, { q, o: offset + limit }) : null;
  return { hits: hits.filter((h): h is Hit => h !== undefined), cursor: next };
}

const SNIPPET = 200;

/**
 * Up to 200 characters of the text around the first word the query matched, cut at spaces, with
 * the places of the matched words in it (`[start, end)`); the text's start when none is in it.
 */
export function snippetOf(text: string, matched: (term: string) => boolean) {
  const all = words(text);
  const first = all.find((w) => matched(w.term));
  let start = first ? Math.max(0, first.start - 60) : 0;
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < (first?.start ?? 0) ? space + 1 : start;
  }
  let end = Math.min(text.length, start + SNIPPET);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + SNIPPET / 2) end = space;
  }
  const raw = text.slice(start, end);
  const lead = start > 0 ? '…' : '';
  const snippet = `${lead}${raw.replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
  // Offsets into the snippet: whitespace runs were folded, so they are measured on the folded text.
  const highlights: [number, number][] = [];
  for (const w of words(snippet)) if (matched(w.term)) highlights.push([w.start, w.end]);
  return { snippet, highlights };
}
