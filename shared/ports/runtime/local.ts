import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { readEnv } from '../../kernel/ground/env';
import { freePort } from '../../kernel/net/free-port';
import { localPaths } from '../../kernel/tenancy/paths';
import { machineNetworkEnv, spawnTenant, tenantDir } from '../../kernel/tenancy/sandbox';
import {
  type DeployFunctionInput,
  FUNCTION_CONFIG,
  type FunctionRequest,
  type FunctionResponse,
  functionInfo,
  type RuntimePort,
  type TailLogLine,
} from './port';

/**
 * Server functions on one machine. A function is its app, in a tenant folder outside DATA_DIR
 * (`functions/<id>/app/`, the project's user's: shared/kernel/tenancy/sandbox.ts), and a folder of
 * the platform's, `deployments/<id>/function/`: `function.json` (entry and the variables it was
 * deployed with, which only the platform reads and hands to this function's process alone) and
 * `runtime.log` (one JSON line per log line). It runs as tenant code (its own user and process
 * group, on a leash that ends it when the platform dies),
 * started by the local edge on the first request (as a cold start), listening on `PORT`, with
 * `--max-old-space-size` at the function memory; it is stopped when idle, when the function is
 * removed, and when the platform exits (never orphaned).
 */

interface FunctionFile {
  name: string;
  projectId?: string;
  entry: string;
  env: Record<string, string>;
  createdAt: number;
}

interface Running {
  child: ChildProcess;
  port: number;
  ready: Promise<number>;
  inflight: Set<string>;
  idle?: NodeJS.Timeout;
}

interface Registry {
  running: Map<string, Running>;
  exitHook: boolean;
}

// One registry per process: the edge and the handlers import this same module.
const state: Registry = { running: new Map(), exitHook: false };

const IDLE_MS = 10 * 60_000;
const START_TIMEOUT_MS = 10_000;
const MAX_MESSAGE = 8_000;

const files = (deploymentId: string) => {
  const dir = localPaths.function(deploymentId);
  return {
    dir,
    app: localPaths.app(deploymentId),
    config: join(dir, 'function.json'),
    log: join(dir, 'runtime.log'),
  };
};

// Runtime log ---------------------------------------------------------------------------------

type Level = TailLogLine['level'];
const LEVELS = new Set<Level>(['error', 'platform', 'warn', 'info', 'debug']);
const PINO: Record<number, Level> = { 10: 'debug', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'error' };

/** A line's level: a JSON line's own `level` (names or pino numbers), else stderr is an error. */
function classify(raw: string, stream: 'stdout' | 'stderr'): { level: Level; message: string } {
  const text = raw.trimEnd();
  if (text.startsWith('{')) {
    try {
      const obj = JSON.parse(text) as { level?: unknown; msg?: unknown; message?: unknown };
      const lvl =
        typeof obj.level === 'number'
          ? PINO[obj.level]
          : typeof obj.level === 'string' && LEVELS.has(obj.level.toLowerCase() as Level)
            ? (obj.level.toLowerCase() as Level)
            : obj.level === 'fatal' || obj.level === 'trace'
              ? obj.level === 'fatal'
                ? 'error'
                : 'debug'
              : undefined;
      if (lvl) return { level: lvl === 'platform' ? 'info' : lvl, message: text };
    } catch {
      // not JSON after all
    }
  }
  if (stream === 'stderr')
    return { level: /^(\(node:\d+\) )?\w*Warning\b/.test(text) ? 'warn' : 'error', message: text };
  return { level: 'info', message: text };
}

/** Appends one line; its id is its byte offset in the log (unique and ordered). */
export function appendRuntimeLog(
  deploymentId: string,
  line: { level: Level; message: string; requestId?: string; t?: number },
): void {
  const { log } = files(deploymentId);
  if (!existsSync(join(log, '..'))) return;
  const truncated = line.message.length > MAX_MESSAGE;
  const entry: Omit<TailLogLine, 'id'> = {
    t: line.t ?? Date.now(),
    level: line.level,
    message: truncated ? line.message.slice(0, MAX_MESSAGE) : line.message,
  };
  if (line.requestId) entry.requestId = line.requestId;
  if (truncated) entry.truncated = true;
  appendFileSync(log, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}

/** The last `maxBytes` of the log, parsed, oldest first. */
async function readLogTail(deploymentId: string, maxBytes = 4 * 1024 * 1024): Promise<TailLogLine[]> {
  const { log } = files(deploymentId);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(log, 'r');
  } catch {
    return [];
  }
  try {
    const size = (await handle.stat()).size;
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    await handle.read(buf, 0, buf.length, start);
    const out: TailLogLine[] = [];
    let offset = 0;
    // A tail that starts inside a line skips to the next one.
    if (start > 0) offset = buf.indexOf(10) + 1;
    while (offset < buf.length) {
      const nl = buf.indexOf(10, offset);
      if (nl < 0) break;
      try {
        const parsed = JSON.parse(buf.subarray(offset, nl).toString('utf8')) as Omit<TailLogLine, 'id'>;
        out.push({ ...parsed, id: String(start + offset) });
      } catch {
        // a damaged line is skipped
      }
      offset = nl + 1;
    }
    return out;
  } finally {
    await handle.close();
  }
}

