import { readEnv } from '../../kernel/ground/env';
import { UnsafeUrlError } from '../../kernel/net/guarded-fetch';
import { type FetchLike, streamingGuardedFetch } from '../../kernel/net/streaming-fetch';
import { loopbackAllowed } from './records';
import type { ListedTool } from './tools';

/**
 * The MCP client side of connectors: every request to a connector's server, or to a URL its
 * metadata names, goes through the guarded fetch (shared/kernel/net), whose address check holds at
 * connect time. The MCP SDK is loaded on first use only (`import()`): it stays out of the
 * function's start and in its own chunk of the bundle.
 */

/** The fetch of connector traffic (guarded; loopback too where `npm start` allows it). */
export const connectorFetch = (): FetchLike => streamingGuardedFetch({ loopback: loopbackAllowed() });

/** Tools kept per connector (`CONNECTOR_MAX_TOOLS` lowers it in tests). */
export const maxTools = () => Number(readEnv('CONNECTOR_MAX_TOOLS') ?? 200);
/** The whole exchange of a `test` (`CONNECTOR_TIMEOUT_MS` in tests). */
export const checkTimeoutMs = () => Number(readEnv('CONNECTOR_TIMEOUT_MS') ?? 15_000);

/** A failed exchange with a connector's server: what `lastError` says, and the HTTP status if one was answered. */
export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** The scope a 403 `insufficient_scope` challenge asked for (a new sign-in with it is needed). */
    readonly stepUpScope?: string,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

/** `error` and `scope` of a `WWW-Authenticate: Bearer …` challenge. */
function challengeOf(header: string | undefined): { error?: string; scope?: string } {
  const param = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(header ?? '')?.[1];
  return { error: param('error'), scope: param('scope') };
}

const MAX_PAGES = 100;

/** The HTTP status a transport error carries (the SDK's StreamableHTTPError and SseError have `code`). */
function statusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number' && code >= 100 && code < 600) return code;
  const m = /\(HTTP (\d{3})\)/.exec(String((err as Error)?.message ?? ''));
  return m ? Number(m[1]) : undefined;
}

/** What a person reads in `lastError`, for an error of the exchange. */
export function describeFailure(err: unknown, transport: 'http' | 'sse', challenge?: string): ConnectorError {
  if (err instanceof ConnectorError) return err;
  if (err instanceof UnsafeUrlError)
    return new ConnectorError(`The platform does not reach this server: ${err.message}`);
  const status = statusOf(err);
  const asked = challengeOf(challenge);
  if (status === 403 && asked.error === 'insufficient_scope' && asked.scope) {
    return new ConnectorError(
      `The server needs more access (scope "${asked.scope}"): sign in again (oauth/start).`,
      403,
      asked.scope,
    );
  }
  if (status === 401 || status === 403) {
    return new ConnectorError(`The server refused the credentials (${status}).`, status);
  }
  if (transport === 'http' && (status === 400 || status === 404 || status === 405)) {
    return new ConnectorError(
      `The server answered ${status} to Streamable HTTP. If it speaks the older HTTP+SSE transport, choose transport sse.`,
      status,
    );
  }
  const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: unknown }).code;
  if (cause === 'ECONNREFUSED') return new ConnectorError('Could not connect: the connection was refused.');
  if (cause === 'ENOTFOUND') return new ConnectorError('Could not connect: the name does not resolve.');
  const text = String((err as Error)?.message ?? err).slice(0, 500);
  return new ConnectorError(status ? `The server answered ${status}: ${text}` : text, status);
}

/**
 * Connects to a server as the connector says (`http`: Streamable HTTP only; `sse`: the legacy
 * HTTP+SSE transport), with `headers` on every request, and lists its tools page by page: the
 * first `max` kept, the rest counted. The whole exchange has `timeoutMs`.
 */
export async function listServerTools(
  server: { url: string; transport: 'http' | 'sse' },
  headers: Record<string, string>,
  options: { max: number; timeoutMs: number; fetch?: FetchLike },
): Promise<{ tools: ListedTool[]; total: number }> {
  const { sdk } = await import('./sdk');
  const { Client } = sdk.client;
  const transportOf = (url: URL, fetch: FetchLike) =>
    server.transport === 'http'
      ? new sdk.streamableHttp.StreamableHTTPClientTransport(url, { fetch, requestInit: { headers } })
      : new sdk.sse.SSEClientTransport(url, { fetch, requestInit: { headers } });
  const guarded = options.fetch ?? connectorFetch();
  // The last refusal's challenge, for what it asks (a scope to step up to).
  let challenge: string | undefined;
  const fetch: FetchLike = async (input, init) => {
    const res = await guarded(input, init);
    if (res.status === 401 || res.status === 403) challenge = res.headers.get('www-authenticate') ?? undefined;
    return res;
  };
  const client = new Client({ name: 'platform-connectors', version: '1.0.0' });
  const deadline = Date.now() + options.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ConnectorError(`No answer within ${Math.round(options.timeoutMs / 1000)} s.`)),
      options.timeoutMs,
    );
  });
  const exchange = async () => {
    await client.connect(transportOf(new URL(server.url), fetch), { timeout: options.timeoutMs });
    const tools: ListedTool[] = [];
    let total = 0;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: Math.max(1, deadline - Date.now()),
      });
      total += listed.tools.length;
      for (const t of listed.tools) if (tools.length < options.max) tools.push(t as ListedTool);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return { tools, total };
  };
  try {
    return await Promise.race([exchange(), timeout]);
  } catch (err) {
    throw describeFailure(err, server.transport, challenge);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}
