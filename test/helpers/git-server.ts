import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { httpBackend } from '../../shared/ports/git/http-backend';

/**
 * A small smart-HTTP git server on loopback: `http://127.0.0.1:<port>/<name>.git` serves the bare
 * repository `<root>/<name>.git` for fetching (git http-backend), as a code host would. With
 * `password`, every request needs Basic credentials holding it (a private repository).
 */
export async function serveGit(root: string, options: { password?: string } = {}) {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/([a-z0-9-]+\.git)\/(info\/refs|git-upload-pack)$/.exec(url.pathname);
    if (options.password) {
      const auth = req.headers.authorization ?? '';
      const given = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString() : '';
      if (given.split(':').slice(1).join(':') !== options.password) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
        return;
      }
    }
    if (!m || (req.method !== 'GET' && req.method !== 'POST')) {
      res.writeHead(404).end();
      return;
    }
    httpBackend(join(root, m[1] as string), {
      method: req.method,
      service: m[2] as 'info/refs' | 'git-upload-pack',
      query: url.search.slice(1),
      contentType: req.headers['content-type'],
      contentEncoding: req.headers['content-encoding'] as string | undefined,
      gitProtocol: req.headers['git-protocol'] as string | undefined,
      user: 'source',
      body: req.method === 'POST' ? req : undefined,
    }).then(
      (out) => {
        res.writeHead(out.status, out.headers);
        out.body.pipe(res);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (name: string) => `http://127.0.0.1:${port}/${name}.git`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
