import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { groupFor, type RouteGroup, routeGroups, segmentsOfPrefix } from '../route-groups';
import { isDavPath, serveDavRequest } from './dav';
import { serveGitRequest } from './git';

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * AWS's limits for a Lambda-backed route, held here so that tests meet what AWS would answer.
 * API Gateway reads at most 10 MiB of a body; Lambda takes an event of at most 6 MiB as JSON
 * (a binary body travels base64, a third larger; a text body JSON-escaped) and returns a result
 * of at most 6 MiB + 100 bytes as JSON, the figures Lambda's own errors name.
 */
export const AWS_LIMITS = { body: 10 * 1024 * 1024, event: 6 * 1024 * 1024, result: 6 * 1024 * 1024 + 100 };

/**
 * After a 413 the rest of the body is read and dropped, so the client, still sending, gets to read
 * the answer (closing at once would reset the connection under it); beyond this much it is cut.
 */
const MAX_DRAIN = 64 * 1024 * 1024;

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

const EMPTY = Buffer.alloc(0);

/** The request body, or `undefined` as soon as it is known to pass API Gateway's limit. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  // No body announced (no length, no chunked encoding): nothing to wait for.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return Promise.resolve(EMPTY);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers['content-length']) > AWS_LIMITS.body;
    if (over) resolve(undefined);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (over) {
        if (size > AWS_LIMITS.body + MAX_DRAIN) req.socket.destroy();
      } else if (size > AWS_LIMITS.body) {
        over = true;
        chunks.length = 0;
        resolve(undefined);
      } else chunks.push(c);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The request's URL. A path is always taken as a path (`//x` is not a host, as API Gateway sees
 * it); `undefined` when even that does not parse.
 */
function requestUrl(req: IncomingMessage): URL | undefined {
  const raw = req.url ?? '/';
  try {
    return raw.startsWith('/') ? new URL(`http://local${raw}`) : new URL(raw);
  } catch {
    return undefined;
  }
}

/**
 * A path segment decoded; one that is not valid percent-encoding is handed over as it came
 * (API Gateway does the same with the raw path, and the handler answers 400).
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route key API Gateway would report, e.g. `ANY /v1/orgs/{orgId}/{proxy+}`. */
function routeKeyOf(group: RouteGroup, path: string): { routeKey: string; pathParameters?: Record<string, string> } {
  const parts = path.split('/').filter(Boolean);
  const prefix = group.prefixes
    .filter((p) => {
      const segs = segmentsOfPrefix(p);
      return segs.length <= parts.length && segs.every((s, i) => s.startsWith('{') || s === parts[i]);
    })
    .sort((a, b) => b.length - a.length)[0];
  if (!prefix) return { routeKey: '$default' };
  const segs = segmentsOfPrefix(prefix);
  const params: Record<string, string> = {};
  segs.forEach((s, i) => {
    if (s.startsWith('{')) params[s.slice(1, -1)] = decodeSegment(parts[i] as string);
  });
  const rest = parts.slice(segs.length);
  if (rest.length > 0) params.proxy = rest.map(decodeSegment).join('/');
  return {
    routeKey: `ANY ${prefix}${rest.length > 0 ? '/{proxy+}' : ''}`,
    pathParameters: Object.keys(params).length ? params : undefined,
  };
}

/** Turns a Node request into the API Gateway HTTP API (payload 2.0) event the Lambda would get. */
export function toEvent(req: IncomingMessage, body: Buffer, group: RouteGroup): APIGatewayProxyEventV2 {
  const url = requestUrl(req) ?? new URL('http://local/');
  // Built from entries, so that a name such as `__proto__` stays an ordinary key, as in the JSON
  // event API Gateway hands the function.
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name, value]) => value !== undefined && name !== 'cookie')
      .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(',') : (value as string)]),
  );
  const joined = new Map<string, string>();
  for (const [k, v] of url.searchParams) joined.set(k, joined.has(k) ? `${joined.get(k)},${v}` : v);
  const query: Record<string, string> = Object.fromEntries(joined);
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

