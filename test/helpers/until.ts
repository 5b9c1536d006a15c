/**
 * Waits until `check` answers something (not `undefined`, `null` or `false`) and answers it; after
 * `ms` (default 20 s), fails with `timed out`. For the work of workers and queues a test watches.
 */
export async function until<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
