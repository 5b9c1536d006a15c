import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Git over HTTP on one machine: the local gateway hands `/git/…` requests to the git endpoint's
 * own code (functions/git), which streams to `git http-backend` through the git port. On AWS the
 * same code runs in the git function behind its function URL.
 */
export async function serveGitRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [{ serveGit }, { gitEndpointDeps }] = await Promise.all([
    import('../../functions/git/serve'),
    import('../../functions/git/deps'),
  ]);
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const answer = await serveGit(gitEndpointDeps, {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers,
    body: req,
  });
  res.writeHead(answer.status, answer.headers);
  if (Buffer.isBuffer(answer.body)) {
    res.end(answer.body);
    return;
  }
  answer.body.on('error', () => res.destroy());
  answer.body.pipe(res);
}
