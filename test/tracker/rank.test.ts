import fc from 'fast-check';
import { compareRanks, MAX_RANK_LENGTH, placeRanks, ranksBetween } from '../../shared/domains/tracker/rank';
import type { Person, TestPlatform } from '../helpers/platform';
import { paths, trackerPlatform } from './platform';

/** Ranks: the placement against an array model (1,000 random moves), then the rank and bulk routes. */
describe('placeRanks against an array model', () => {
  it('keeps the model’s order, unique ranks and order through rebalances over 1,000 random moves', () => {
    const n = 12;
    const initial = ranksBetween(null, null, n);
    const random = fc.record({
      moving: fc.uniqueArray(fc.integer({ min: 3, max: n - 1 }), { minLength: 1, maxLength: 5 }),
      anchor: fc.integer({ min: 3, max: n - 1 }),
      side: fc.constantFrom<'before' | 'after'>('before', 'after'),
    });
    // Mostly squeezing one of two issues right after a third (which random moves of the others
    // leave alone): the same gap is split again and again, so ranks grow until they are rebalanced.
    const squeeze = fc.constant({ moving: [] as number[], anchor: -1, side: 'after' as const });
    const moves = fc.array(fc.oneof({ arbitrary: squeeze, weight: 12 }, { arbitrary: random, weight: 1 }), {
      minLength: 1000,
      maxLength: 1000,
    });
    let seenRebalances = 0;
    fc.assert(
      fc.property(moves, (list) => {
        let model = Array.from({ length: n }, (_, i) => `i${i}`);
        const ranks = new Map(model.map((id, i) => [id, initial[i] as string]));
        let rebalances = 0;
        for (const m of list) {
          // A squeeze (anchor -1): whichever of i1 and i2 is not right after i0 goes right after it.
          const squeezed = model[model.indexOf('i0') + 1] === 'i1' ? 'i2' : 'i1';
          const moving = m.anchor < 0 ? [squeezed] : m.moving.map((i) => `i${i}`).filter((id) => id !== `i${m.anchor}`);
          if (moving.length === 0) continue;
          const anchor = m.anchor < 0 ? 'i0' : `i${m.anchor}`;
          const ordered = [...ranks.entries()]
            .map(([id, rank]) => ({ id, rank }))
            .sort((a, b) => compareRanks(a.rank, b.rank));
          const out = placeRanks(ordered, moving, { id: anchor, side: m.side });
          if (out.rebalanced) rebalances++;
          for (const [id, rank] of out.ranks) ranks.set(id, rank);
          const rest = model.filter((id) => !moving.includes(id));
          const at = rest.indexOf(anchor) + (m.side === 'after' ? 1 : 0);
          model = [...rest.slice(0, at), ...moving, ...rest.slice(at)];
          const byRank = [...ranks.entries()].sort((a, b) => compareRanks(a[1], b[1])).map(([id]) => id);
          if (byRank.join() !== model.join()) return false;
          if (new Set(ranks.values()).size !== n) return false;
          if ([...ranks.values()].some((r) => r.length > MAX_RANK_LENGTH)) return false;
        }
        seenRebalances += rebalances;
        return true;
      }),
      { numRuns: 3, seed: 19 },
    );
    // The same tight spots are hit often enough that ranks grow past 128 characters and are rebalanced.
    expect(seenRebalances).toBeGreaterThan(0);
  });

  it('compares byte-wise, as DynamoDB sorts, not by locale', () => {
    expect(compareRanks('a0Z', 'a0a')).toBe(-1);
    expect('a0Z'.localeCompare('a0a')).toBe(1);
    expect(compareRanks('a1', 'a1')).toBe(0);
  });

  it('rebalances when the same gap is split until ranks pass 128 characters, order kept', () => {
    let items = [
      { id: 'x', rank: 'a0' },
      { id: 'y', rank: 'a1' },
      { id: 'z', rank: 'a2' },
    ];
    let seen = false;
    for (let i = 0; i < 2000 && !seen; i++) {
      // Always between x and the last moved: the gap halves each time.
      const out = placeRanks(items, [i % 2 ? 'y' : 'z'], { id: 'x', side: 'after' });
      seen = out.rebalanced;
      items = items
        .map((it) => ({ ...it, rank: out.ranks.get(it.id) ?? it.rank }))
        .sort((a, b) => compareRanks(a.rank, b.rank));
      expect(Math.max(...items.map((it) => it.rank.length))).toBeLessThanOrEqual(MAX_RANK_LENGTH);
    }
    expect(seen).toBe(true);
    expect(items[0]?.id).toBe('x');
  });
});

