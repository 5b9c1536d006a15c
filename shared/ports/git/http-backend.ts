import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { readEnv } from '../../kernel/ground/env';

/**
 * One smart-HTTP exchange of git with a repository's storage: what the git endpoint
 * (functions/git) passes on once it has authenticated the caller and checked the push.
 */
export interface GitHttpRequest {
  method: 'GET' | 'POST';
  /** `info/refs`, `git-upload-pack` or `git-receive-pack`. */
  service: 'info/refs' | 'git-upload-pack' | 'git-receive-pack';
  /** The query string without `?` (`service=git-upload-pack`). */
  query: string;
  contentType?: string;
  /** `gzip` when git compressed the request. */
  contentEncoding?: string;
  /** Git's `Git-Protocol` header (`version=2`). */
  gitProtocol?: string;
  /** Who pushes (the reflog's name). */
  user: string;
  body?: Readable | Buffer;
}

export interface GitHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

/** Headers a CGI program may set that are passed to the client. */
const PASSED = new Set(['content-type', 'cache-control', 'expires', 'pragma', 'content-length']);

/**
 * The local transport: `git http-backend` as a CGI program on the bare repository `gitDir`
 * (no shell; system and global configuration ignored; the repository's own `http.receivepack`
 * lets pushes in). Its CGI headers become the response's, its stdout the body as it comes.
 */
export function httpBackend(gitDir: string, req: GitHttpRequest): Promise<GitHttpResponse> {
  const slash = gitDir.lastIndexOf('/');
  const env: Record<string, string> = {
    PATH: readEnv('PATH') ?? '/usr/bin:/bin',
    GIT_PROJECT_ROOT: gitDir.slice(0, slash),
    PATH_INFO: `/${gitDir.slice(slash + 1)}/${req.service}`,
    REQUEST_METHOD: req.method,
    QUERY_STRING: req.query,
    CONTENT_TYPE: req.contentType ?? '',
    GIT_HTTP_EXPORT_ALL: '1',
    REMOTE_USER: req.user,
    REMOTE_ADDR: '127.0.0.1',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    HOME: gitDir,
  };
  if (req.contentEncoding) env.HTTP_CONTENT_ENCODING = req.contentEncoding;
  if (req.gitProtocol) env.GIT_PROTOCOL = req.gitProtocol;
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    stderr = (stderr + d).slice(-2000);
  });
  if (Buffer.isBuffer(req.body)) child.stdin.end(req.body);
  else if (req.body) {
    (req.body as Readable).pipe(child.stdin);
    // git may stop reading early (a refused push): the client's rest is dropped, not an error.
    child.stdin.on('error', () => undefined);
  } else child.stdin.end();

  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      const endLf = head.indexOf('\n\n');
      const cut = end >= 0 ? end : endLf;
      if (cut < 0) {
        if (head.length > 64 * 1024) reject(new Error('git http-backend wrote no headers'));
        return;
      }
      child.stdout.off('data', onData);
      child.stdout.pause();
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, cut).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'status') status = Number.parseInt(value, 10) || 500;
        else if (PASSED.has(name)) headers[name] = value;
      }
      const rest = head.subarray(cut + (end >= 0 ? 4 : 2));
      if (rest.length > 0) child.stdout.unshift(rest);
      resolve({ status, headers, body: child.stdout });
    };
    child.stdout.on('data', onData);
    child.once('error', reject);
    child.once('close', (code) => {
      if (head.length === 0 || (!head.includes('\n\n') && !head.includes('\r\n\r\n'))) {
        reject(new Error(`git http-backend ended (${code}) without an answer: ${stderr.trim()}`));
      }
    });
  });
}
