import { config } from '../../shared/kernel/config';
import { definePort } from '../../shared/ports/adapter';

/** The one accessor of every port (shared/ports/adapter.ts): what a caller of `<port>()` can count on. */
interface BellPort {
  ring(times: number): Promise<string>;
  fail(): Promise<void>;
}

function counted() {
  const loads = { aws: 0, local: 0 };
  const bell = definePort<BellPort>({
    aws: async () => {
      loads.aws++;
      return { ring: async (n) => `aws ${n}`, fail: async () => {} };
    },
    local: async () => {
      loads.local++;
      return {
        ring: async (n) => `local ${n}`,
        // An adapter method that throws before it answers a promise: the caller still gets a rejection.
        fail: (() => {
          throw new Error('refused');
        }) as () => Promise<void>,
      };
    },
  });
  return { bell, loads };
}

test('picks the adapter of PLATFORM_TARGET, loaded on the first call, once', async () => {
  expect(config.target).toBe('local');
  const { bell, loads } = counted();
  expect(bell()).toBe(bell());
  expect(loads).toEqual({ aws: 0, local: 0 });
  expect(await Promise.all([bell().ring(1), bell().ring(2)])).toEqual(['local 1', 'local 2']);
  expect(await bell().ring(3)).toBe('local 3');
  expect(loads).toEqual({ aws: 0, local: 1 });
});

test('the port is no thenable: awaiting it answers the port and loads nothing', async () => {
  const { bell, loads } = counted();
  const port = await bell();
  expect(port).toBe(bell());
  expect(loads.local).toBe(0);
});

test('an adapter that throws answers a rejection, as an async method would', async () => {
  const { bell } = counted();
  await bell().ring(0);
  const answer = bell().fail();
  expect(answer).toBeInstanceOf(Promise);
  await expect(answer).rejects.toThrow('refused');
});
