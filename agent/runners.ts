import { spawn } from 'node:child_process';
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

/** `http.batch`: each request in turn; redirects followed only to allowed hosts. */
export async function runHttpBatch(input: HttpBatch, policy: Policy, signal: AbortSignal): Promise<Outcome> {
  const responses: unknown[] = [];
  const refused = new Set<string>();
  for (const r of input.requests) {
    if (signal.aborted) break;
    let url = new URL(r.url);
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    let error: string | undefined;
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
            headers: r.headers,
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
      url = new URL(location, url);
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

/** `exec`: the argv as given (never a shell), stopped by the timeout or a cancel. */
export function runExec(input: Exec, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    const [file, ...args] = input.command as [string, ...string[]];
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const child = spawn(file, args, {
      cwd: input.cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...input.env },
      signal,
      timeout: input.timeoutMs ?? 10 * 60_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const cap = (chunks: Buffer[]) =>
      Buffer.concat(chunks)
        .subarray(0, 1024 * 1024)
        .toString('utf8');
    let spawnError: string | undefined;
    child.on('error', (e) => {
      spawnError = e.name === 'AbortError' ? 'Canceled.' : e.message;
    });
    child.on('close', (code, sig) => {
      const results = { exitCode: code, signal: sig, stdout: cap(out), stderr: cap(err) };
      const error = spawnError ?? (code === 0 ? undefined : `Exited with ${code ?? sig}.`);
      resolve({ status: error ? 'failed' : 'done', ...(error ? { error } : {}), results, refusedHosts: [] });
    });
  });
}
