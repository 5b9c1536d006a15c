import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Received {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A real HTTPS receiver on loopback with the test certificate (test/fixtures/tls), for what the
 * platform sends to tenant URLs (job callbacks, webhooks) through the guarded fetch. It answers a
 * path the statuses `scripted` lists for it, one per call, then 200. Opens the guarded fetch's
 * test allowance for `localhost` (and its CA) in this process until `close`.
 */
export async function startReceiver() {
  const tls = join(__dirname, '..', 'fixtures', 'tls');
  const received: Received[] = [];
  const scripted = new Map<string, number[]>();
  const server = createServer(
    { key: readFileSync(join(tls, 'receiver.key')), cert: readFileSync(join(tls, 'receiver.crt')) },
    (req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        received.push({ path: req.url ?? '', body, headers: req.headers });
        res.writeHead(scripted.get(req.url ?? '')?.shift() ?? 200);
        res.end('ok');
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, { UNSAFE_TEST_ALLOW_HOSTS: 'localhost', UNSAFE_TEST_CA_FILE: join(tls, 'receiver.crt') });
  return {
    port: (server.address() as AddressInfo).port,
    scripted,
    callsTo: (path: string) => received.filter((r) => r.path === path),
    close: () => {
      server.closeAllConnections();
      server.close();
      delete process.env.UNSAFE_TEST_ALLOW_HOSTS;
      delete process.env.UNSAFE_TEST_CA_FILE;
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
