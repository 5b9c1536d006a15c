import { config } from '../kernel/config';

/**
 * A port's interface as every accessor serves it: each member a method answering a promise, so a
 * call can wait for the adapter to load (a fire-and-forget call, such as an analytics event,
 * answers a promise too and runs at once once its adapter is loaded).
 */
export type AsyncPort<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> };

/**
 * A port's two adapters, each a factory loaded on first use: `aws` by a literal `import('./aws')`
 * (its own chunk in a function's bundle), `local` by a computed path (`import(LOCAL_ADAPTER)`),
 * which the functions' bundler leaves out of the Lambda bundles.
 */
export interface Adapters<T> {
  aws: () => Promise<T>;
  local: () => Promise<T>;
}

/**
 * THE accessor of a port (`shared/ports/<name>/index.ts`: `export const <name> = definePort<…>({ aws,
 * local })`, called as `<name>().method(…)`): the same object on every call, whose adapter is
 * picked from PLATFORM_TARGET and loaded on the first method called, not at import or cold start.
 * Once loaded, a call goes straight to the adapter's method.
 */
export function definePort<T extends AsyncPort<T>>(adapters: Adapters<T>): () => T {
  let adapter: T | undefined;
  let loading: Promise<T> | undefined;
  const load = () => {
    loading ??= (config.target === 'local' ? adapters.local() : adapters.aws()).then((a) => {
      adapter = a;
      return a;
    });
    return loading;
  };
  const call = (a: T, name: string, args: unknown[]): Promise<unknown> => {
    const method = (a as unknown as Record<string, ((...x: unknown[]) => unknown) | undefined>)[name];
    if (typeof method !== 'function') return Promise.reject(new TypeError(`The port has no method ${name}.`));
    try {
      return Promise.resolve(method.apply(a, args));
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const port = new Proxy({} as T, {
    get: (_target, name) => {
      // Not a thenable (awaiting the port itself must not call `then`), nothing for inspection.
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) => (adapter ? call(adapter, name, args) : load().then((a) => call(a, name, args)));
    },
  });
  return () => port;
}
