/**
 * A port whose adapter loads on first call: every method of `T` (all async) waits for `load`,
 * once, then calls the adapter's own. So an adapter and its SDK client are a chunk of their own in
 * a function's bundle (lib/bundle.ts), loaded by the first route that needs them, not at cold start.
 */
export function lazyPort<T extends object>(load: () => Promise<T>): T {
  let loaded: Promise<T> | undefined;
  const port = () => {
    loaded ??= load();
    return loaded;
  };
  return new Proxy({} as T, {
    get: (_target, name) => {
      // Not a thenable (awaiting the port itself must not call `then`), nothing for inspection.
      if (typeof name !== 'string' || name === 'then') return undefined;
      return async (...args: unknown[]) =>
        ((await port()) as Record<string, (...a: unknown[]) => unknown>)[name]?.(...args);
    },
  });
}
