import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { handler as sweepWorker } from '../../functions/workers/pages-sweep';
import { getPage, SWEEP_PK } from '../../shared/domains/pages/records';
import { hidePage, pendingSweeps, sweep } from '../../shared/domains/pages/remove';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { storage } from '../../shared/ports/object-storage';
import type { Person, TestPlatform } from '../helpers/platform';
import { pagesPlatform } from './platform';

/**
 * Knowledge pages: the tree (one level at a time, by position), creates and moves with their
 * errors, content with its version guard, breadcrumbs, subtree delete, favorites, and who may write.
 */
let p: TestPlatform;
let viewer: Person;
let developer: Person;
const pages = () => `/v1/orgs/${p.org.orgId}/pages`;
const favorites = () => `/v1/orgs/${p.org.orgId}/favorites`;

beforeAll(async () => {
  p = await pagesPlatform('pages');
  viewer = await p.person('viewer');
  developer = await p.person('developer');
});
afterAll(() => p.close());

async function create(body: Record<string, unknown>, token?: string) {
  const res = await p.post(pages(), body, token ? { token } : undefined);
  expect(res.status).toBe(201);
  return res.body.page as { pageId: string; version: number; contentVersion: number; title: string };
}

const titles = async (parentId?: string) => {
  const res = await p.get(`${pages()}${parentId ? `?parentId=${parentId}` : ''}`);
  expect(res.status).toBe(200);
  return (res.body.pages as { title: string }[]).map((x) => x.title);
};

