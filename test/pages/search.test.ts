import MiniSearch from 'minisearch';
import { markdownText, words } from '../../shared/domains/pages/text';
import type { TestPlatform } from '../helpers/platform';
import { pagesPlatform } from './platform';

/**
 * Search over pages: the index kept by diff through creates, saves, renames and deletes gives the
 * scores MiniSearch (BM25+, title boosted twice, prefix on the last word, every word required)
 * gives over the same final pages; accents fold, Markdown is read as text, snippets show the match.
 */
let p: TestPlatform;
const pages = () => `/v1/orgs/${p.org.orgId}/pages`;

beforeAll(async () => {
  p = await pagesPlatform('pages-search');
});
afterAll(() => p.close());

interface Result {
  page: { pageId: string; title: string };
  score: number;
  snippet: string;
  highlights: [number, number][];
}

async function search(q: string, limit = 50): Promise<Result[]> {
  const res = await p.get(`${pages()}/search?q=${encodeURIComponent(q)}&limit=${limit}`);
  expect(res.status).toBe(200);
  return res.body.results;
}

async function create(title: string, content = '') {
  const res = await p.post(pages(), { title, content });
  expect(res.status).toBe(201);
  return res.body.page.pageId as string;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = [
  'deploy',
  'deployment',
  'deployments',
  'database',
  'data',
  'bucket',
  'budget',
  'release',
  'review',
  'pipeline',
  'pipe',
  'café',
  'naïve',
  'Übersicht',
  'runbook',
  'rollback',
  'incident',
  'invoice',
  'onboarding',
  'laptop',
  'security',
  'secret',
  'token',
  'tokenizer',
  'cache',
  'caching',
  'metrics',
  'monitoring',
  'alert',
  'alerts',
  'kubernetes',
  'lambda',
  'latency',
  'layout',
  'ledger',
];

describe('the index against MiniSearch over the same pages', () => {
  it('gives the same top pages and scores for each single word, and the same pages for two', async () => {
    const rnd = random(42);
    const pick = () => VOCABULARY[Math.floor(rnd() * VOCABULARY.length)] as string;
    const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');
    const markdown = () => {
      const blocks = [`# ${phrase(2)}`, `${phrase(8)} **${pick()}** ${phrase(4)}`, `- ${phrase(3)}\n- ${phrase(3)}`];
      if (rnd() < 0.5) blocks.push(`\`\`\`\n${phrase(3)}\n\`\`\``);
      if (rnd() < 0.3) blocks.push(`See [${pick()}](https://example.com/zebra).`);
      return blocks.slice(0, 1 + Math.floor(rnd() * blocks.length)).join('\n\n');
    };
    const docs = new Map<string, { title: string; content: string }>();
    for (let i = 0; i < 40; i++) {
      const title = phrase(1 + Math.floor(rnd() * 3));
      const content = markdown();
      docs.set(await create(title, content), { title, content });
    }
    // Saves, renames and deletes: the index follows each by diff.
    const ids = [...docs.keys()];
    for (const id of ids.slice(0, 10)) {
      const doc = docs.get(id) as { title: string; content: string };
      const content = markdown();
      expect((await p.put(`${pages()}/${id}/content`, { content })).status).toBe(200);
      doc.content = content;
    }
    for (const id of ids.slice(5, 12)) {
      const title = phrase(2);
      expect((await p.patch(`${pages()}/${id}`, { title })).status).toBe(200);
      (docs.get(id) as { title: string }).title = title;
    }
    for (const id of ids.slice(30, 34)) {
      expect((await p.delete(`${pages()}/${id}`)).status).toBe(204);
      docs.delete(id);
    }

    const tokenize = (text: string) => words(text).map((w) => w.term);
    const mini = new MiniSearch<{ id: string; title: string; text: string }>({
      fields: ['title', 'text'],
      tokenize,
      processTerm: (t) => t,
      searchOptions: {
        tokenize,
        processTerm: (t) => t,
        boost: { title: 2 },
        prefix: (_t, i, terms) => i === terms.length - 1,
        combineWith: 'AND',
      },
    });
    mini.addAll(
      await Promise.all(
        [...docs].map(async ([id, d]) => ({ id, title: d.title, text: await markdownText(d.content) })),
      ),
    );

    const queries = [...new Set(VOCABULARY.map((w) => words(w)[0]?.term as string))];
    queries.push('dep', 'pip', 'cach', 'UBERSICHT', 'Cafe');
    let compared = 0;
    for (const q of queries) {
      const expected = mini.search(q);
      const got = await search(q);
      expect(got.length).toBe(Math.min(50, expected.length));
      // Same page at each place, or one with the very same score (a tie).
      got.slice(0, 5).forEach((r, i) => {
        const want = expected[i] as { id: string; score: number };
        const same = expected.find((e) => e.id === r.page.pageId) as { score: number };
        expect(same).toBeDefined();
        expect(r.score).toBeCloseTo(same.score, 6);
        expect(same.score).toBeCloseTo(want.score, 6);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(100);
    for (const q of ['deploy database', 'security token', 'release rev']) {
      const expected = new Set(mini.search(q).map((r) => r.id));
      const got = await search(q);
      expect(new Set(got.map((r) => r.page.pageId))).toEqual(expected);
    }
  });
});

describe('words, Markdown and snippets', () => {
  it('folds accents and case, reads Markdown as text (never link targets), and shows where it matched', async () => {
    const id = await create(
      'Café menu',
      '# Menu\n\nThe **crème brûlée** is [served](https://quokka.example/) daily.\n\n```\nespresso --double\n```',
    );
    for (const q of ['cafe', 'CAFÉ', 'creme brulee', 'espresso', 'brû']) {
      expect((await search(q)).map((r) => r.page.pageId)).toContain(id);
    }
    expect(await search('quokka')).toEqual([]);
    expect(await search('https')).toEqual([]);
    const [hit] = await search('brulee');
    expect(hit?.snippet).toContain('crème brûlée');
    const [start, end] = (hit?.highlights[0] ?? [0, 0]) as [number, number];
    expect(hit?.snippet.slice(start, end)).toBe('brûlée');
    // Only punctuation: no words, no results.
    expect(await search('?!')).toEqual([]);
  });

  it('follows saves and renames: old words stop matching, new ones match', async () => {
    const id = await create('Quarterly plan', 'alpha bravo charlie');
    expect((await search('bravo')).map((r) => r.page.pageId)).toEqual([id]);
    await p.put(`${pages()}/${id}/content`, { content: 'delta echo' });
    expect(await search('bravo')).toEqual([]);
    expect((await search('echo')).map((r) => r.page.pageId)).toEqual([id]);
    await p.patch(`${pages()}/${id}`, { title: 'Yearly plan' });
    expect(await search('quarterly')).toEqual([]);
    expect((await search('yearly')).map((r) => r.page.pageId)).toEqual([id]);
    await p.delete(`${pages()}/${id}`);
    expect(await search('yearly')).toEqual([]);
  });

  it('pages results with a signed cursor tied to the query', async () => {
    for (let i = 0; i < 5; i++) await create(`Zygote ${i}`, 'zygote '.repeat(i + 1));
    const all = await search('zygote');
    expect(all).toHaveLength(5);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `${pages()}/search?q=zygote&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res: { status: number; body: { results: Result[]; cursor: string | null } } = await p.get(url);
      expect(res.status).toBe(200);
      seen.push(...res.body.results.map((r) => r.page.pageId));
      cursor = res.body.cursor;
    } while (cursor);
    expect(seen).toEqual(all.map((r) => r.page.pageId));
    const first = await p.get(`${pages()}/search?q=zygote&limit=2`);
    const other = await p.get(`${pages()}/search?q=other&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    expect((await p.get(`${pages()}/search?q=`)).status).toBe(400);
  });
});
