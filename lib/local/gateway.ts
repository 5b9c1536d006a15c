import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { groupFor, type RouteGroup, routeGroups } from '../route-groups';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway's payload limit. */
const MAX_BODY = 10 * 1024 * 1024;

const TEXT_TYPES = /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript)|[^;]*\+json|[^;]*\+xml)/i;

/** Extra handlers the local platform mounts beside the API (served before the route groups). */
export type LocalRoute = (req: IncomingMessage, res: ServerResponse) => Promise<boolean> | boolean;

const handlers = new Map<string, Promise<LambdaHandler>>();

function loadHandler(group: RouteGroup): Promise<LambdaHandler> {
  let h = handlers.get(group.name);
  if (!h) {
    h = import(`../../functions/${group.name}/handler`).then((m: { handler: LambdaHandler }) => m.handler);
    handlers.set(group.name, h);
  }
  return h;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new Error('too large'), { status: 413 }));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The route key API Gateway would report, e.g. `ANY /v1/orgs/{orgId}/{proxy+}`. */
function routeKeyOf(group: RouteGroup, path: string): { routeKey: string; pathParameters?: Record<string, string> } {
  const parts = path.split('/').filter(Boolean);
  const prefix = group.prefixes
    .filter((p) => {
      const segs = p.split('/').filter(Boolean);
      return segs.length <= parts.length && segs.every((s, i) => s.startsWith('{') || s === parts[i]);
    })
    .sort((a, b) => b.length - a.length)[0];
  if (!prefix) return { routeKey: '$default' };
  const segs = prefix.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  segs.forEach((s, i) => {
    if (s.startsWith('{')) params[s.slice(1, -1)] = decodeURIComponent(parts[i] as string);
  });
  const rest = parts.slice(segs.length);
  if (rest.length > 0) params.proxy = rest.map(decodeURIComponent).join('/');
  return {
    routeKey: `ANY ${prefix}${rest.length > 0 ? '/{proxy+}' : ''}`,
    pathParameters: Object.keys(params).length ? params : undefined,
  };
}

/** Turns a Node request into the API Gateway HTTP API (payload 2.0) event the Lambda would get. */
export function toEvent(req: IncomingMessage, body: Buffer, group: RouteGroup): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const cookies = req.headers.cookie
    ?.split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const contentType = headers['content-type'] ?? '';
  const text = body.length === 0 || TEXT_TYPES.test(contentType) || (contentType === '' && isUtf8(body));
  const now = Date.now();
  const requestId = randomUUID();
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = url.pathname;
  }
  const { routeKey, pathParameters } = routeKeyOf(group, url.pathname);
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: cookies?.length ? cookies : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host?.split(':')[0] ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: (req.method ?? 'GET').toUpperCase(),
        path,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body: body.length === 0 ? undefined : text ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !text,
  };
}

function isUtf8(buf: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

function contextFor(group: RouteGroup, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `platform-${group.name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:platform-${group.name}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/platform-${group.name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | number | boolean | string[]> = { ...result.headers };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body =
    result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  if (body) headers['content-length'] = body.length;
  res.writeHead(result.statusCode ?? 200, headers as Record<string, string>);
  res.end(body);
}

function sendError(res: ServerResponse, status: number, error: string): void {
  send(res, {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ error }),
  });
}

/**
 * The local gateway: HTTP → API Gateway v2 event → the route group's handler, picked with the
 * same prefixes and precedence as API Gateway (lib/route-groups.ts).
 */
export function createGateway(options: { extra?: LocalRoute[]; groups?: RouteGroup[] } = {}): Server {
  const groups = options.groups ?? routeGroups;
  return createServer((req, res) => {
    void (async () => {
      try {
        for (const extra of options.extra ?? []) if (await extra(req, res)) return;
        const url = new URL(req.url ?? '/', 'http://local');
        const group = groupFor(url.pathname, groups);
        if (!group) return sendError(res, 404, 'Not found');
        let body: Buffer;
        try {
          body = await readBody(req);
        } catch (err) {
          return sendError(res, (err as { status?: number }).status ?? 400, 'Request too large');
        }
        const event = toEvent(req, body, group);
        const handler = await loadHandler(group);
        const result = await handler(event, contextFor(group, event.requestContext.requestId));
        send(res, result);
      } catch (err) {
        process.stderr.write(`${JSON.stringify({ level: 'error', message: 'gateway failure', error: String(err) })}\n`);
        if (!res.headersSent) sendError(res, 500, 'Internal error');
        else res.end();
      }
    })();
  });
}

/** Starts a server and resolves with the port it listens on. */
export function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}