// Processes -----------------------------------------------------------------------------------

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until the function listens (polling its port), or fails when it exits first. */
async function waitListening(child: ChildProcess, port: number, deadline: number): Promise<void> {
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let delay = 10; ; delay = Math.min(100, delay * 2)) {
    if (exited) throw new Error('The server function exited while starting. See its runtime logs.');
    if (await accepts(port)) return;
    if (Date.now() > deadline)
      throw new Error(`The server function did not listen on PORT within ${START_TIMEOUT_MS / 1000} s.`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** The environment a function sees: an allow-list, its variables, the platform's few; never the platform's own. */
function functionEnv(fn: FunctionFile, port: number, home: string): Record<string, string> {
  return {
    ...machineNetworkEnv(),
    PATH: readEnv('PATH') ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: readEnv('LANG') ?? 'C.UTF-8',
    TZ: 'UTC',
    ...fn.env,
    NODE_ENV: fn.env.NODE_ENV ?? 'production',
    PORT: String(port),
    HOSTNAME: '127.0.0.1',
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(FUNCTION_CONFIG.memoryMb),
  };
}

function start(deploymentId: string): Running {
  const f = files(deploymentId);
  const fn = JSON.parse(readFileSync(f.config, 'utf8')) as FunctionFile;
  if (!state.exitHook) {
    state.exitHook = true;
    process.once('exit', () => {
      for (const r of state.running.values()) killGroup(r.child);
    });
  }
  const started = Date.now();
  const running = { inflight: new Set<string>() } as Running;
  running.ready = (async () => {
    const port = await freePort();
    running.port = port;
    const child = spawnTenant(process.execPath, [`--max-old-space-size=${FUNCTION_CONFIG.memoryMb}`, fn.entry], {
      cwd: f.app,
      env: functionEnv(fn, port, dirname(f.app)),
      projectId: fn.projectId ?? deploymentId,
    });
    running.child = child;
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = child[stream];
      if (!source) continue;
      createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (raw) => {
        const { level, message } = classify(raw, stream);
        // One request at a time, as a Lambda instance sees it: its lines are that request's.
        const requestId = running.inflight.size === 1 ? [...running.inflight][0] : undefined;
        appendRuntimeLog(deploymentId, { level, message, requestId });
      });
    }
    child.once('exit', (code, signal) => {
      if (state.running.get(deploymentId) === running) state.running.delete(deploymentId);
      if (running.idle) clearTimeout(running.idle);
      if (signal !== 'SIGKILL' || code !== null) {
        appendRuntimeLog(deploymentId, {
          level: 'platform',
          message: `Server function exited (${signal ?? `code ${code}`}).`,
        });
      }
    });
    await waitListening(child, port, started + START_TIMEOUT_MS);
    appendRuntimeLog(deploymentId, {
      level: 'platform',
      message: `Cold start: listening in ${Date.now() - started} ms.`,
    });
    return port;
  })();
  running.ready.catch((err: Error) => {
    appendRuntimeLog(deploymentId, { level: 'platform', message: err.message });
    if (running.child) killGroup(running.child);
    if (state.running.get(deploymentId) === running) state.running.delete(deploymentId);
  });
  state.running.set(deploymentId, running);
  return running;
}

/**
 * The port of the deployment's running function, started if needed, and the request's
 * bookkeeping: call `done` when the response ends (request ids on log lines, idle shutdown).
 */
