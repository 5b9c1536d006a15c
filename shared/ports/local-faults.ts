/**
 * Where the local platform's fault injector (lib/local/faults.ts) meets the ports it has no wire
 * to stand on: the scheduler and the builds port, whose local adapters are code of ours, not an
 * engine behind an endpoint. A local adapter wraps itself with `withFaults`; the injector, set
 * only when the local platform is started with faults (`PLATFORM_FAULTS`, or a test), decides per
 * call whether the call fails and with what (an error shaped as the AWS SDK throws it once its
 * own retries are spent). Only local adapters import this file, so no Lambda bundle holds it.
 */
export type PortFaultInjector = (port: string, operation: string) => Error | undefined;

let injector: PortFaultInjector | undefined;

/** Sets (or, with undefined, removes) the injector every wrapped local adapter asks. */
export function setPortFaults(next: PortFaultInjector | undefined): void {
  injector = next;
}

/**
 * `adapter` with each method asking the injector first. `operations` names a method's call as AWS
 * names it (`start` → `StartBuild`), which is what a fault rule names; otherwise the method's name.
 */
export function withFaults<T extends object>(port: string, adapter: T, operations: Record<string, string> = {}): T {
  return new Proxy(adapter, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const fault = injector?.(port, operations[name] ?? name);
        if (fault) throw fault;
        return value.apply(target, args);
      };
    },
  });
}
