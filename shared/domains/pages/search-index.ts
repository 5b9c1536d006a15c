import { db } from '../../kernel/store/client';
import { BatchWriteCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { withLease } from '../../kernel/store/lease';
import { transact } from '../../kernel/store/ops';
import { getItem, orgPk, sleep, TABLE } from '../../kernel/store/table';
import { readContent } from './content';
import { type IndexedState, PAGE_MESSAGES, type PageRecord, pageKey } from './records';
import { frequencies, markdownText } from './text';

/**
 * The search index of an organization's pages, in the platform table:
 *
 * - a posting per word and page, `PGIDX#<orgId>` / `<word> <pageId>`, with how often the word is
 *   in the title (`t`) and the text (`b`) and the two lengths (`tl`, `bl`, in distinct words): a query reads
 *   the postings of its words (and of the words its last word begins), never the pages;
 * - the organization's totals, `ORG#<orgId>` / `PGSTATS`: pages indexed and the summed title and
 *   text lengths (BM25's average lengths).
 *
 * A save changes only the postings that differ (the diff of what the page record says was indexed
 * against what it is now), one page at a time (a lease per page); the totals and the page's
 * `indexed` move in one transaction, so a save stopped half-way is finished by the next one.
 * Lengths are kept exactly up to 128 words and to 2% above, so a small edit of a long page does
 * not rewrite all its postings.
 */
export const indexPk = (orgId: string) => `${PREFIXES.pages.searchIndex}${orgId}`;
export const statsKey = (orgId: string) => ({ pk: orgPk(orgId), sk: 'PGSTATS' });

/** Distinct words indexed per page (the first ones met). */
export const MAX_TERMS = 20_000;

export interface Posting {
  pageId: string;
  t: number;
  b: number;
  tl: number;
  bl: number;
}

export interface Stats {
  docs: number;
  titleLength: number;
  bodyLength: number;
}

/** A length as postings keep it: exact up to 128, then in steps of 2%. */
export function approxLength(n: number): number {
  if (n <= 128) return n;
  return Math.round(128 * 1.02 ** Math.round(Math.log(n / 128) / Math.log(1.02)));
}

interface Analyzed {
  postings: Map<string, Omit<Posting, 'pageId'>>;
  titleLength: number;
  bodyLength: number;
}

/** The postings of a title and Markdown content. */
export async function analyze(title: string, markdown: string): Promise<Analyzed> {
  const t = frequencies(title);
  const b = frequencies(await markdownText(markdown), MAX_TERMS);
  // A field's length is its number of distinct words, as MiniSearch measures it.
  const tl = approxLength(t.counts.size);
  const bl = approxLength(b.counts.size);
  const postings = new Map<string, Omit<Posting, 'pageId'>>();
  for (const [term, n] of t.counts) postings.set(term, { t: n, b: 0, tl, bl });
  for (const [term, n] of b.counts) {
    const seen = postings.get(term);
    if (seen) seen.b = n;
    else postings.set(term, { t: 0, b: n, tl, bl });
  }
  return { postings, titleLength: t.counts.size, bodyLength: b.counts.size };
}

const EMPTY: Analyzed = { postings: new Map(), titleLength: 0, bodyLength: 0 };

/** Puts and deletes in batches of 25 (`lanes` at a time), retrying unprocessed ones. */
export async function writeAll(requests: Record<string, unknown>[], lanes = 4): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < requests.length; i += 25) batches.push(requests.slice(i, i + 25));
  let next = 0;
  const lane = async () => {
    for (let batch = batches[next++]; batch; batch = batches[next++]) {
      let pending: Record<string, unknown>[] | undefined = batch;
      for (let attempt = 0; pending && pending.length > 0 && attempt < 8; attempt++) {
        if (attempt > 0) await sleep(20 * 2 ** attempt);
        const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
        pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
      }
      if (pending && pending.length > 0) throw new Error('BatchWrite left index items unprocessed');
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, batches.length) }, lane));
}

/** The page's content as it was when indexed: '' when its object is gone (nothing to diff). */
const contentOf = async (key: string | null | undefined) => (await readContent(key)) ?? '';

/**
 * Brings the index of one page up to date with its record (or removes it from the index, for a
 * page being removed, `remove`): the postings that changed, then the totals and `indexed` together.
 * Content objects stay: each is a version of the page (./versions.ts), removed with the page. Safe to
 * run again at any time.
 */
export async function reindex(orgId: string, pageId: string, remove = false): Promise<void> {
  await withLease(`pages-index#${orgId}#${pageId}`, PAGE_MESSAGES.busy, async () => {
    for (let round = 0; round < 5; round++) {
      const page = await getItem<PageRecord>(pageKey(orgId, pageId), true);
      const old = page?.indexed;
      const target = page && !remove && page.status !== 'removed' ? page : undefined;
      if (!old && !target) return;
      if (old && target && old.title === target.title && old.contentKey === (target.contentKey ?? null)) return;
      const [before, after] = await Promise.all([
        old ? contentOf(old.contentKey).then((c) => analyze(old.title, c)) : EMPTY,
        target ? contentOf(target.contentKey).then((c) => analyze(target.title, c)) : EMPTY,
      ]);
      const requests: Record<string, unknown>[] = [];
      for (const [term, p] of after.postings) {
        const was = before.postings.get(term);
        if (was && was.t === p.t && was.b === p.b && was.tl === p.tl && was.bl === p.bl) continue;
        requests.push({ PutRequest: { Item: { pk: indexPk(orgId), sk: `${term} ${pageId}`, pageId, ...p } } });
      }
      for (const term of before.postings.keys()) {
        if (!after.postings.has(term))
          requests.push({ DeleteRequest: { Key: { pk: indexPk(orgId), sk: `${term} ${pageId}` } } });
      }
      await writeAll(requests);
      const state: IndexedState | undefined = target
        ? {
            title: target.title,
            contentKey: target.contentKey ?? null,
            titleLength: after.titleLength,
            bodyLength: after.bodyLength,
          }
        : undefined;
      await transact([
        ...(page
          ? [
              {
                Update: {
                  TableName: TABLE(),
                  Key: pageKey(orgId, pageId),
                  UpdateExpression: state ? 'SET #indexed = :state' : 'REMOVE #indexed',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeNames: { '#indexed': 'indexed' },
                  ...(state ? { ExpressionAttributeValues: { ':state': state } } : {}),
                },
              },
            ]
          : []),
        {
          Update: {
            TableName: TABLE(),
            Key: statsKey(orgId),
            UpdateExpression: 'ADD docs :docs, titleLength :tl, bodyLength :bl',
            ExpressionAttributeValues: {
              ':docs': (state ? 1 : 0) - (old ? 1 : 0),
              ':tl': (state?.titleLength ?? 0) - (old?.titleLength ?? 0),
              ':bl': (state?.bodyLength ?? 0) - (old?.bodyLength ?? 0),
            },
          },
        },
      ]);
    }
  });
}

/** The organization's index totals. */
export async function indexStats(orgId: string): Promise<Stats> {
  const s = await getItem<Partial<Stats>>(statsKey(orgId));
  return { docs: s?.docs ?? 0, titleLength: s?.titleLength ?? 0, bodyLength: s?.bodyLength ?? 0 };
}