export async function acquireFunction(
  deploymentId: string,
  requestId: string = randomUUID(),
): Promise<{ port: number; done: () => void }> {
  let running = state.running.get(deploymentId);
  if (!running || running.child?.exitCode != null) running = start(deploymentId);
  const port = await running.ready;
  const r = running;
  if (r.idle) clearTimeout(r.idle);
  r.inflight.add(requestId);
  return {
    port,
    done: () => {
      r.inflight.delete(requestId);
      if (r.inflight.size === 0) {
        r.idle = setTimeout(() => stopFunction(deploymentId), IDLE_MS);
        r.idle.unref();
      }
    },
  };
}

export function stopFunction(deploymentId: string): void {
  const running = state.running.get(deploymentId);
  if (!running) return;
  state.running.delete(deploymentId);
  if (running.idle) clearTimeout(running.idle);
  if (running.child) killGroup(running.child);
}

/** Stops every function process (the platform or a test stops). */
export function stopAllFunctions(): void {
  for (const id of [...state.running.keys()]) stopFunction(id);
}

export const hasFunction = (deploymentId: string) => existsSync(files(deploymentId).config);

/** One request to the function's process, its whole answer (as Lambda's Invoke answers), within its time limit. */
async function invokeLocal(deploymentId: string, r: FunctionRequest): Promise<FunctionResponse> {
  const fail = (status: number, text: string): FunctionResponse => ({
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    cookies: [],
    body: Buffer.from(text),
  });
  let fn: Awaited<ReturnType<typeof acquireFunction>>;
  try {
    fn = await acquireFunction(deploymentId, r.requestId);
  } catch {
    return fail(502, 'The server function failed.');
  }
  try {
    return await new Promise<FunctionResponse>((resolveAnswer) => {
      const headers = { ...r.headers, host: r.host, 'x-forwarded-host': r.host, 'x-forwarded-proto': 'https' };
      const path = r.query ? `${r.path}?${r.query}` : r.path;
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: fn.port,
          method: r.method,
          path,
          headers,
          timeout: FUNCTION_CONFIG.timeoutSeconds * 1000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const { 'set-cookie': cookies, ...rest } = res.headers;
            const flat = Object.fromEntries(
              Object.entries(rest).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
            );
            resolveAnswer({
              status: res.statusCode ?? 502,
              headers: flat,
              cookies: cookies ?? [],
              body: Buffer.concat(chunks),
            });
          });
          res.on('error', () => resolveAnswer(fail(502, 'The server function closed the connection.')));
        },
      );
      upstream.on('timeout', () => {
        upstream.destroy();
        resolveAnswer(fail(504, 'The server function took too long.'));
      });
      upstream.on('error', () => resolveAnswer(fail(502, 'The server function closed the connection.')));
      upstream.end(r.body);
    });
  } finally {
    fn.done();
  }
}

export function localRuntime(): RuntimePort {
  return {
    async deploy(input: DeployFunctionInput) {
      if (!('dir' in input.code)) throw new Error('The local runtime deploys folders');
      const f = files(input.deploymentId);
      stopFunction(input.deploymentId);
      await rm(f.dir, { recursive: true, force: true });
      await rm(dirname(f.app), { recursive: true, force: true });
      await mkdir(f.dir, { recursive: true, mode: 0o700 });
      await tenantDir('functions', input.deploymentId, input.projectId);
      await rename(input.code.dir, f.app);
      const info = functionInfo(input.deploymentId);
      const fn: FunctionFile = {
        name: info.name,
        projectId: input.projectId,
        entry: input.entry,
        env: input.env,
        createdAt: Date.now(),
      };
      // The variables are the function's configuration, as Lambda keeps them: owner-only here.
      await writeFile(f.config, JSON.stringify(fn), { mode: 0o600 });
      return info;
    },
    exists: async (deploymentId) => hasFunction(deploymentId),
    invoke: (deploymentId, request) => invokeLocal(deploymentId, request),
    async remove(deploymentId) {
      stopFunction(deploymentId);
      const f = files(deploymentId);
      await rm(f.dir, { recursive: true, force: true });
      await rm(dirname(f.app), { recursive: true, force: true });
    },
    async logs(deploymentId, query) {
      const needle = query.q?.toLowerCase();
      const all = (await readLogTail(deploymentId)).filter(
        (l) => l.t >= query.from && l.t <= query.to && (!needle || l.message.toLowerCase().includes(needle)),
      );
      const ordered = query.order === 'desc' ? all.reverse() : all;
      return { lines: ordered.slice(0, query.limit), more: ordered.length > query.limit };
    },
  };
}
