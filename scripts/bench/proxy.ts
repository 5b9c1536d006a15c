import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A counting HTTP proxy on loopback: put in front of DynamoDB Local (AWS_ENDPOINT_URL_DYNAMODB
 * points at it), it counts every request the process sends, by operation (`X-Amz-Target`), so
 * a route's round trips are counted on the wire, whatever code made them.
 */
export interface CountingProxy {
  endpoint: string;
  /** Requests seen since the last reset, in order of arrival. */
  seen: () => Call[];
  reset: () => void;
  /**
   * Resolves once no call is in flight and none has started for `ms`: the background work of
   * earlier requests (rate-limit counts, plan refreshes) is over, so it is not counted as the
   * next request's.
   */
  quiet: (ms?: number) => Promise<void>;
  close: () => Promise<void>;
}

export interface Call {
  /** The DynamoDB operation (`GetItem`, `BatchGetItem`, …). */
  operation: string;
  start: number;
  end: number;
}

/**
 * How many times the caller waited on DynamoDB: calls that overlap in time (sent together with
 * Promise.all) are one wave; a call sent after every earlier one answered starts a new wave.
 */
export function wavesOf(calls: Call[]): number {
  let waves = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    if (call.start >= lastEnd) waves++;
    lastEnd = Math.max(lastEnd, call.end);
  }
  return waves;
}

export function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  let calls: Call[] = [];
  const server: Server = createServer((req, res) => {
    const target = req.headers['x-amz-target'];
    const call: Call = {
      operation:
        String(Array.isArray(target) ? target[0] : (target ?? req.method))
          .split('.')
          .pop() ?? '?',
      start: performance.now(),
      end: Number.POSITIVE_INFINITY,
    };
    calls.push(call);
    res.once('finish', () => {
      call.end = performance.now();
    });
    const out = request(
      {
        agent,
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        endpoint: `http://127.0.0.1:${port}`,
        seen: () => calls.map((c) => ({ ...c })),
        reset: () => {
          calls = [];
        },
        quiet: async (ms = 100) => {
          for (;;) {
            const last = Math.max(0, ...calls.map((c) => c.start));
            const idleFor = performance.now() - last;
            if (calls.every((c) => Number.isFinite(c.end)) && idleFor >= ms) return;
            await new Promise((r) => setTimeout(r, Math.max(10, ms - idleFor)));
          }
        },
        close: () =>
          new Promise<void>((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