/** An answer of API Gateway itself (not of the API), in its words and shape. */
function sendGatewayAnswer(res: ServerResponse, status: number, message: string): void {
  send(res, { statusCode: status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Room for everything of an event or a result but its body (API Gateway's headers are at most
 * 10 KB): a body whose JSON (at most 6 bytes per character) fits in the limit less this can't take
 * the whole past it, so it isn't measured.
 */
const ENVELOPE_BYTES = 64 * 1024;
const mayPass = (body: string | undefined, limit: number) => (body?.length ?? 0) * 6 > limit - ENVELOPE_BYTES;

/** Invokes the handler as Lambda would: an event or a result over Lambda's limit never passes. */
async function invoke(
  res: ServerResponse,
  handler: LambdaHandler,
  event: APIGatewayProxyEventV2,
  group: RouteGroup,
): Promise<void> {
  if (mayPass(event.body, AWS_LIMITS.event) && jsonBytes(event) > AWS_LIMITS.event) {
    return sendGatewayAnswer(res, 413, 'Request Too Long');
  }
  const result = await handler(event, contextFor(group, event.requestContext.requestId));
  if (mayPass(result.body, AWS_LIMITS.result) && jsonBytes(result) > AWS_LIMITS.result) {
    process.stderr.write(
      `${JSON.stringify({ level: 'error', message: 'response payload over the Lambda limit', group: group.name, requestId: event.requestContext.requestId })}\n`,
    );
    return sendGatewayAnswer(res, 500, 'Internal Server Error');
  }
  send(res, result);
}

/**
 * The local gateway: HTTP → API Gateway v2 event → the route group's handler, picked with the
 * same prefixes and precedence as API Gateway (lib/route-groups.ts), within AWS's payload limits.
 * `load`: the handler of a group (tests mount their own groups with it).
 */
export function createGateway(
  options: { extra?: LocalRoute[]; groups?: RouteGroup[]; load?: (group: RouteGroup) => Promise<LambdaHandler> } = {},
): Server {
  const groups = options.groups ?? routeGroups;
  const load = options.load ?? loadHandler;
  const server = createServer((req, res) => {
    void (async () => {
      try {
        for (const extra of options.extra ?? []) if (await extra(req, res)) return;
        const url = requestUrl(req);
        if (!url) return sendGatewayAnswer(res, 400, 'Bad Request');
        // Git over HTTP beside the API (on AWS: the git function's URL), streamed both ways.
        if (url.pathname.startsWith('/git/') && groups.some((g) => g.name === 'repos')) {
          return await serveGitRequest(req, res, url);
        }
        // CalDAV and CardDAV (PROPFIND, REPORT, MKCALENDAR…): the DAV function (on AWS: its own URL).
        if (isDavPath(url.pathname) && groups.some((g) => g.name === 'calendar'))
          return await serveDavRequest(req, res, url);
        const group = groupFor(url.pathname, groups);
        if (!group) return sendError(res, 404, 'Not found');
        const body = await readBody(req);
        if (!body) {
          return send(res, {
            statusCode: 413,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
            body: `HTTP content length exceeded ${AWS_LIMITS.body} bytes.`,
          });
        }
        await invoke(res, await load(group), toEvent(req, body, group), group);
      } catch (err) {
        process.stderr.write(`${JSON.stringify({ level: 'error', message: 'gateway failure', error: String(err) })}\n`);
        if (!res.headersSent) sendError(res, 500, 'Internal error');
        else res.end();
      }
    })();
  });
  // An idle keep-alive connection is closed by its client, never by a timer here. The workers, the
  // SMTP server and the tests' own code share this process: work that holds its event loop past
  // Node's keep-alive timeout (5 s, closed at 6) let a client's request, sent on its pooled
  // connection as the loop came back, land on a connection the server's expired timer then
  // destroyed unread: the client read ECONNRESET. Without the timer (and its `Keep-Alive: timeout`
  // hint) only the client ends idle connections, which it never does under a request of its own.
  server.keepAliveTimeout = 0;
  return server;
}

/** Starts a server and resolves with the port it listens on. */
export function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}
