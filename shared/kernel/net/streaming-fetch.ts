import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { addressesFor, checkUrlSyntaxFor, lookupThrough, type Resolver, systemResolver, testCa } from './guarded-fetch';

/**
 * The streaming form of the guarded fetch (./guarded-fetch.ts), in a file of its own: what only
 * connectors and DNS providers need stays out of the start of the functions that save and check
 * URLs alone.
 */
export interface StreamingFetchOptions {
  resolver?: Resolver;
  ca?: string | Buffer;
  /** Loopback `http`/`https` allowed too (checkUrlSyntaxFor): `npm start` only. */
  loopback?: boolean;
  /** From the request to the answer's headers; default 15 s. The body streams as long as the caller reads it. */
  headersTimeoutMs?: number;
  /** The most body bytes read before the stream fails; default 16 MB. */
  maxBytes?: number;
}

/** A fetch-compatible function, as MCP's transports and OAuth helpers take one. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

const abortError = (signal: AbortSignal) =>
  signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');

/** A request body as bytes: what `fetch` callers hand over (strings, form parameters, bytes). */
function bodyBytes(body: RequestInit['body'], headers: Headers): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return Buffer.from(body.toString());
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('The guarded fetch sends string, form or byte bodies only.');
}

/**
 * The streaming form of `guardedFetch`, fetch-compatible (a WHATWG `Response` whose body streams,
 * for Server-Sent Events): the same URL rules and the same address check at connect time (the
 * socket connects only to an address just checked), no redirect followed (a 3xx is the answer),
 * a time limit until the headers, a byte cap on the body, `signal` honored.
 */
export function streamingGuardedFetch(options: StreamingFetchOptions = {}): FetchLike {
  const resolver = options.resolver ?? systemResolver;
  const loopback = options.loopback === true;
  const headersTimeoutMs = options.headersTimeoutMs ?? 15_000;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const lookup = lookupThrough((hostname) => addressesFor(hostname, resolver, loopback));
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = checkUrlSyntaxFor(String(input), 'The URL', loopback);
      const signal = init.signal ?? undefined;
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const headers = new Headers(init.headers);
      const body = bodyBytes(init.body, headers);
      const method = (init.method ?? 'GET').toUpperCase();
      const ca = options.ca ?? testCa();
      const send = url.protocol === 'http:' ? httpRequest : request;
      const req = send(
        {
          host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          ...(url.protocol === 'https:' ? { servername: isIP(url.hostname) ? undefined : url.hostname } : {}),
          port: url.port || (url.protocol === 'http:' ? 80 : 443),
          path: `${url.pathname}${url.search}`,
          method,
          headers: Object.fromEntries(headers),
          lookup,
          agent: false,
          ...(ca && url.protocol === 'https:' ? { ca } : {}),
        },
        (res) => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 599) {
            res.destroy();
            reject(new Error(`Unexpected status ${status}.`));
            return;
          }
          const answer = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            answer.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
          }
          const empty = method === 'HEAD' || status === 204 || status === 205 || status === 304;
          let size = 0;
          let done = false;
          const stream = empty
            ? null
            : new ReadableStream<Uint8Array>({
                start(controller) {
                  const fail = (err: Error) => {
                    if (done) return;
                    done = true;
                    controller.error(err);
                  };
                  res.on('data', (chunk: Buffer) => {
                    if (done) return;
                    size += chunk.length;
                    if (size > maxBytes) {
                      res.destroy();
                      fail(new Error(`The answer is larger than ${maxBytes} bytes.`));
                      return;
                    }
                    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
                  });
                  res.on('end', () => {
                    if (done) return;
                    done = true;
                    controller.close();
                  });
                  res.on('error', fail);
                  res.on('close', () =>
                    fail(signal?.aborted ? abortError(signal) : new Error('The connection closed.')),
                  );
                },
                cancel() {
                  done = true;
                  res.destroy();
                },
              });
          if (empty) res.resume();
          resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: answer }));
        },
      );
      const timer = setTimeout(
        () => req.destroy(new Error(`No answer within ${headersTimeoutMs} ms.`)),
        headersTimeoutMs,
      );
      const onAbort = () => req.destroy(abortError(signal as AbortSignal));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(body);
    });
}
