import { request, type Server } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AWS_LIMITS, createGateway, type LambdaHandler, listen } from '../../lib/local/gateway';
import type { RouteGroup } from '../../lib/route-groups';
import { TestPlatform } from '../helpers/platform';

/**
 * AWS's payload limits on a Lambda-backed route, as the local gateway holds them: API Gateway
 * reads at most 10 MiB of a body and answers 413 itself; Lambda takes an event of at most 6 MiB
 * as JSON (a binary body is base64, a text body JSON-escaped in it) and returns at most 6 MiB +
 * 100 bytes, beyond which API Gateway answers 500. A test group echoes what reached it, or
 * answers as many bytes as asked.
 */
const MiB = 1024 * 1024;

const echo: LambdaHandler = async (event: APIGatewayProxyEventV2) => {
  const size = Number(event.queryStringParameters?.answer ?? 0);
  if (size > 0) return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'a'.repeat(size) };
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ received: event.body?.length ?? 0, base64: event.isBase64Encoded }),
  };
};
const groups: RouteGroup[] = [{ name: 'echo', prefixes: ['/echo'], needs: [] }];

let gateway: Server;
let base: { port: number };
let p: TestPlatform;

beforeAll(async () => {
  gateway = createGateway({ groups, load: async () => echo });
  base = { port: await listen(gateway, 0) };
  p = await TestPlatform.start();
});
afterAll(async () => {
  gateway.closeAllConnections();
  gateway.close();
  await p.close();
});

interface Answer {
  status: number;
  type: string | undefined;
  text: string;
}

/**
 * Sends with http.request and reads the answer even while the body is still going out: the
 * answer must arrive whole before the connection closes.
 */
function send(port: number, path: string, body: Buffer, type: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { 'content-type': type, 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe("API Gateway's 10 MiB body limit", () => {
  it('answers 413 in its words before closing, on a real route too', async () => {
    const body = Buffer.alloc(AWS_LIMITS.body + 1, 'a');
    for (const [port, path] of [
      [base.port, '/echo'],
      [Number(new URL(p.baseUrl).port), `/v1/orgs/${p.org.orgId}/projects`],
    ] as const) {
      const res = await send(port, path, body, 'application/json');
      expect(res).toEqual({
        status: 413,
        type: 'text/plain; charset=utf-8',
        text: 'HTTP content length exceeded 10485760 bytes.',
      });
    }
  });

  it('answers 413 to a body sent in chunks without a length, and the connection serves the next request', async () => {
    const res = await fetch(`http://127.0.0.1:${base.port}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 11; i++) controller.enqueue(new Uint8Array(MiB).fill(97));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.text()).toBe('HTTP content length exceeded 10485760 bytes.');
    const next = await send(base.port, '/echo', Buffer.from('{}'), 'application/json');
    expect(next.status).toBe(200);
  });
});

describe("Lambda's 6 MiB request limit, on the event as the function receives it", () => {
  const tooLong = { status: 413, type: 'application/json', text: '{"message":"Request Too Long"}' };

  it('a text body just under 6 MiB reaches the function; one just over does not', async () => {
    const under = await send(base.port, '/echo', Buffer.alloc(6 * MiB - 4096, 'a'), 'text/plain');
    expect(under.status).toBe(200);
    expect(JSON.parse(under.text)).toEqual({ received: 6 * MiB - 4096, base64: false });
    expect(await send(base.port, '/echo', Buffer.alloc(6 * MiB, 'a'), 'text/plain')).toEqual(tooLong);
  });

  it('a binary body counts base64: 4.6 MiB of bytes is over the limit', async () => {
    const bytes = Buffer.alloc(Math.round(4.6 * MiB), 0xff);
    expect(await send(base.port, '/echo', bytes, 'application/octet-stream')).toEqual(tooLong);
    const text = await send(base.port, '/echo', Buffer.alloc(bytes.length, 'a'), 'text/plain');
    expect(text.status).toBe(200);
  });

  it('a JSON body counts escaped: 3.5 MiB of quotes is 7 MiB in the event', async () => {
    const quotes = Buffer.from(JSON.stringify({ text: '"'.repeat(3.5 * MiB) }));
    expect(quotes.length).toBeLessThan(AWS_LIMITS.body);
    expect(await send(base.port, '/echo', quotes, 'application/json')).toEqual(tooLong);
  });
});

describe("Lambda's 6 MiB response limit, on the result as the function returns it", () => {
  const answer = async (size: number) => {
    const res = await send(base.port, `/echo?answer=${size}`, Buffer.alloc(0), 'text/plain');
    return { status: res.status, type: res.type, text: res.text.length > 100 ? res.text.length : res.text };
  };

  it('a result just under the limit passes; one over it is the 500 API Gateway answers', async () => {
    expect(await answer(6 * MiB - 4096)).toEqual({ status: 200, type: 'text/plain', text: 6 * MiB - 4096 });
    expect(await answer(6 * MiB + 100)).toEqual({
      status: 500,
      type: 'application/json',
      text: '{"message":"Internal Server Error"}',
    });
  });
});
