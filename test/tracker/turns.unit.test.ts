import { Turns } from '../../shared/domains/tracker/turns';

/**
 * An organization's creates one at a time (shared/domains/tracker/turns.ts), and a create whose wait
 * would pass the budget answered 429 at once. A fake clock: each turn "takes" what the test says.
 */
function setup(budgetMs: number) {
  let clock = 0;
  const turns = new Turns(budgetMs, () => clock);
  /** Work that takes `ms` on the fake clock and resolves when the test lets it go. */
  const gated = (ms: number) => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const work = async () => {
      await gate;
      clock += ms;
      return ms;
    };
    return { work, release: () => release() };
  };
  return { turns, gated };
}

test('runs one key’s work one after the other, another key’s beside it', async () => {
  const { turns } = setup(10_000);
  const order: string[] = [];
  const step = (name: string) => async () => {
    order.push(`${name} start`);
    await new Promise((r) => setImmediate(r));
    order.push(`${name} end`);
    return name;
  };
  const all = await Promise.all([turns.run('a', step('a1')), turns.run('a', step('a2')), turns.run('b', step('b1'))]);
  expect(all).toEqual(['a1', 'a2', 'b1']);
  expect(order.indexOf('a1 end')).toBeLessThan(order.indexOf('a2 start'));
  expect(order.indexOf('b1 start')).toBeLessThan(order.indexOf('a1 end'));
});

test('a failed turn does not stop the next one', async () => {
  const { turns } = setup(10_000);
  const failed = turns.run('a', async () => {
    throw new Error('boom');
  });
  const next = turns.run('a', async () => 'next');
  await expect(failed).rejects.toThrow('boom');
  await expect(next).resolves.toBe('next');
});

test('past the budget a caller is answered 429 at once; once the line is short again it waits its turn', async () => {
  const { turns, gated } = setup(1_000);
  // A first turn of 400 ms teaches the length.
  const first = gated(400);
  const p1 = turns.run('org', first.work);
  first.release();
  await p1;
  expect(turns.turnMs).toBe(400);
  // One running and two waiting: 2 × 400 = 800 ms ≤ 1,000 ms, the third waiter (3 × 400) is refused.
  const running = gated(400);
  const a = turns.run('org', running.work);
  const w1 = gated(400);
  const b = turns.run('org', w1.work);
  const w2 = gated(400);
  const c = turns.run('org', w2.work);
  await expect(turns.run('org', async () => 'late')).rejects.toMatchObject({
    kind: 'throttled',
    message: 'The backend is throttling requests. Try again in a moment.',
  });
  // Another organization's line is its own.
  await expect(turns.run('other', async () => 'other')).resolves.toBe('other');
  running.release();
  w1.release();
  w2.release();
  await Promise.all([a, b, c]);
  await expect(turns.run('org', async () => 'now')).resolves.toBe('now');
});

test('50 at once with short turns all go through, in order', async () => {
  const { turns } = setup(10_000);
  const seen: number[] = [];
  const made = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      turns.run('org', async () => {
        seen.push(i);
        return i;
      }),
    ),
  );
  expect(made).toEqual(Array.from({ length: 50 }, (_, i) => i));
  expect(seen).toEqual(made);
});