describe('rank and bulk routes', () => {
  let p: TestPlatform;
  let t: ReturnType<typeof paths>;
  let viewer: Person;
  const made: { key: string; issueId: string }[] = [];

  beforeAll(async () => {
    p = await trackerPlatform('tracker-rank');
    t = paths(p);
    viewer = await p.person('viewer');
    await p.post(t.spaces, { key: 'RNK', name: 'Rank', template: 'kanban' });
    await p.post(t.spaces, { key: 'DST', name: 'Destination', template: 'basic' });
    for (let i = 0; i < 6; i++) made.push((await p.post(t.base, { space: 'RNK', summary: `R${i}` })).body.issue);
  });
  afterAll(() => p.close());

  const order = async () =>
    (await p.get(`${t.base}?jql=${encodeURIComponent('space = RNK ORDER BY rank')}`)).body.issues.map(
      (i: { key: string }) => i.key,
    );

  it('ranks several issues before or after another, in the order given', async () => {
    const [r1, r2, r3, r4, r5, r6] = made.map((m) => m.key) as [string, string, string, string, string, string];
    const res = await p.post(`${t.base}/rank`, { issues: [r5, r4], before: r2 });
    expect(res.status).toBe(200);
    expect(res.body.issues.map((i: { key: string }) => i.key)).toEqual([r5, r4]);
    expect(await order()).toEqual([r1, r5, r4, r2, r3, r6]);
    await p.post(`${t.base}/rank`, { issues: [r1], after: r6 });
    expect(await order()).toEqual([r5, r4, r2, r3, r6, r1]);
    // A new issue goes last, after the one ranked to the end.
    const next = (await p.post(t.base, { space: 'RNK', summary: 'R7' })).body.issue;
    expect((await order()).at(-1)).toBe(next.key);
    const both = await p.post(`${t.base}/rank`, { issues: [r1], before: r2, after: r3 });
    expect([both.status, both.body.error]).toEqual([400, 'Give exactly one of before or after.']);
    const neither = await p.post(`${t.base}/rank`, { issues: [r1] });
    expect(neither.status).toBe(400);
    const self = await p.post(`${t.base}/rank`, { issues: [r1], before: r1 });
    expect([self.status, self.body.error]).toEqual([400, "An issue can't be ranked next to itself."]);
    expect((await p.post(`${t.base}/rank`, { issues: ['RNK-999'], before: r1 })).status).toBe(404);
    expect((await p.post(`${t.base}/rank`, { issues: [], before: r1 })).status).toBe(400);
    expect((await p.post(`${t.base}/rank`, { issues: Array(201).fill(r1), before: r2 })).status).toBe(400);
  });

  it('bulk: edit, transition, watch, unwatch, move (old key kept) and delete, each issue its own result', async () => {
    const [a, b, c] = made.map((m) => m.key) as [string, string, string];
    const edit = await p.post(`${t.base}/bulk`, {
      issues: [a, b, 'RNK-999'],
      operation: 'edit',
      fields: { labels: ['bulk'] },
    });
    expect(edit.body).toEqual({
      results: [
        { issue: a, ok: true },
        { issue: b, ok: true },
        { issue: 'RNK-999', ok: false, error: 'Issue not found' },
      ],
      done: 2,
      failed: 1,
    });
    const moved = await p.post(`${t.base}/bulk`, {
      issues: [a, b],
      operation: 'transition',
      transition: 'In Progress',
    });
    expect(moved.body).toMatchObject({ done: 2, failed: 0 });
    expect((await p.get(t.issue(a))).body.issue).toMatchObject({ statusId: 'inprogress', labels: ['bulk'] });
    const noSuch = await p.post(`${t.base}/bulk`, { issues: [a], operation: 'transition', transition: 'Teleport' });
    expect(noSuch.body.results[0]).toEqual({
      issue: a,
      ok: false,
      error: 'No transition "Teleport" from this issue\'s status.',
    });
    const watch = await p.post(`${t.base}/bulk`, { issues: [c], operation: 'unwatch' });
    expect(watch.body.done).toBe(1);
    expect((await p.get(t.issue(c))).body.issue.watchers).toEqual([]);
    await p.post(`${t.base}/bulk`, { issues: [c], operation: 'watch' });
    expect((await p.get(t.issue(c))).body.issue.watchers).toEqual([p.owner.userId]);
    const move = await p.post(`${t.base}/bulk`, { issues: [c], operation: 'move', space: 'DST', type: 'Task' });
    expect(move.body.results).toEqual([{ issue: c, ok: true, key: 'DST-1' }]);
    const viaOld = await p.get(t.issue(c));
    expect(viaOld.body.issue).toMatchObject({
      key: 'DST-1',
      statusId: 'backlog' === viaOld.body.issue.statusId ? 'backlog' : 'todo',
    });
    expect(viaOld.body.space.key).toBe('DST');
    const viewerTry = await p.post(`${t.base}/bulk`, { issues: [a], operation: 'delete' }, { token: viewer.token });
    expect(viewerTry.status).toBe(403);
    const del = await p.post(`${t.base}/bulk`, { issues: [b], operation: 'delete' });
    expect(del.body).toMatchObject({ done: 1, failed: 0 });
    expect((await p.get(t.issue(b))).status).toBe(404);
    // The per-status counts behind a space-and-status total followed the transitions, the move and the delete.
    const total = async (jql: string) => (await p.get(`${t.base}?jql=${encodeURIComponent(jql)}`)).body.total;
    expect(await total('space = RNK AND status in (Backlog, "In Progress")')).toBe(5);
    expect(await total('space = RNK AND status = "In Progress"')).toBe(1);
    expect(await total('space = DST AND status = "To Do"')).toBe(1);
    expect((await p.post(`${t.base}/bulk`, { issues: [a], operation: 'move' })).status).toBe(400);
    expect((await p.post(`${t.base}/bulk`, { issues: [a], operation: 'transition' })).status).toBe(400);
    expect((await p.post(`${t.base}/bulk`, { issues: [a], operation: 'explode' })).status).toBe(400);
    expect((await p.post(`${t.base}/bulk`, { issues: [a], operation: 'move', space: 'NOPE' })).status).toBe(404);
  });
});
