import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsonFromChild } from './child';

/**
 * Cold init: the time a fresh Node process takes to import a bundle (module evaluation, SDK
 * clients constructed at load), measured inside that process around `await import(url)`, so
 * Node's own start-up is not counted.
 */

const RUNNER = [
  'const c0 = process.cpuUsage();',
  'const t0 = performance.now();',
  'await import(process.env.BENCH_MODULE);',
  'const t1 = performance.now();',
  'const c1 = process.cpuUsage(c0);',
  'process.stdout.write(JSON.stringify({ ms: t1 - t0, cpuMs: (c1.user + c1.system) / 1000 }));',
].join('\n');

const FIRST_ANSWER_RUNNER = [
  'const c0 = process.cpuUsage();',
  'const t0 = performance.now();',
  'const m = await import(process.env.BENCH_MODULE);',
  "const r = await m.handler(JSON.parse(process.env.BENCH_EVENT), { awsRequestId: 'bench' });",
  'const t1 = performance.now();',
  'const c1 = process.cpuUsage(c0);',
  "process.stdout.write('\\n' + JSON.stringify({ ms: t1 - t0, cpuMs: (c1.user + c1.system) / 1000, status: r.statusCode }));",
].join('\n');

/** One import: wall time, and CPU time of the process (steadier when other work shares the machine). */
export interface ImportTime {
  ms: number;
  cpuMs: number;
}

/**
 * A fixed, small environment: nothing of the calling shell (NODE_OPTIONS, loaders) leaks in, and
 * the AWS SDK's Node version warning stays off.
 */
function coldEnv(module: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    AWS_REGION: 'eu-central-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    TABLE_NAME: 'platform-bench',
    AUTH_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'silent',
    BENCH_MODULE: pathToFileURL(module).href,
  };
}

/** One fresh process importing `module`; resolves with the import time in ms. */
export function importTime(module: string, timeoutMs = 20_000): Promise<ImportTime> {
  return jsonFromChild<ImportTime>(['--input-type=module', '-e', RUNNER], {
    env: coldEnv(module),
    timeoutMs,
    what: `importing ${module}`,
  });
}

/**
 * The first request of each group's cold start (scripts/bench/first-requests.ts), worked out in a
 * process of its own: loading the route modules here would fix their settings (the table's name)
 * before the bench's platform sets them.
 */
export function firstRequests(groups: string[]): Promise<Record<string, unknown>> {
  return jsonFromChild<Record<string, unknown>>(['--import', 'tsx', join(__dirname, 'first-requests.ts'), ...groups], {
    env: { PATH: process.env.PATH, AWS_REGION: 'eu-central-1', LOG_LEVEL: 'silent' },
    timeoutMs: 60_000,
    what: 'working out the first requests',
  });
}

/**
 * A cold start up to a first answer: the import, then one request without a credential
 * (`firstRequestOf`), answered 401 once the stack has loaded the route's module (shared/kernel/http/route.ts,
 * `lazyRoute`). What a route's first request adds to the init.
 */
export async function firstAnswerTime(module: string, event: unknown, timeoutMs = 20_000): Promise<ImportTime> {
  const t = await jsonFromChild<ImportTime & { status: number }>(['--input-type=module', '-e', FIRST_ANSWER_RUNNER], {
    env: { ...coldEnv(module), BENCH_EVENT: JSON.stringify(event) },
    timeoutMs,
    what: `a first answer of ${module}`,
  });
  if (t.status !== 401) throw new Error(`${module}: the first request answered ${t.status}, not 401`);
  return { ms: t.ms, cpuMs: t.cpuMs };
}

/**
 * `runs` import times of each of two modules, alternating A B B A … so that machine noise and
 * drift fall on both alike. One untimed pair first warms the file cache.
 */
export async function coldPair(a: string, b: string, runs: number): Promise<{ a: ImportTime[]; b: ImportTime[] }> {
  await importTime(a);
  await importTime(b);
  const times = { a: [] as ImportTime[], b: [] as ImportTime[] };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      times.a.push(await importTime(a));
      times.b.push(await importTime(b));
    } else {
      times.b.push(await importTime(b));
      times.a.push(await importTime(a));
    }
  }
  return times;
}
