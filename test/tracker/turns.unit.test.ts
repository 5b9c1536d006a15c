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

test('a caller that waited past the budget is answered 429 when its turn comes, its work not done', async () => {
  const { turns, gated } = setup(1_000);
  // A turn of 600 ms, two waiting behind it: the first waits 600 ms (goes), the second 1,200 (refused).
  const running = gated(600);
  const a = turns.run('org', running.work);
  const second = gated(600);
  const b = turns.run('org', second.work);
  let thirdRan = false;
  const c = turns.run('org', async () => {
    thirdRan = true;
    return 'late';
  });
  // Another organization's line is its own.
  await expect(turns.run('other', async () => 'other')).resolves.toBe('other');
  running.release();
  second.release();
  await expect(a).resolves.toBe(600);
  await expect(b).resolves.toBe(600);
  await expect(c).rejects.toMatchObject({
    kind: 'throttled',
    message: 'The backend is throttling requests. Try again in a moment.',
  });
  expect(thirdRan).toBe(false);
  // The line is short again: the next caller waits its turn.
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
