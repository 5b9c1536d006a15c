import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * CalDAV and CardDAV on one machine: the local gateway hands `/dav/…` and
 * `/.well-known/caldav|carddav` to the DAV function's handler (functions/dav/handler.ts) as the
 * event its function URL would send on AWS, within Lambda's 6 MB request (413 beyond).
 */
export const MAX_DAV_REQUEST = 6 * 1024 * 1024;

export const isDavPath = (path: string) =>
  path === '/dav' || path.startsWith('/dav/') || /^\/\.well-known\/(caldav|carddav)\/?$/.test(path);

export async function serveDavRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_DAV_REQUEST) {
      res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(`A request can be at most ${MAX_DAV_REQUEST} bytes.`);
      req.resume();
      return;
    }
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  const now = Date.now();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host?.split(':')[0] ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body: body.length ? body.toString('base64') : undefined,
    isBase64Encoded: body.length > 0,
  };
  const { handler } = await import('../../functions/dav/handler');
  const result = await handler(event);
  const out = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  res.writeHead(result.statusCode ?? 200, {
    ...(result.headers as Record<string, string>),
    ...(req.method === 'HEAD' ? {} : { 'content-length': String(out.length) }),
  });
  res.end(req.method === 'HEAD' ? undefined : out);
}
