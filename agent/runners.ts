import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { send } from './net';

/** What the platform said the device may do (the poll's `policy`). */
export interface Policy {
  capabilities: string[];
  networkMode?: 'allowlist' | 'full';
  hosts?: string[];
}

export interface Outcome {
  status: 'done' | 'failed';
  error?: string;
  results: unknown;
  /** Hosts refused by the allowlist: the program files network requests for them. */
  refusedHosts: string[];
}

/** The allowlist again, on the device: `*.example.com` covers subdomains. */
export function allowed(policy: Policy, host: string): boolean {
  if (policy.networkMode === 'full') return true;
  return (policy.hosts ?? []).some((h) => h === host || (h.startsWith('*.') && host.endsWith(h.slice(1))));
}

interface HttpBatch {
  requests: { method?: string; url: string; headers?: Record<string, string>; body?: string; timeoutMs?: number }[];
}

const MAX_REDIRECTS = 5;
const CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** A redirect to another origin carries the request's headers without its credentials, as browsers do. */
const withoutCredentials = (headers: Record<string, string> | undefined) =>
  headers && Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIALS.has(k.toLowerCase())));

/**
 * `http.batch`: each request in turn; redirects followed only to allowed hosts (a host refused is
 * reported for a network request), without the request's credentials once they leave its origin.
 */
export async function runHttpBatch(input: HttpBatch, policy: Policy, signal: AbortSignal): Promise<Outcome> {
  const responses: unknown[] = [];
  const refused = new Set<string>();
  for (const r of input.requests) {
    if (signal.aborted) break;
    let url: URL;
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    let error: string | undefined;
    try {
      url = new URL(r.url);
    } catch {
      responses.push({ url: r.url, error: 'Not a valid URL.' });
      continue;
    }
    const first = url.origin;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!allowed(policy, url.hostname)) {
        refused.add(url.hostname);
        error = `${url.hostname} is not in this device's allowlist.`;
        answer = undefined;
        break;
      }
      try {
        answer = await send(
          url,
          {
            method: hop === 0 ? r.method : 'GET',
            headers: url.origin === first ? r.headers : withoutCredentials(r.headers),
            body: hop === 0 ? r.body : undefined,
            timeoutMs: r.timeoutMs,
          },
          signal,
        );
      } catch (err) {
        error = (err as Error).message;
        break;
      }
      const location = answer.headers.location;
      if (answer.status < 300 || answer.status >= 400 || !location) break;
      try {
        url = new URL(location, url);
      } catch {
        error = `The answer redirected to ${location.slice(0, 200)}, which is not a URL.`;
        answer = undefined;
        break;
      }
    }
    responses.push(
      answer
        ? {
            url: r.url,
            status: answer.status,
            headers: answer.headers,
            body: answer.body.toString('utf8'),
            truncated: answer.truncated,
          }
        : { url: r.url, error },
    );
  }
  const failed = responses.filter((x) => (x as { error?: string }).error);
  return {
    status: failed.length === 0 ? 'done' : 'failed',
    ...(failed.length > 0 ? { error: `${failed.length} of ${input.requests.length} requests failed.` } : {}),
    results: { responses },
    refusedHosts: [...refused],
  };
}

interface Exec {
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Each stream of an `exec` keeps its first megabyte; the rest is counted, not kept. */
const OUTPUT_BYTES = 1024 * 1024;
/** How long a stopped command has between SIGTERM and SIGKILL. */
const GRACE_MS = 5000;

/** Where `exec` jobs run: a fresh folder per job under this, removed after (AGENT_WORK_DIR, else the system's temp). */
export const workRoot = (env = process.env) => env.AGENT_WORK_DIR || join(tmpdir(), 'platform-agent-work');

/**
 * `exec`: the argv as given (never a shell), in a fresh folder of its own (`cwd`, relative, is
 * inside it; absolute, as given; it must exist) with only `PATH`, `HOME`, `LANG` of the program's
 * environment and the job's `env` (the program's own variables stay out). The command leads its
 * own process group: a cancel or the timeout stops the whole group (SIGTERM, then SIGKILL after a
 * grace period), and what it left running when it ended is stopped too. Each stream keeps its
 * first megabyte.
 */
export async function runExec(
  input: Exec,
  signal: AbortSignal,
  options: { root?: string; graceMs?: number } = {},
): Promise<Outcome> {
  const failed = (error: string): Outcome => ({ status: 'failed', error, results: null, refusedHosts: [] });
  const root = options.root ?? workRoot();
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const folder = mkdtempSync(join(root, 'job-'));
  try {
    const cwd = input.cwd === undefined ? folder : isAbsolute(input.cwd) ? input.cwd : resolve(folder, input.cwd);
    if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
      return failed(`The folder ${input.cwd} does not exist on this device.`);
    }
    const inherited = Object.fromEntries(
      ['PATH', 'HOME', 'LANG'].flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k] as string]])),
    );
    return await new Promise<Outcome>((done) => {
      const [file, ...args] = input.command as [string, ...string[]];
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(file, args, {
          cwd,
          env: { ...inherited, ...input.env },
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (err) {
        // A name or value spawn refuses (a NUL byte, `=` in a name): the job fails, the program goes on.
        done(failed((err as Error).message));
        return;
      }
      const streams = { stdout: new Capped(), stderr: new Capped() };
      child.stdout?.on('data', (d: Buffer) => streams.stdout.add(d));
      child.stderr?.on('data', (d: Buffer) => streams.stderr.add(d));
      let stopped: string | undefined;
      let spawnError: string | undefined;
      let killer: NodeJS.Timeout | undefined;
      const group = (sig: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, sig);
        } catch {
          // The group is gone already.
        }
      };
      const stop = (why: string) => {
        if (stopped) return;
        stopped = why;
        group('SIGTERM');
        killer = setTimeout(() => group('SIGKILL'), options.graceMs ?? GRACE_MS);
      };
      const onAbort = () => stop('Canceled.');
      signal.addEventListener('abort', onAbort);
      if (signal.aborted) onAbort();
      const timeoutMs = input.timeoutMs ?? 10 * 60_000;
      const timer = setTimeout(() => stop(`Stopped after ${timeoutMs} ms.`), timeoutMs);
      child.on('error', (e) => {
        spawnError = e.message;
      });
      // The command ended: whatever it left behind in its group ends too (its pipes close then).
      child.on('exit', () => group('SIGKILL'));
      child.on('close', (code, sig) => {
        clearTimeout(timer);
        clearTimeout(killer);
        signal.removeEventListener('abort', onAbort);
        const results = {
          exitCode: code,
          signal: sig,
          stdout: streams.stdout.text(),
          stderr: streams.stderr.text(),
          ...(streams.stdout.dropped > 0 ? { stdoutTruncated: true } : {}),
          ...(streams.stderr.dropped > 0 ? { stderrTruncated: true } : {}),
        };
        const error = spawnError ?? stopped ?? (code === 0 ? undefined : `Exited with ${code ?? sig}.`);
        done({ status: error ? 'failed' : 'done', ...(error ? { error } : {}), results, refusedHosts: [] });
      });
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The first OUTPUT_BYTES of a stream; what comes after is only counted. */
class Capped {
  private chunks: Buffer[] = [];
  private size = 0;
  dropped = 0;
  add(chunk: Buffer) {
    const kept = Math.min(Math.max(0, OUTPUT_BYTES - this.size), chunk.length);
    if (kept > 0) this.chunks.push(chunk.subarray(0, kept));
    this.size += kept;
    this.dropped += chunk.length - kept;
  }
  text() {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
