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
  /**
   * Tries after the first when there is no answer, a 429, a 5xx, or a 409 saying the same
   * request is still in progress (default 2). A write carries one `Idempotency-Key` across its
   * tries, so a retry never does it twice; a 429's or 503's `Retry-After` is honoured (up to 30 s).
   */
  retries?: number;
  /**
   * Called with the budget an answer reports (its `RateLimit-Limit`, `RateLimit-Remaining` and
   * `RateLimit-Reset`, seconds), for every answer that carries them: a script can slow down before
   * it is refused.
   */
  onBudget?: (budget: { limit: number; remaining: number; reset: number }) => void;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const IN_PROGRESS = 'A request with this idempotency key is in progress.';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long to wait before try `n` (1-based): `Retry-After` when the answer says, else 0.5 s doubling. */
function waitBefore(n: number, res: Response | undefined): number {
  const after = res?.headers.get('retry-after');
  const seconds = after !== null && after !== undefined ? Number(after) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 30) * 1000;
  return 500 * 2 ** (n - 1);
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
  if (WRITES.has(method)) headers['idempotency-key'] = crypto.randomUUID();
  const base = options.baseUrl.replace(/\/+$/, '');
  const tries = 1 + Math.max(0, options.retries ?? 2);
  for (let n = 1; ; n++) {
    let res: Response | undefined;
    let failure: ApiError | undefined;
    try {
      res = await (options.fetch ?? fetch)(`${base}${pathAndQuery}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      failure = new ApiError(0, `Couldn't reach ${base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
    if (res) {
      const budget = budgetOf(res);
      if (budget) options.onBudget?.(budget);
      const answer = await readAnswer(res);
      if (res.ok) return answer.parsed;
      failure = answer.error;
    }
    const again =
      failure?.status === 0 ||
      failure?.status === 429 ||
      (failure?.status ?? 0) >= 500 ||
      (failure?.status === 409 && failure.message === IN_PROGRESS);
    if (!again || n >= tries) throw failure as ApiError;
    await sleep(waitBefore(n, res));
  }
}

/** The IETF RateLimit header fields of an answer, when it has them. */
function budgetOf(res: Response): { limit: number; remaining: number; reset: number } | undefined {
  const [limit, remaining, reset] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((h) =>
    Number(res.headers.get(h) ?? Number.NaN),
  );
  if (![limit, remaining, reset].every((n) => Number.isFinite(n))) return undefined;
  return { limit: limit as number, remaining: remaining as number, reset: reset as number };
}

/** The answer's body (JSON when it says so), and the ApiError it means when it is not 2xx. */
async function readAnswer(res: Response): Promise<{ parsed: unknown; error?: ApiError }> {
  const text = await res.text();
  let parsed: unknown = text === '' ? undefined : text;
  if (text !== '' && (res.headers.get('content-type') ?? '').includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text: the status still says what happened.
    }
  }
  if (res.ok) return { parsed };
  const answer = parsed as { error?: unknown; issues?: { path: string; message: string }[] } | undefined;
  const message = typeof answer?.error === 'string' ? answer.error : `HTTP ${res.status} ${res.statusText}`.trim();
  return { parsed, error: new ApiError(res.status, message, Array.isArray(answer?.issues) ? answer.issues : []) };
}

export function createClient(options: ClientOptions): Client {
  const client: Record<string, unknown> = { baseUrl: options.baseUrl };
  for (const [id, op] of Object.entries(operations)) {
    client[id] = (input: Record<string, unknown> = {}) =>
      request(options, op.method, urlOf(op.path, input), input.body);
  }
  return client as Client;
}

export type * from './operations';