describe('create, read, list', () => {
  it('creates a page with Markdown content and reads it back with breadcrumbs and children', async () => {
    const root = await create({ title: '  Handbook  ', icon: '📘', content: '# Welcome\n\nRead *this* first.' });
    expect(root).toMatchObject({ title: 'Handbook', version: 1, contentVersion: 1 });
    expect(root.pageId).toMatch(/^pg_[0-9a-z]{26}$/);
    const child = await create({ title: 'Onboarding', parentId: root.pageId }, developer.token);
    const grandchild = await create({ title: 'Laptop', parentId: child.pageId });
    const got = await p.get(`${pages()}/${grandchild.pageId}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      page: { pageId: grandchild.pageId, parentId: child.pageId, title: 'Laptop', icon: null, hasChildren: false },
      content: '',
      breadcrumbs: [
        { pageId: root.pageId, title: 'Handbook', icon: '📘' },
        { pageId: child.pageId, title: 'Onboarding', icon: null },
      ],
      children: [],
      childrenCursor: null,
      favorite: false,
    });
    const top = await p.get(`${pages()}/${root.pageId}`);
    expect(top.body.content).toBe('# Welcome\n\nRead *this* first.');
    expect(top.body.page).toMatchObject({ hasChildren: true, contentLength: 29, createdBy: p.owner.userId });
    expect(top.body.children.map((c: { pageId: string }) => c.pageId)).toEqual([child.pageId]);
    expect(top.body.breadcrumbs).toEqual([]);
    const level = await p.get(`${pages()}?parentId=${root.pageId}`);
    expect(level.body).toEqual({
      pages: [expect.objectContaining({ pageId: child.pageId, hasChildren: true })],
      cursor: null,
    });
  });

  it('lists one level in pages with a signed cursor', async () => {
    const parent = await create({ title: 'Many' });
    for (let i = 0; i < 5; i++) await create({ title: `Item ${i}`, parentId: parent.pageId });
    const first = await p.get(`${pages()}?parentId=${parent.pageId}&limit=2`);
    expect(first.body.pages.map((x: { title: string }) => x.title)).toEqual(['Item 0', 'Item 1']);
    const seen = [...first.body.pages];
    let cursor = first.body.cursor as string | null;
    while (cursor) {
      const next = await p.get(`${pages()}?parentId=${parent.pageId}&limit=2&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...next.body.pages);
      cursor = next.body.cursor;
    }
    expect(seen.map((x) => x.title)).toEqual(['Item 0', 'Item 1', 'Item 2', 'Item 3', 'Item 4']);
    const forged = await p.get(`${pages()}?parentId=${parent.pageId}&cursor=${first.body.cursor}x`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    // A cursor of another level is refused too.
    const elsewhere = await p.get(`${pages()}?cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(elsewhere.status).toBe(400);
  });

  it('places new pages before or after a sibling, last by default', async () => {
    const parent = await create({ title: 'Order' });
    const b = await create({ title: 'B', parentId: parent.pageId });
    await create({ title: 'D', parentId: parent.pageId });
    await create({ title: 'A', parentId: parent.pageId, before: b.pageId });
    await create({ title: 'C', parentId: parent.pageId, after: b.pageId });
    expect(await titles(parent.pageId)).toEqual(['A', 'B', 'C', 'D']);
    const both = await p.post(pages(), { title: 'X', parentId: parent.pageId, before: b.pageId, after: b.pageId });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'Give before or after, not both.' });
    const stranger = await create({ title: 'Elsewhere' });
    const notSibling = await p.post(pages(), { title: 'X', parentId: parent.pageId, after: stranger.pageId });
    expect(notSibling.status).toBe(400);
    expect(notSibling.body).toEqual({ error: 'before and after name a page under the same parent.' });
  });

  it('nests pages at most 50 levels deep', async () => {
    let parentId: string | undefined;
    for (let depth = 1; depth <= 50; depth++) parentId = (await create({ title: `Level ${depth}`, parentId })).pageId;
    const deeper = await p.post(pages(), { title: 'Level 51', parentId });
    expect(deeper.status).toBe(400);
    expect(deeper.body).toEqual({ error: 'Pages nest at most 50 levels deep.' });
    const got = await p.get(`${pages()}/${parentId}`);
    expect(got.body.breadcrumbs).toHaveLength(49);
    expect(got.body.breadcrumbs[0].title).toBe('Level 1');
  });

  it('answers 404 for unknown pages and parents, 400 for invalid bodies', async () => {
    const unknown = 'pg_0000000000aaaaaaaaaaaaaaaa';
    for (const path of [`${pages()}/${unknown}`, `${pages()}/nonsense`, `${pages()}?parentId=${unknown}`]) {
      const res = await p.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Page not found' });
    }
    const orphan = await p.post(pages(), { title: 'Orphan', parentId: unknown });
    expect(orphan.status).toBe(404);
    expect(orphan.body).toEqual({ error: 'Parent page not found' });
    for (const body of [{}, { title: '   ' }, { title: 'x'.repeat(256) }, { title: 'ok', content: 5 }]) {
      const res = await p.post(pages(), body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request');
    }
    const big = await p.post(pages(), { title: 'Too long', content: 'x'.repeat(1_000_001) });
    expect(big.status).toBe(400);
  });
});

describe('who may write', () => {
  it('viewers read but do not write; keys write with org:write only', async () => {
    const page = await create({ title: 'Guarded' });
    expect((await p.get(`${pages()}/${page.pageId}`, { token: viewer.token })).status).toBe(200);
    const refused = await p.post(pages(), { title: 'Nope' }, { token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Viewers can read pages but can't change them." });
    const rename = await p.patch(`${pages()}/${page.pageId}`, { title: 'x' }, { token: viewer.token });
    expect(rename.status).toBe(403);
    const readKey = await p.apiKey(['org:read']);
    const keyRefused = await p.put(`${pages()}/${page.pageId}/content`, { content: 'x' }, { token: readKey });
    expect(keyRefused.status).toBe(403);
    expect(keyRefused.body).toEqual({ error: 'Missing scope org:write' });
    expect((await p.delete(`${pages()}/${page.pageId}`, { token: readKey })).status).toBe(403);
    const writeKey = await p.apiKey(['org:read', 'org:write']);
    const byKey = await p.post(pages(), { title: 'By key' }, { token: writeKey });
    expect(byKey.status).toBe(201);
    // Viewers keep favorites of their own.
    expect((await p.put(`${favorites()}/${page.pageId}`, undefined, { token: viewer.token })).status).toBe(200);
  });
});

describe('edit and move', () => {
  it('renames and re-icons with ifVersion; a stale version is 409', async () => {
    const page = await create({ title: 'Draft', icon: '📝' });
    const renamed = await p.patch(`${pages()}/${page.pageId}`, { title: 'Final', icon: null, ifVersion: 1 });
    expect(renamed.status).toBe(200);
    expect(renamed.body.page).toMatchObject({ title: 'Final', icon: null, version: 2, contentVersion: 1 });
    const stale = await p.patch(`${pages()}/${page.pageId}`, { title: 'Again', ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The page changed. Reload and try again.' });
    expect((await p.get(`${pages()}/${page.pageId}`)).body.page).toMatchObject({ title: 'Final', version: 2 });
  });

  it('moves a page under another, to the top level, and among siblings', async () => {
    const a = await create({ title: 'A' });
    const b = await create({ title: 'B' });
    const x = await create({ title: 'X', parentId: a.pageId });
    const y = await create({ title: 'Y', parentId: a.pageId });
    const moved = await p.patch(`${pages()}/${x.pageId}`, { parentId: b.pageId });
    expect(moved.status).toBe(200);
    expect(moved.body.page).toMatchObject({ parentId: b.pageId, version: 2 });
    expect(await titles(a.pageId)).toEqual(['Y']);
    expect(await titles(b.pageId)).toEqual(['X']);
    await p.patch(`${pages()}/${y.pageId}`, { parentId: b.pageId, before: x.pageId });
    expect(await titles(b.pageId)).toEqual(['Y', 'X']);
    expect((await p.get(`${pages()}/${a.pageId}`)).body.page.hasChildren).toBe(false);
    // Among siblings, without a new parent.
    await p.patch(`${pages()}/${y.pageId}`, { after: x.pageId });
    expect(await titles(b.pageId)).toEqual(['X', 'Y']);
    // To the top level, right after A.
    await p.patch(`${pages()}/${x.pageId}`, { parentId: null, after: a.pageId });
    const top = await p.get(`${pages()}`);
    const ids = top.body.pages.map((q: { pageId: string }) => q.pageId);
    expect(ids.indexOf(x.pageId)).toBe(ids.indexOf(a.pageId) + 1);
    expect((await p.get(`${pages()}/${x.pageId}`)).body.breadcrumbs).toEqual([]);
  });

  it('refuses a move under the page itself or one of its descendants (400) and under a missing parent', async () => {
    const a = await create({ title: 'Top' });
    const b = await create({ title: 'Mid', parentId: a.pageId });
    const c = await create({ title: 'Low', parentId: b.pageId });
    for (const parentId of [a.pageId, b.pageId, c.pageId]) {
      const res = await p.patch(`${pages()}/${a.pageId}`, { parentId });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "A page can't be moved under itself." });
    }
    const missing = await p.patch(`${pages()}/${b.pageId}`, { parentId: 'pg_0000000000aaaaaaaaaaaaaaaa' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Parent page not found' });
    expect((await p.get(`${pages()}/${c.pageId}`)).body.breadcrumbs.map((x: { title: string }) => x.title)).toEqual([
      'Top',
      'Mid',
    ]);
  });

  it('two opposite moves at once never make a cycle', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await create({ title: `Left ${round}` });
      const b = await create({ title: `Right ${round}` });
      const [one, two] = await Promise.all([
        p.patch(`${pages()}/${a.pageId}`, { parentId: b.pageId }),
        p.patch(`${pages()}/${b.pageId}`, { parentId: a.pageId }),
      ]);
      expect([one.status, two.status].filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      for (const res of [one, two]) if (res.status !== 200) expect([400, 409]).toContain(res.status);
      // Both still reachable: each has a breadcrumb trail that ends (no cycle), one at the top.
      const [ga, gb] = await Promise.all([p.get(`${pages()}/${a.pageId}`), p.get(`${pages()}/${b.pageId}`)]);
      expect(ga.status).toBe(200);
      expect(gb.status).toBe(200);
      expect([ga.body.page.parentId, gb.body.page.parentId]).toContain(null);
    }
  });
});

describe('content', () => {
  it('saves Markdown with baseVersion; a stale base is 409 with the current version', async () => {
    const page = await create({ title: 'Notes', content: 'one' });
    const saved = await p.put(`${pages()}/${page.pageId}/content`, { content: 'two', baseVersion: 1 });
    expect(saved.status).toBe(200);
    expect(saved.body.page).toMatchObject({ contentVersion: 2, version: 1, contentLength: 3 });
    const stale = await p.put(`${pages()}/${page.pageId}/content`, { content: 'three', baseVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      error: 'The content changed since you loaded it. Reload and try again.',
      contentVersion: 2,
    });
    expect((await p.get(`${pages()}/${page.pageId}`)).body.content).toBe('two');
    // A rename does not make an editor's save stale.
    await p.patch(`${pages()}/${page.pageId}`, { title: 'Renamed' });
    expect((await p.put(`${pages()}/${page.pageId}/content`, { content: 'four', baseVersion: 2 })).status).toBe(200);
    // Parallel saves from one base: exactly one wins.
    const racers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((c) => p.put(`${pages()}/${page.pageId}/content`, { content: c, baseVersion: 3 })),
    );
    expect(racers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(racers.filter((r) => r.status === 409)).toHaveLength(3);
    const winner = racers.find((r) => r.status === 200);
    const now = await p.get(`${pages()}/${page.pageId}`);
    expect(now.body.page.contentVersion).toBe(4);
    expect(now.body.content).toBe(['a', 'b', 'c', 'd'][racers.indexOf(winner as (typeof racers)[number])]);
  });

  it('keeps up to 1,000,000 characters; empties; 404 for unknown pages', async () => {
    const page = await create({ title: 'Big' });
    const big = `${'word '.repeat(199_999)}last!`;
    expect(big.length).toBe(1_000_000);
    const saved = await p.put(`${pages()}/${page.pageId}/content`, { content: big });
    expect(saved.status).toBe(200);
    expect((await p.get(`${pages()}/${page.pageId}`)).body.content).toBe(big);
    expect((await p.put(`${pages()}/${page.pageId}/content`, { content: 'x'.repeat(1_000_001) })).status).toBe(400);
    // 5,000 distinct words in 300,000 characters: every posting written, and found (how long the
    // saves take is a figure of the bench: scripts/bench/pages.ts).
    const distinct = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36).padStart(4, '0')}`);
    const many = `${distinct.map((w) => `${w} lorem ipsum dolor sit amet consectetur adipiscing`).join('\n')}`;
    expect((await p.put(`${pages()}/${page.pageId}/content`, { content: many })).status).toBe(200);
    expect(
      (await p.get(`${pages()}/search?q=${distinct[1234]}`)).body.results.map(
        (r: { page: { pageId: string } }) => r.page.pageId,
      ),
    ).toEqual([page.pageId]);
    // The last of the 5,000 words too: the index holds them all.
    expect(
      (await p.get(`${pages()}/search?q=${distinct[4_999]}`)).body.results.map(
        (r: { page: { pageId: string } }) => r.page.pageId,
      ),
    ).toEqual([page.pageId]);
    expect((await p.put(`${pages()}/${page.pageId}/content`, { content: '' })).body.page.contentLength).toBe(0);
    expect((await p.get(`${pages()}/${page.pageId}`)).body.content).toBe('');
    const unknown = await p.put(`${pages()}/pg_0000000000aaaaaaaaaaaaaaaa/content`, { content: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Page not found' });
  });
});

describe('delete', () => {
  it('hides the subtree at once (204), removes it, and the organization no longer counts it', async () => {
    const root = await create({ title: 'Doomed', content: 'root text' });
    const kids = [];
    for (let i = 0; i < 3; i++)
      kids.push(await create({ title: `Kid ${i}`, parentId: root.pageId, content: `kid ${i}` }));
    const deep = await create({ title: 'Deep', parentId: kids[0]?.pageId, content: 'deep text' });
    await p.put(`${favorites()}/${deep.pageId}`);
    const before = (await p.get(`/v1/orgs/${p.org.orgId}/contents`)).body.contents.docs as number;
    const res = await p.delete(`${pages()}/${root.pageId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    for (const page of [root, ...kids, deep]) {
      const got = await p.get(`${pages()}/${page.pageId}`);
      expect(got.status).toBe(404);
      expect(got.body).toEqual({ error: 'Page not found' });
    }
    expect((await p.delete(`${pages()}/${root.pageId}`)).status).toBe(404);
    expect(await titles()).not.toContain('Doomed');
    const after = (await p.get(`/v1/orgs/${p.org.orgId}/contents`)).body.contents.docs as number;
    expect(after).toBe(before - 5);
    const favs = await p.get(favorites());
    expect(favs.body.favorites.map((f: { page: { pageId: string } }) => f.page.pageId)).not.toContain(deep.pageId);
    // Its content objects are gone from the bucket.
    const left = await storage().listKeys(
      { name: process.env.ARTIFACTS_BUCKET as string },
      `pages/${p.org.orgId}/${deep.pageId}/`,
      10,
    );
    expect(left.keys).toEqual([]);
    // Nothing can be created under it any more.
    const under = await p.post(pages(), { title: 'Late', parentId: kids[1]?.pageId });
    expect(under.status).toBe(404);
  });

  it('removes a subtree in steps that are safe to repeat; the worker finishes what a request left', async () => {
    const root = await create({ title: 'Big tree', content: 'big tree words' });
    const ids = [root.pageId];
    for (let i = 0; i < 3; i++) {
      const kid = await create({ title: `Branch ${i}`, parentId: root.pageId, content: `branch ${i}` });
      ids.push(kid.pageId, (await create({ title: `Leaf ${i}`, parentId: kid.pageId })).pageId);
    }
    const leaf = ids[ids.length - 1] as string;
    expect((await p.put(`${favorites()}/${leaf}`)).status).toBe(200);
    expect((await p.get(`${pages()}/search?q=branch`)).body.results).toHaveLength(3);
    await hidePage(p.org.orgId, root.pageId);
    // A request whose budget is spent leaves it all hidden, and its marker.
    expect(await sweep(p.org.orgId, root.pageId, Date.now() - 1)).toBe(false);
    for (const id of ids) expect((await p.get(`${pages()}/${id}`)).status).toBe(404);
    // Search and favorites, which don't walk up, check ancestors while something is hidden.
    expect((await p.get(`${pages()}/search?q=branch`)).body.results).toEqual([]);
    const favs = (await p.get(favorites())).body.favorites as { page: { pageId: string } }[];
    expect(favs.map((f) => f.page.pageId)).not.toContain(leaf);
    const marker = (await pendingSweeps()).find((m) => m.pageId === root.pageId);
    expect(marker).toMatchObject({ orgId: p.org.orgId });
    // The hourly worker takes markers older than a minute.
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: { ...marker, pk: SWEEP_PK, sk: `${p.org.orgId}#${root.pageId}`, at: 1 },
      }),
    );
    const out = await sweepWorker();
    expect(out.swept).toBeGreaterThanOrEqual(1);
    for (const id of ids) expect(await getPage(p.org.orgId, id, true)).toBeUndefined();
    expect((await pendingSweeps()).some((m) => m.pageId === root.pageId)).toBe(false);
    expect((await p.get(`${pages()}/search?q=branch`)).body.results).toEqual([]);
    // Again: nothing left to do, nothing fails.
    expect(await sweep(p.org.orgId, root.pageId, Date.now() + 5_000)).toBe(true);
  });

  it('holds an organization delete until its pages are deleted', async () => {
    const { org, owner } = await p.newOrg();
    const page = await p.post(`/v1/orgs/${org.orgId}/pages`, { title: 'Keeps it' }, { token: owner.token });
    expect(page.status).toBe(201);
    const refused = await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'Remove its 1 doc first.' });
    const gone = await p.delete(`/v1/orgs/${org.orgId}/pages/${page.body.page.pageId}`, { token: owner.token });
    expect(gone.status).toBe(204);
    expect((await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token })).status).toBe(204);
  });

  it('a parent that loses its last child has no children', async () => {
    const parent = await create({ title: 'Parent' });
    const only = await create({ title: 'Only', parentId: parent.pageId });
    expect((await p.delete(`${pages()}/${only.pageId}`)).status).toBe(204);
    expect((await p.get(`${pages()}/${parent.pageId}`)).body.page.hasChildren).toBe(false);
  });
});

