import { createServer } from 'node:net';

/**
 * A port the OS just handed out on loopback (closed again before it is returned). For the local
 * platform's own processes, its tests and its bench.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
