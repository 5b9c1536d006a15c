import { type OperationId, type Operations, operations } from './operations';

/**
 * The typed client: one function per operation of the API (`client/operations.ts`, generated from
 * the route table), each taking the path parameters and query fields as one object, plus `body`:
 *
 *   const api = createClient({ baseUrl, token });
 *   const { projects } = (await api.getProjects({ orgId })) as { projects: Project[] };
 *   await api.postProjectsEnv({ orgId, projectId, body: { vars, targets: ['preview'] } });
 *
 * A non-2xx answer throws ApiError with the API's own message; nothing else is thrown but
 * ApiError (network failures included), so a caller can print `err.message` and nothing more.
 */

type Op<K extends OperationId> = Operations[K];

export type Input<K extends OperationId> = Op<K>['params'] &
  Op<K>['query'] &
  (Op<K>['body'] extends undefined ? { body?: undefined } : { body: Op<K>['body'] });

type RequiredKeys<T> = { [P in keyof T]-?: object extends Pick<T, P> ? never : P }[keyof T];

/** The input is optional when nothing in it is required (`api.getMe()`). */
type Args<K extends OperationId> = RequiredKeys<Input<K>> extends never ? [input?: Input<K>] : [input: Input<K>];

export type Client = { [K in OperationId]: (...args: Args<K>) => Promise<Op<K>['response']> } & {
  readonly baseUrl: string;
};

export interface ClientOptions {
  baseUrl: string;
  /** A person's access token or an API key; sent as `Authorization: Bearer …`. */
  token?: string;
  fetch?: typeof fetch;
  userAgent?: string;
}

/** An answer other than 2xx (status and the API's `error`), or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** `/v1/orgs/{orgId}` with `{ orgId }` → the URL path and the query string of the rest. */
export function urlOf(path: string, input: Record<string, unknown>): string {
  const used = new Set<string>();
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = input[name];
    if (value === undefined || value === null || value === '') throw new ApiError(0, `Missing ${name}`);
    used.add(name);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    if (name === 'body' || name === 'query' || used.has(name) || value === undefined) continue;
    query.set(name, String(value));
  }
  // Query fields named like a path parameter come as `query: { … }` (see scripts/openapi.ts).
  const nested = input.query;
  if (nested && typeof nested === 'object') {
    for (const [name, value] of Object.entries(nested)) if (value !== undefined) query.set(name, String(value));
  }
  const qs = query.toString();
  return qs ? `${filled}?${qs}` : filled;
}

export async function request(
  options: ClientOptions,
  method: string,
  pathAndQuery: string,
  body?: unknown,
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const base = options.baseUrl.replace(/\/+$/, '');
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(`${base}${pathAndQuery}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ApiError(0, `Couldn't reach ${base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown = text === '' ? undefined : text;
  if (text !== '' && (res.headers.get('content-type') ?? '').includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text: the status still says what happened.
    }
  }
  if (!res.ok) {
    const answer = parsed as { error?: unknown; issues?: { path: string; message: string }[] } | undefined;
    const message = typeof answer?.error === 'string' ? answer.error : `HTTP ${res.status} ${res.statusText}`.trim();
    throw new ApiError(res.status, message, Array.isArray(answer?.issues) ? answer.issues : []);
  }
  return parsed;
}

export function createClient(options: ClientOptions): Client {
  const client: Record<string, unknown> = { baseUrl: options.baseUrl };
  for (const [id, op] of Object.entries(operations)) {
    client[id] = (input: Record<string, unknown> = {}) =>
      request(options, op.method, urlOf(op.path, input), input.body);
  }
  return client as Client;
}

export type { OperationId, Operations } from './operations';