describe('favorites', () => {
  it('are idempotent, newest first, per caller; 404 Page not found', async () => {
    const one = await create({ title: 'Fav one' });
    const two = await create({ title: 'Fav two' });
    const first = await p.put(`${favorites()}/${one.pageId}`);
    expect(first.status).toBe(200);
    const again = await p.put(`${favorites()}/${one.pageId}`);
    expect(again.body).toEqual(first.body);
    await new Promise((r) => setTimeout(r, 5));
    await p.put(`${favorites()}/${two.pageId}`);
    const mine = await p.get(favorites());
    const ids = mine.body.favorites.map((f: { page: { pageId: string } }) => f.page.pageId);
    expect(ids.slice(0, 2)).toEqual([two.pageId, one.pageId]);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await p.get(`${pages()}/${one.pageId}`)).body.favorite).toBe(true);
    expect((await p.get(`${pages()}/${one.pageId}`, { token: developer.token })).body.favorite).toBe(false);
    expect((await p.get(favorites(), { token: developer.token })).body.favorites).toEqual([]);
    expect((await p.delete(`${favorites()}/${one.pageId}`)).status).toBe(204);
    expect((await p.delete(`${favorites()}/${one.pageId}`)).status).toBe(204);
    const left = (await p.get(favorites())).body.favorites.map((f: { page: { pageId: string } }) => f.page.pageId);
    expect(left).not.toContain(one.pageId);
    for (const res of [
      await p.put(`${favorites()}/pg_0000000000aaaaaaaaaaaaaaaa`),
      await p.delete(`${favorites()}/pg_0000000000aaaaaaaaaaaaaaaa`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Page not found' });
    }
    const page = await p.get(`${favorites()}?limit=1`);
    expect(page.body.favorites).toHaveLength(1);
    expect(page.body.cursor).toEqual(expect.any(String));
  });
});
