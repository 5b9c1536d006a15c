/**
 * Waits until `check` answers something (not `undefined`, `null` or `false`) and answers it; after
 * `ms` (default 20 s), fails with `timed out`. For the work of workers and queues a test watches.
 * `every` is the pause between checks (default 100 ms): a long wait whose each check costs the
 * platform a request asks less often.
 */
export async function until<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms = 20_000,
  every = 100,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, every));
  }
}
