import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { httpBackend } from '../../shared/ports/git/http-backend';

export interface GitServerOptions {
  /** Every request needs Basic credentials holding it (a private repository). */
  password?: string;
  /**
   * The download link the LFS batch answers for the `index`th object of a request (`own`: the
   * server's own link), so a test can make a source name another host.
   */
  lfsHref?: (name: string, oid: string, index: number, own: string) => string;
}

const LFS_JSON = 'application/vnd.git-lfs+json';

/** The bytes of a request. */
async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A minimal Git LFS server of the repository `<name>.git`: the Batch API's `download` (basic) over
 * the objects kept as git-lfs keeps them (`<repo>/lfs/objects/ab/cd/<oid>`), each a link to
 * `…/lfs-objects/<oid>` here; a missing object is its 404.
 */
async function serveLfs(
  req: IncomingMessage,
  res: ServerResponse,
  repo: string,
  base: string,
  o: GitServerOptions,
  served: string[],
) {
  const file = (oid: string) => join(repo, 'lfs', 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);
  const object = /\/lfs-objects\/([0-9a-f]{64})$/.exec(req.url ?? '');
  if (object && req.method === 'GET') {
    const path = file(object[1] as string);
    if (!existsSync(path)) return void res.writeHead(404).end();
    served.push(object[1] as string);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': statSync(path).size });
    createReadStream(path).pipe(res);
    return;
  }
  if (req.method !== 'POST' || !req.url?.endsWith('/info/lfs/objects/batch')) return void res.writeHead(404).end();
  const asked = JSON.parse((await bodyOf(req)).toString('utf8')) as { objects: { oid: string; size: number }[] };
  const name = repo
    .split('/')
    .pop()
    ?.replace(/\.git$/, '') as string;
  const objects = asked.objects.map(({ oid, size }, i) => {
    const path = file(oid);
    if (!/^[0-9a-f]{64}$/.test(oid) || !existsSync(path) || statSync(path).size !== size) {
      return { oid, size, error: { code: 404, message: 'Object does not exist' } };
    }
    const own = `${base}/${name}.git/lfs-objects/${oid}`;
    const href = o.lfsHref ? o.lfsHref(name, oid, i, own) : own;
    return { oid, size, actions: { download: { href, expires_in: 3600 } } };
  });
  res.writeHead(200, { 'content-type': LFS_JSON }).end(JSON.stringify({ transfer: 'basic', objects }));
}

/**
 * A small smart-HTTP git server on loopback: `http://127.0.0.1:<port>/<name>.git` serves the bare
 * repository `<root>/<name>.git` for fetching (git http-backend), as a code host would, and its
 * Git LFS objects (serveLfs). With `password`, every request needs Basic credentials holding it.
 */
export async function serveGit(root: string, options: GitServerOptions = {}) {
  let base = '';
  /** The oids of the LFS objects served, in order. */
  const served: string[] = [];
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
    const lfs = /^\/([a-z0-9-]+\.git)\/(?:info\/lfs\/objects\/batch|lfs-objects\/[0-9a-f]{64})$/.exec(url.pathname);
    if (lfs) {
      serveLfs(req, res, join(root, lfs[1] as string), base, options, served).catch(() => res.writeHead(500).end());
      return;
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
  base = `http://127.0.0.1:${port}`;
  return {
    url: (name: string) => `${base}/${name}.git`,
    lfsServed: served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
