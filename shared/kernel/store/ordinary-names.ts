/**
 * Keeps `constructor` an ordinary name in what the document client writes. The SDK's marshaller
 * tells a plain object by `value.constructor.name`, so a map with its own `constructor` key (a tag
 * named so, any caller-named key) fails to marshall (a 500), and one whose `constructor` is
 * `{ "name": "String" }` would be stored as "[object Object]". Such a map goes to the marshaller
 * as a `Map`, which it writes as the same `M` attribute; reading it back gives a plain object again.
 */

/** The command members whose own keys are attribute names, never a value to convert. */
const CONTAINERS = new Set(['Item', 'Key', 'Keys', 'ExpressionAttributeValues', 'ExclusiveStartKey']);

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** `value` with every nested map that has its own `constructor` key as a Map; untouched when none has. */
function ordinaryNames(value: unknown, container = false): unknown {
  if (Array.isArray(value)) {
    const out = value.map((v) => ordinaryNames(v, container));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (!isPlain(value)) return value;
  let changed = false;
  const entries = Object.entries(value).map(([k, v]) => {
    const safe = ordinaryNames(v, CONTAINERS.has(k));
    if (safe !== v) changed = true;
    return [k, safe] as const;
  });
  if (!container && Object.hasOwn(value, 'constructor')) return new Map(entries);
  return changed ? Object.fromEntries(entries) : value;
}

interface Command {
  middlewareStack: {
    add: (
      middleware: (next: (args: { input: unknown }) => unknown) => (args: { input: unknown }) => unknown,
      options: { step: 'initialize'; name: string; override: boolean },
    ) => void;
  };
}

/**
 * The document client, each command it sends passing its input through ordinaryNames before the
 * command's own marshalling (a step of that command only: the plain client's commands, whose
 * input is attribute values already, are left alone).
 */
export function withOrdinaryNames<C extends { send: (...args: never[]) => unknown }>(client: C): C {
  const send = client.send.bind(client) as (command: Command, ...rest: unknown[]) => unknown;
  (client as unknown as { send: typeof send }).send = (command, ...rest) => {
    command.middlewareStack.add((next) => (args) => next({ ...args, input: ordinaryNames(args.input) }), {
      step: 'initialize',
      name: 'ordinaryNames',
      override: true,
    });
    return send(command, ...rest);
  };
  return client;
}
