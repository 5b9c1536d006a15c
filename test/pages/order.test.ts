import fc from 'fast-check';
import { listSk } from '../../shared/domains/pages/records';
import { placeRank, type Siblings } from '../../shared/domains/pages/tree';
import type { TestPlatform } from '../helpers/platform';
import { pagesPlatform } from './platform';

/**
 * Sibling order by fractional index, against an array model: 1,000 random moves through the very
 * function that places pages (an array standing in for the table's sorted index), then random
 * moves between two parents through the API, the listed order checked after each one.
 */

/** An in-memory level: ranks by id, read in the table's byte-wise order of `<rank>#<pageId>`. */
function memoryLevel(ranks: Map<string, string>): Siblings {
  const sorted = () =>
    [...ranks]
      .map(([pageId, rank]) => ({ pageId, rank, sk: listSk(rank, pageId) }))
      .sort((a, b) => (a.sk < b.sk ? -1 : 1));
  return {
    rankOf: async (pageId) => ranks.get(pageId),
    above: async (sk) =>
      sorted()
        .filter((x) => x.sk > sk)
        .slice(0, 2),
    below: async (sk) =>
      sorted()
        .filter((x) => sk === undefined || x.sk < sk)
        .slice(-2)
        .reverse(),
  };
}

const orderOf = (ranks: Map<string, string>) =>
  [...ranks].sort((a, b) => (listSk(a[1], a[0]) < listSk(b[1], b[0]) ? -1 : 1)).map(([id]) => id);

const Move = fc.record({
  item: fc.nat(),
  anchor: fc.nat(),
  where: fc.constantFrom('before' as const, 'after' as const, 'end' as const),
});

describe('placing pages (the ordering function against an array model)', () => {
  it('keeps the model order through 1,000 random moves', async () => {
    let longest = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 30 }),
        fc.array(Move, { minLength: 1000, maxLength: 1000 }),
        async (n, moves) => {
          const ranks = new Map<string, string>();
          const model: string[] = [];
          const level = memoryLevel(ranks);
          for (let i = 0; i < n; i++) {
            const id = `pg_${String(i).padStart(26, '0')}`;
            ranks.set(id, await placeRank(level, {}));
            model.push(id);
          }
          expect(orderOf(ranks)).toEqual(model);
          for (const move of moves) {
            const id = model[move.item % n] as string;
            const anchor = model[move.anchor % n] as string;
            if (move.where !== 'end' && anchor === id) {
              await expect(placeRank(level, { [move.where]: anchor }, id)).rejects.toThrow(
                'before and after name a page under the same parent.',
              );
              continue;
            }
            const rank = await placeRank(level, move.where === 'end' ? {} : { [move.where]: anchor }, id);
            expect(rank).toMatch(/^[0-9A-Za-z]+$/);
            longest = Math.max(longest, rank.length);
            ranks.set(id, rank);
            model.splice(model.indexOf(id), 1);
            if (move.where === 'end') model.push(id);
            else model.splice(model.indexOf(anchor) + (move.where === 'after' ? 1 : 0), 0, id);
            expect(orderOf(ranks)).toEqual(model);
          }
        },
      ),
      { numRuns: 10, seed: 20261126 },
    );
    // Ranks grow with moves into the same gap, but stay short keys.
    expect(longest).toBeLessThan(200);
  });

  it('refuses before and after together, and an anchor that is not a sibling', async () => {
    const ranks = new Map([['pg_a', 'a0']]);
    await expect(placeRank(memoryLevel(ranks), { before: 'pg_a', after: 'pg_a' })).rejects.toThrow(
      'Give before or after, not both.',
    );
    await expect(placeRank(memoryLevel(ranks), { after: 'pg_elsewhere' })).rejects.toThrow(
      'before and after name a page under the same parent.',
    );
  });

  it('places next to siblings that share a rank (two writers at once) without failing', async () => {
    const ranks = new Map([
      ['pg_a', 'a0'],
      ['pg_b', 'a0'],
      ['pg_c', 'a1'],
    ]);
    const level = memoryLevel(ranks);
    ranks.set('pg_d', await placeRank(level, { after: 'pg_a' }));
    expect(orderOf(ranks)).toEqual(['pg_a', 'pg_b', 'pg_d', 'pg_c']);
    ranks.set('pg_e', await placeRank(level, { before: 'pg_b' }));
    expect(orderOf(ranks)).toEqual(['pg_e', 'pg_a', 'pg_b', 'pg_d', 'pg_c']);
  });
});

describe('moves through the API', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await pagesPlatform('pages-order');
  });
  afterAll(() => p.close());

  it('lists both parents in the model order after each of 40 random moves', async () => {
    const base = `/v1/orgs/${p.org.orgId}/pages`;
    const make = async (title: string, parentId?: string) => {
      const res = await p.post(base, { title, ...(parentId ? { parentId } : {}) });
      expect(res.status).toBe(201);
      return res.body.page.pageId as string;
    };
    const parents = [await make('P'), await make('Q')];
    const model: string[][] = [[], []];
    const names = new Map<string, string>();
    for (let i = 0; i < 8; i++) {
      const side = i % 2;
      const id = await make(`n${i}`, parents[side]);
      names.set(id, `n${i}`);
      model[side]?.push(id);
    }
    const listed = async (side: number) =>
      ((await p.get(`${base}?parentId=${parents[side]}`)).body.pages as { pageId: string }[]).map((x) => x.pageId);
    const ApiMove = fc.record({
      item: fc.nat(),
      side: fc.nat(1),
      anchor: fc.nat(),
      where: fc.constantFrom('before' as const, 'after' as const, 'end' as const),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(ApiMove, { minLength: 40, maxLength: 40 }), async (moves) => {
        for (const move of moves) {
          const all = [...(model[0] ?? []), ...(model[1] ?? [])];
          const id = all[move.item % all.length] as string;
          const from = model[0]?.includes(id) ? 0 : 1;
          const target = model[move.side] as string[];
          const candidates = target.filter((x) => x !== id);
          const anchor =
            move.where === 'end' || candidates.length === 0 ? undefined : candidates[move.anchor % candidates.length];
          const res = await p.patch(`${base}/${id}`, {
            parentId: parents[move.side],
            ...(anchor ? { [move.where]: anchor } : {}),
          });
          expect(res.status).toBe(200);
          // Given its own parent alone, a page keeps its place; a new parent alone puts it last.
          if (anchor || from !== move.side) {
            model[from]?.splice(model[from].indexOf(id), 1);
            if (!anchor) target.push(id);
            else target.splice(target.indexOf(anchor) + (move.where === 'after' ? 1 : 0), 0, id);
          }
          expect(await listed(0)).toEqual(model[0]);
          expect(await listed(1)).toEqual(model[1]);
        }
      }),
      { numRuns: 1, seed: 7, endOnFailure: true },
    );
    const counts = await Promise.all(parents.map((id) => p.get(`${base}/${id}`)));
    for (const [side, res] of counts.entries()) {
      expect(res.body.page.hasChildren).toBe((model[side]?.length ?? 0) > 0);
    }
  });
});
