import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * HTTP for the agent program: to the platform, and for `http.batch` jobs. As in browsers, any
 * `*.localhost` name is this machine (loopback), whatever the resolver says.
 */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

const loopbackAware = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  (dnsLookup as unknown as (h: string, o: object, c: (...a: unknown[]) => void) => void)(hostname, options, callback);
}) as unknown as LookupFunction;

/** One exchange, no redirect followed (the caller decides), the body capped at `maxBytes`. */
export function send(
  url: URL,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
    maxBytes?: number;
  },
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  const maxBytes = init.maxBytes ?? 1024 * 1024;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        lookup: loopbackAware,
        signal,
        timeout: init.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (size + chunk.length > maxBytes) {
            truncated = true;
            chunks.push(chunk.subarray(0, Math.max(0, maxBytes - size)));
            size = maxBytes;
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
            ),
            body: Buffer.concat(chunks),
            truncated,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer within ${init.timeoutMs ?? 30_000} ms.`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A JSON call to the platform with the device token. */
export async function platformCall<T>(
  baseUrl: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await send(new URL(path, baseUrl), {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    maxBytes: 16 * 1024 * 1024,
  });
  const text = res.body.toString('utf8');
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
