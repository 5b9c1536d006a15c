import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBrowserBatch } from '../../agent/browser';
import { runExec, runHttpBatch } from '../../agent/runners';
import { until } from '../helpers/until';

/**
 * The agent program's runners on their own: `exec` in a folder of its own with only the job's
 * variables, stopped as a whole process group (a cancel, the timeout, a command that ignores
 * SIGTERM), its output kept to a megabyte per stream; `http.batch` redirects followed only to
 * allowed hosts and without credentials once they leave the origin; a runner never throws at the
 * program for a job's bad input; `browser.batch` without a browser fails its job.
 */
const root = mkdtempSync(join(tmpdir(), 'agent-runners-'));
const never = new AbortController().signal;

/** Whether a process still runs (a zombie waiting for its parent counts as ended). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('exec', () => {
  it('runs in a fresh folder of its own, removed after, with the job’s variables and not the program’s', async () => {
    process.env.AGENT_TEST_SECRET = 'kept by the program';
    try {
      const out = await runExec(
        { command: ['sh', '-c', 'pwd; echo "$JOB_VAR"; echo "[$AGENT_TEST_SECRET]"'], env: { JOB_VAR: 'x1' } },
        never,
        { root },
      );
      expect(out.status).toBe('done');
      const [folder, jobVar, secret] = (out.results as { stdout: string }).stdout.trim().split('\n');
      expect(folder?.startsWith(join(root, 'job-'))).toBe(true);
      expect([jobVar, secret]).toEqual(['x1', '[]']);
      expect(readdirSync(root)).toEqual([]);
    } finally {
      delete process.env.AGENT_TEST_SECRET;
    }
  });

  it('a relative cwd is inside the job’s folder; a folder that does not exist fails the job, naming it', async () => {
    const missing = await runExec({ command: ['true'], cwd: 'build' }, never, { root });
    expect(missing).toMatchObject({ status: 'failed', error: 'The folder build does not exist on this device.' });
    const absolute = mkdtempSync(join(tmpdir(), 'agent-cwd-'));
    const there = await runExec({ command: ['pwd'], cwd: absolute }, never, { root });
    expect((there.results as { stdout: string }).stdout.trim()).toBe(absolute);
  });

  it('a cancel stops the whole process group, what the command started in the background too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-group-'));
    const abort = new AbortController();
    // The background command's output goes elsewhere: only the group's end can stop it.
    const script = 'sleep 30 >/dev/null 2>&1 & echo $! > child.pid; wait';
    const running = runExec({ command: ['sh', '-c', script], cwd: dir }, abort.signal, { root });
    const pid = await until(() => {
      try {
        return Number(readFileSync(join(dir, 'child.pid'), 'utf8')) || undefined;
      } catch {
        return undefined;
      }
    });
    expect(alive(pid)).toBe(true);
    abort.abort();
    const out = await running;
    expect(out).toMatchObject({ status: 'failed', error: 'Canceled.' });
    expect(await until(() => (alive(pid) ? undefined : true))).toBe(true);
  });

  it('a command that ignores SIGTERM is killed after the grace period; the timeout says so', async () => {
    const out = await runExec({ command: ['sh', '-c', 'trap "" TERM; sleep 30'], timeoutMs: 300 }, never, {
      root,
      graceMs: 200,
    });
    expect(out).toMatchObject({ status: 'failed', error: 'Stopped after 300 ms.', results: { signal: 'SIGKILL' } });
  });

  it('keeps the first megabyte of each stream and says the rest was cut', async () => {
    const out = await runExec({ command: ['head', '-c', '3000000', '/dev/zero'] }, never, { root });
    const results = out.results as { stdout: string; stdoutTruncated?: boolean; stderrTruncated?: boolean };
    expect(out.status).toBe('done');
    expect([results.stdout.length, results.stdoutTruncated, results.stderrTruncated]).toEqual([
      1024 * 1024,
      true,
      undefined,
    ]);
  });

  it('a variable the system refuses fails the job instead of throwing at the program', async () => {
    const out = await runExec({ command: ['true'], env: { 'BAD\0NAME': 'x' } }, never, { root });
    expect(out.status).toBe('failed');
    expect(out.error).toEqual(expect.any(String));
  });
});

describe('http.batch', () => {
  let server: Server;
  let port: number;
  const seen: { host?: string; path?: string; authorization?: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ host: req.headers.host?.split(':')[0], path: req.url, authorization: req.headers.authorization });
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (to) {
        res.writeHead(302, { location: to.replace('PORT', String(port)) });
        res.end();
        return;
      }
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());
  const policy = { capabilities: ['http'], networkMode: 'allowlist' as const, hosts: ['a.localhost', 'b.localhost'] };

  it('follows a redirect to an allowed host without the credentials; one to another host is refused and reported', async () => {
    seen.length = 0;
    const headers = { authorization: 'Bearer job-secret', 'x-trace': 't1' };
    const out = await runHttpBatch(
      {
        requests: [
          { url: `http://a.localhost:${port}/same?to=/landed`, headers },
          { url: `http://a.localhost:${port}/cross?to=http://b.localhost:PORT/landed`, headers },
          { url: `http://a.localhost:${port}/away?to=http://c.localhost:PORT/secret` },
        ],
      },
      policy,
      never,
    );
    expect(seen).toEqual([
      { host: 'a.localhost', path: '/same?to=/landed', authorization: 'Bearer job-secret' },
      { host: 'a.localhost', path: '/landed', authorization: 'Bearer job-secret' },
      { host: 'a.localhost', path: '/cross?to=http://b.localhost:PORT/landed', authorization: 'Bearer job-secret' },
      { host: 'b.localhost', path: '/landed', authorization: undefined },
      { host: 'a.localhost', path: '/away?to=http://c.localhost:PORT/secret', authorization: undefined },
    ]);
    expect(out.refusedHosts).toEqual(['c.localhost']);
    expect(out).toMatchObject({ status: 'failed', error: '1 of 3 requests failed.' });
    expect((out.results as { responses: unknown[] }).responses[2]).toEqual({
      url: `http://a.localhost:${port}/away?to=http://c.localhost:PORT/secret`,
      error: "c.localhost is not in this device's allowlist.",
    });
  });

  it('a redirect to something that is no URL fails that request, not the program', async () => {
    const out = await runHttpBatch(
      { requests: [{ url: `http://a.localhost:${port}/x?to=${encodeURIComponent('http://[bad')}` }] },
      policy,
      never,
    );
    expect(out.status).toBe('failed');
    expect((out.results as { responses: { error: string }[] }).responses[0]?.error).toContain('which is not a URL');
  });
});

it('browser.batch on a device without a browser fails the job, saying so', async () => {
  const out = await runBrowserBatch(
    { pages: [{ url: 'http://a.localhost/' }] },
    { capabilities: ['browser'], hosts: [] },
    never,
    null,
  );
  expect(out).toEqual({ status: 'failed', error: 'No browser on this device.', results: null, refusedHosts: [] });
});
