import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '../../shared/kernel/net/free-port';

/**
 * MCP servers for the connector tests, on loopback: `@modelcontextprotocol/server-everything` as a
 * child process (Streamable HTTP at `/mcp`, or the older HTTP+SSE at `/sse`), and a server of the
 * SDK in this process whose tools, pages and credential check a test chooses.
 */
const EVERYTHING = join(
  __dirname,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/** Waits until something answers HTTP on `port`. */
async function answering(port: number, child: ChildProcess): Promise<void> {
  for (const start = Date.now(); Date.now() - start < 20_000; ) {
    if (child.exitCode !== null) throw new Error(`server-everything exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('server-everything did not start');
}

export interface Running {
  url: string;
  port: number;
  stop: () => Promise<void>;
}

/** server-everything in `mode` on `port` (a free one by default). */
export async function startEverything(mode: 'streamableHttp' | 'sse', port?: number): Promise<Running> {
  const at = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { PATH: process.env.PATH, PORT: String(at) },
    stdio: 'ignore',
  });
  await answering(at, child);
  return {
    url: `http://127.0.0.1:${at}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    port: at,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill();
      await gone;
    },
  };
}

export interface SdkServerOptions {
  /** Tool names, listed in this order (read at each listing: a test may change them). */
  tools: string[];
  /** Each tool's description (default `The <name> tool`). */
  describe?: (name: string) => string;
  /** Tools per `tools/list` page (all on one page by default). */
  pageSize?: number;
  /** Whether a request may go on (a credential check); a refused one gets 401. */
  allow?: (req: IncomingMessage) => boolean | { status: number; challenge: string };
  /** The 401's `WWW-Authenticate` (default `Bearer`). */
  challenge?: () => string;
  /** Other paths of the same origin (an authorization server's): true when answered. */
  other?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

/** A stateless Streamable HTTP server of the SDK at `/mcp`, counting the requests it answered. */
export async function startSdkServer(options: SdkServerOptions): Promise<Running & { requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const http: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req);
    if (options.other && (await options.other(req, res))) return;
    if (!(req.url ?? '').startsWith('/mcp')) {
      res.writeHead(404);
      res.end();
      return;
    }
    const allowed = options.allow?.(req) ?? true;
    if (allowed !== true) {
      const refusal = allowed || { status: 401, challenge: options.challenge?.() ?? 'Bearer' };
      res.writeHead(refusal.status, { 'www-authenticate': refusal.challenge });
      res.end();
      return;
    }
    const server = new McpServer({ name: 'test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const size = options.pageSize ?? options.tools.length;
      const from = Number(request.params?.cursor ?? 0);
      const page = options.tools.slice(from, from + size);
      return {
        tools: page.map((name) => ({
          name,
          description: options.describe?.(name) ?? `The ${name} tool`,
          inputSchema: { type: 'object' as const, properties: { q: { type: 'string' } } },
        })),
        ...(from + size < options.tools.length ? { nextCursor: String(from + size) } : {}),
      };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
