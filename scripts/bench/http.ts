import { Agent, request } from 'node:http';

/**
 * A minimal HTTP client on one kept-alive loopback connection: cheaper and steadier than fetch,
 * so the figures are about the server, not the client.
 */
export function httpClient(baseUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(baseUrl);
  const get = (path: string, token?: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          path,
          method: 'GET',
          headers: token ? { authorization: `Bearer ${token}` } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error(`GET ${path} timed out`)));
      req.on('error', reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

/** A GET that must answer 200: a bench of 401s or 404s would measure nothing useful. */
export async function expectOk(client: ReturnType<typeof httpClient>, path: string, token?: string): Promise<void> {
  const res = await client.get(path, token);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
}
