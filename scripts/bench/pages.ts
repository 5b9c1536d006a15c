import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { IndexedState, PageRecord } from '../../shared/domains/pages/records';
import { type BenchPlatform, runAlone } from './platform';
import { median, ms, ratio } from './stats';

/**
 * Search page 1 (`GET …/pages/search`, 20 results with snippets, through the local gateway) over
 * an organization of 10,000 pages against one of 100. Both are seeded through the store directly
 * (page records, their postings as the index writes them, the index totals), with the content
 * objects of the pages a query can answer. Two queries: a word in 20 pages of either organization
 * (its postings do not grow with the organization: the cost should not either), and a word in a
 * fifth of the pages (its postings grow 100 times: read whole, then ranked).
 */
export interface PagesFigures {
  runs: number;
  sizes: [number, number];
  rare: { small: number; large: number };
  /** The rare word's postings read bare (one Query of a document client): the engine's own share. */
  bare: { small: number; large: number };
  common: { small: number; large: number };
  seedMs: number;
  /** Saving a page's content through the gateway (PUT …/content): median ms of `runs`. */
  saves: { runs: number; big: number; distinct: number };
}

/** The saves the pages test makes (test/pages/pages.test.ts), timed here instead of asserted there. */
const BIG = `${'word '.repeat(199_999)}last!`; // 1,000,000 characters, one word
const DISTINCT = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36).padStart(4, '0')}`)
  .map((w) => `${w} lorem ipsum dolor sit amet consectetur adipiscing`)
  .join('\n'); // 5,000 distinct words in 300,000 characters

const RARE = 'zephyr';
const COMMON = 'common';
const FILLER = Array.from({ length: 2_000 }, (_, i) => `w${i.toString(36)}`);

export async function benchPages(platform: BenchPlatform, options: { runs?: number } = {}): Promise<PagesFigures> {
  const runs = options.runs ?? 30;
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-pages-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const env = process.env;
    env.ARTIFACTS_BUCKET = `bench-pages-${randomBytes(4).toString('hex')}`;
    const [{ storage }, { createGateway, listen }, { createOrg, addMember }] = await Promise.all([
      import('../../shared/ports/object-storage'),
      import('../../lib/local/gateway'),
      import('../../shared/kernel/identity/orgs'),
    ]);
    await storage().createBucket(env.ARTIFACTS_BUCKET);
    const gateway = createGateway();
    const port = await listen(gateway, 0);
    stops.push(() => {
      gateway.closeAllConnections();
      gateway.close();
    });
    // The owner of the bench organization owns the large one too: the same token reads both.
    const large = await createOrg({ slug: 'bench-pages', name: 'Bench pages', kind: 'customer' });
    await addMember(large.orgId, 'owner@bench.example', 'owner', 'Bench owner');
    const t0 = performance.now();
    await seed(platform.orgId, 100, platform.userId);
    await seed(large.orgId, 10_000, platform.userId);
    const seedMs = performance.now() - t0;

    const search = async (orgId: string, q: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/orgs/${orgId}/pages/search?q=${q}&limit=20`, {
        headers: { authorization: `Bearer ${platform.jwt}` },
      });
      const body = (await res.json()) as { results?: unknown[] };
      if (res.status !== 200 || body.results?.length !== 20)
        throw new Error(`bench search answered ${res.status} with ${JSON.stringify(body).slice(0, 300)}`);
    };
    const timed = async (orgId: string, q: string) => {
      const t = performance.now();
      await search(orgId, q);
      return performance.now() - t;
    };
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: platform.dynamoEndpoint }));
    stops.push(() => client.destroy());
    const bare = async (orgId: string) => {
      const t = performance.now();
      const out = await client.send(
        new QueryCommand({
          TableName: env.TABLE_NAME,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': `PGIDX#${orgId}`, ':from': RARE, ':to': `${RARE}\u{10FFFF}` },
        }),
      );
      if (out.Items?.length !== 20) throw new Error('bench postings: not the 20 seeded');
      return performance.now() - t;
    };
    const bareSmall: number[] = [];
    const bareLarge: number[] = [];
    const series = {
      rareSmall: [] as number[],
      rareLarge: [] as number[],
      commonSmall: [] as number[],
      commonLarge: [] as number[],
    };
    for (let i = 0; i < runs + 3; i++) {
      const round = [
        await timed(platform.orgId, RARE),
        await timed(large.orgId, RARE),
        await timed(platform.orgId, COMMON),
        await timed(large.orgId, COMMON),
      ];
      const b = [await bare(platform.orgId), await bare(large.orgId)];
      if (i < 3) continue;
      bareSmall.push(b[0] as number);
      bareLarge.push(b[1] as number);
      series.rareSmall.push(round[0] as number);
      series.rareLarge.push(round[1] as number);
      series.commonSmall.push(round[2] as number);
      series.commonLarge.push(round[3] as number);
    }
    // The saves, after the searches (their page joins the small organization): one page, its content
    // replaced by each text in turn.
    const api = (method: string, path: string, body: unknown) =>
      fetch(`http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/pages${path}`, {
        method,
        headers: { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const made = await api('POST', '', { title: 'Bench saves' });
    if (made.status !== 201) throw new Error(`bench page: ${made.status} ${await made.text()}`);
    const pageId = ((await made.json()) as { page: { pageId: string } }).page.pageId;
    const save = async (content: string) => {
      const t = performance.now();
      const res = await api('PUT', `/${pageId}/content`, { content });
      if (res.status !== 200) throw new Error(`bench save: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      return performance.now() - t;
    };
    const saveRuns = 5;
    const bigSaves: number[] = [];
    const distinctSaves: number[] = [];
    for (let i = 0; i < saveRuns; i++) {
      bigSaves.push(await save(BIG));
      distinctSaves.push(await save(DISTINCT));
    }
    return {
      runs,
      sizes: [100, 10_000],
      rare: { small: median(series.rareSmall), large: median(series.rareLarge) },
      bare: { small: median(bareSmall), large: median(bareLarge) },
      common: { small: median(series.commonSmall), large: median(series.commonLarge) },
      seedMs,
      saves: { runs: saveRuns, big: median(bigSaves), distinct: median(distinctSaves) },
    };
  } finally {
    for (const s of stops.reverse()) await s();
  }
}

/**
 * `count` top-level pages of `orgId`, written as the routes would leave them: the record, its
 * postings (shared/domains/pages/search-index.ts `analyze`) and the totals; content objects only for the
 * pages a bench query answers (the others are never read).
 */
async function seed(orgId: string, count: number, by: string): Promise<void> {
  const [{ analyze, indexPk, statsKey, writeAll }, { listPk, listSk, pageKey }, { writeContent }, { newId }] =
    await Promise.all([
      import('../../shared/domains/pages/search-index'),
      import('../../shared/domains/pages/records'),
      import('../../shared/domains/pages/content'),
      import('../../shared/kernel/store/ids'),
    ]);
  const { generateNKeysBetween } = await import('fractional-indexing');
  const ranks = generateNKeysBetween(null, null, count);
  let state = count;
  const rnd = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const word = () => FILLER[Math.floor(rnd() * FILLER.length)] as string;
  const items: Record<string, unknown>[] = [];
  const pages: PageRecord[] = [];
  const contents: Promise<void>[] = [];
  const totals = { docs: 0, titleLength: 0, bodyLength: 0 };
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const pageId = newId('pg_');
    const extra = [i % 5 === 0 ? COMMON : '', i < 20 ? RARE : ''].filter(Boolean);
    const title = `${word()} ${word()}`;
    const content = [word(), word(), ...extra, word(), word()].join(' ');
    const analyzed = await analyze(title, content);
    const rank = ranks[i] as string;
    const indexed: IndexedState = {
      title,
      contentKey: null,
      titleLength: analyzed.titleLength,
      bodyLength: analyzed.bodyLength,
    };
    const page: PageRecord = {
      pageId,
      orgId,
      parentId: null,
      title,
      icon: null,
      rank,
      children: 0,
      version: 1,
      contentVersion: 1,
      contentLength: content.length,
      createdAt: now,
      createdBy: by,
      updatedAt: now,
      updatedBy: by,
      indexed,
    };
    if (extra.length > 0) {
      contents.push(
        writeContent(orgId, pageId, content).then((key) => {
          page.contentKey = key;
          indexed.contentKey = key;
        }),
      );
    }
    // The record is written once its content object is (it names the object's key).
    pages.push(page);
    for (const [term, p] of analyzed.postings)
      items.push({ pk: indexPk(orgId), sk: `${term} ${pageId}`, pageId, ...p });
    totals.docs++;
    totals.titleLength += analyzed.titleLength;
    totals.bodyLength += analyzed.bodyLength;
    if (contents.length >= 32) await Promise.all(contents.splice(0));
  }
  await Promise.all(contents);
  for (const page of pages) {
    items.push({
      ...pageKey(orgId, page.pageId),
      gsi1pk: listPk(orgId, null),
      gsi1sk: listSk(page.rank, page.pageId),
      ...page,
    });
  }
  items.push({ ...statsKey(orgId), ...totals });
  const requests = items.map((Item) => ({ PutRequest: { Item } }));
  await writeAll(requests, 8);
}

export function renderPages(f: PagesFigures): string {
  const row = (name: string, x: { small: number; large: number }) =>
    `| ${name} | ${ms(x.small)} | ${ms(x.large)} | ${ratio(x.large, x.small)} |`;
  return [
    `Search page 1 (20 results with snippets) through the local gateway, over ${f.sizes[1].toLocaleString('en')} pages ` +
      `vs over ${f.sizes[0]}, median of ${f.runs} rounds (seeded through the store in ${(f.seedMs / 1000).toFixed(1)} s):`,
    '',
    `| query | ${f.sizes[0]} pages | ${f.sizes[1].toLocaleString('en')} pages | ratio |`,
    '|---|--:|--:|--:|',
    row(`a word in 20 pages of each (\`${RARE}\`)`, f.rare),
    row(`the same word's postings, one bare Query`, f.bare),
    row(`a word in a fifth of the pages (\`${COMMON}\`)`, f.common),
    '',
    `Saving a page's content (PUT …/content, through the local gateway: the content object, the postings ` +
      `of its words and the record), median of ${f.saves.runs}, each save replacing the other text:`,
    '',
    '| content | save |',
    '|---|--:|',
    `| 1,000,000 characters, one word | ${ms(f.saves.big)} |`,
    `| 5,000 distinct words in 300,000 characters | ${ms(f.saves.distinct)} |`,
    '',
  ].join('\n');
}

// `npx tsx scripts/bench/pages.ts`: this figure alone.
if (require.main === module) runAlone(async (platform) => renderPages(await benchPages(platform)));
