import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, platform as osPlatform } from 'node:os';
import { dirname, join } from 'node:path';
import { runBrowserBatch } from './browser';
import { platformCall, send } from './net';
import { type Outcome, type Policy, runExec, runHttpBatch } from './runners';

/**
 * `npm run agent -- login [--url <base>] [--name <name>] [--allow-exec] [--allow-browser]` and
 * `npm run agent -- run [--allow-exec] [--once]`: the self-hosted agent program, as GitHub Actions runners and Buildkite
 * agents serve jobs. `login` is the device login (RFC 8628): it shows a code for a person of the
 * organization to approve (the capabilities it asks for, `http` and what `--allow-…` adds, are
 * granted with the approval), then keeps the device token in `$XDG_CONFIG_HOME/platform/agent.json`
 * (mode 0600). `run` polls, runs the job it is given (`http.batch`; `exec` only with
 * `--allow-exec`; `browser.batch` in a Chromium it finds, AGENT_CHROMIUM or the system's), heartbeats, stops on
 * cancel, uploads the results and completes; hosts its allowlist refused become network requests.
 */
const VERSION = '0.1.0';
const HEARTBEAT_MS = Number(process.env.AGENT_HEARTBEAT_MS ?? 30_000);

interface AgentConfig {
  baseUrl: string;
  token: string;
  deviceId: string;
  orgId: string;
}

const configFile = () =>
  join(process.env.XDG_CONFIG_HOME || join(process.env.HOME || homedir(), '.config'), 'platform', 'agent.json');
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const option = (args: string[], name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

async function login(args: string[]): Promise<number> {
  const baseUrl = option(args, '--url') ?? process.env.PLATFORM_URL ?? 'http://localhost:3000';
  const name = option(args, '--name') ?? `${osPlatform()} agent`;
  // What the device asks to run: the approval grants it (the approver owns the device).
  const capabilities = [
    'http',
    ...(args.includes('--allow-browser') ? ['browser'] : []),
    ...(args.includes('--allow-exec') ? ['exec'] : []),
  ];
  const start = await platformCall<{
    deviceCode: string;
    userCode: string;
    verificationUriComplete: string;
    interval: number;
  }>(baseUrl, undefined, 'POST', '/v1/agent/login', { name, platform: osPlatform(), version: VERSION, capabilities });
  if (start.status !== 200) throw new Error(`The platform refused the login (${start.status}).`);
  say(`To approve this device, open ${start.body.verificationUriComplete}`);
  say(
    `or, on the local platform's machine (its folder, its DATA_DIR): npm run local -- agent approve ${start.body.userCode}`,
  );
  say(`code: ${start.body.userCode}${capabilities.length > 1 ? ` (asks for ${capabilities.join(', ')} jobs)` : ''}`);
  let interval = start.body.interval * 1000;
  for (;;) {
    await sleep(Number(process.env.AGENT_LOGIN_POLL_MS ?? interval));
    const answer = await platformCall<{ error?: string; token?: string; deviceId?: string; orgId?: string }>(
      baseUrl,
      undefined,
      'POST',
      '/v1/agent/login/token',
      { deviceCode: start.body.deviceCode },
    );
    if (answer.body?.token) {
      const file = configFile();
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const config: AgentConfig = {
        baseUrl,
        token: answer.body.token,
        deviceId: answer.body.deviceId as string,
        orgId: answer.body.orgId as string,
      };
      writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
      const exec = capabilities.includes('exec') ? ' --allow-exec' : '';
      say(`Approved: device ${config.deviceId}. Start it with: npm run agent -- run${exec}`);
      return 0;
    }
    if (answer.body?.error === 'slow_down') interval += 5000;
    else if (answer.body?.error !== 'authorization_pending') {
      say(`The login ended: ${answer.body?.error ?? answer.status}.`);
      return 1;
    }
  }
}

interface PolledJob {
  jobId: string;
  type: 'http.batch' | 'exec' | 'browser.batch';
  input: unknown;
  uploadUrl: string;
}

async function run(args: string[]): Promise<number> {
  if (!existsSync(configFile())) throw new Error('No device token: run `npm run agent -- login` first.');
  const config = JSON.parse(readFileSync(configFile(), 'utf8')) as AgentConfig;
  const allowExec = args.includes('--allow-exec');
  const once = args.includes('--once');
  const call = <T>(method: string, path: string, body?: unknown) =>
    platformCall<T>(config.baseUrl, config.token, method, path, body);
  let stopping = false;
  process.once('SIGTERM', () => {
    stopping = true;
  });
  say(`Device ${config.deviceId} polling ${config.baseUrl}${allowExec ? ' (exec allowed)' : ''}.`);
  const retryMs = Number(process.env.AGENT_RETRY_MS ?? 5000);
  let warned = false;
  while (!stopping) {
    let polled: { status: number; body: { policy: Policy; job: PolledJob | null; nextPollMs: number } };
    try {
      polled = await call('POST', '/v1/agent/poll', { version: VERSION, platform: osPlatform() });
    } catch (err) {
      // The platform restarting, the network gone: the program waits and asks again.
      say(`The platform did not answer (${(err as Error).message}); asking again in ${retryMs / 1000} s.`);
      await sleep(retryMs);
      continue;
    }
    if (polled.status === 401) {
      say('The device token was refused: the device was revoked.');
      return 1;
    }
    if (polled.status !== 200) {
      await sleep(retryMs);
      continue;
    }
    const { policy, job, nextPollMs } = polled.body;
    if (allowExec && !warned && !policy.capabilities.includes('exec')) {
      // The platform gives exec jobs only to devices with the capability: say how to get it, once.
      warned = true;
      say(
        `This device may not run exec jobs on the platform (capabilities: ${policy.capabilities.join(', ')}). ` +
          `Its owner adds it: platform agent device set ${config.deviceId} --capabilities ${[...policy.capabilities, 'exec'].join(',')}`,
      );
    }
    if (job) {
      // A job the platform could not be told about ends there as a silent device's does.
      await serve(job, policy, allowExec, call).catch((err: Error) => say(`job ${job.jobId}: ${err.message}`));
    }
    if (once && job) return 0;
    // After a job, ask again at once: there may be more.
    if (!job) await sleep(Number(process.env.AGENT_POLL_MS ?? nextPollMs));
  }
  return 0;
}

type Call = <T>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T }>;

/** One job: run, heartbeats meanwhile (a cancel stops it), results uploaded, the end reported. */
async function serve(job: PolledJob, policy: Policy, allowExec: boolean, call: Call): Promise<void> {
  say(`job ${job.jobId} (${job.type})`);
  const abort = new AbortController();
  const beats = setInterval(() => {
    void call<{ cancel?: boolean }>('POST', `/v1/agent/jobs/${job.jobId}/heartbeat`, {}).then(
      (res) => {
        if (res.body?.cancel) abort.abort();
      },
      () => undefined,
    );
  }, HEARTBEAT_MS);
  let outcome: Outcome;
  try {
    // Whatever a runner throws fails this job, not the program.
    if (job.type === 'http.batch') {
      outcome = await runHttpBatch(job.input as Parameters<typeof runHttpBatch>[0], policy, abort.signal);
    } else if (job.type === 'browser.batch') {
      outcome = await runBrowserBatch(job.input as Parameters<typeof runBrowserBatch>[0], policy, abort.signal);
    } else if (allowExec) {
      outcome = await runExec(job.input as Parameters<typeof runExec>[0], abort.signal);
    } else {
      const why = 'exec is not allowed on this device: start it with --allow-exec.';
      outcome = { status: 'failed', error: why, results: null, refusedHosts: [] };
    }
  } catch (err) {
    outcome = { status: 'failed', error: (err as Error).message, results: null, refusedHosts: [] };
  } finally {
    clearInterval(beats);
  }
  for (const host of outcome.refusedHosts) {
    await call('POST', '/v1/agent/network-requests', { host, reason: `Job ${job.jobId}` });
  }
  if (outcome.results !== null) {
    const uploaded = await send(new URL(job.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(outcome.results),
    }).catch((err: Error) => ({ status: 0, error: err.message }));
    if (uploaded.status !== 200) say(`results of ${job.jobId} not uploaded (${uploaded.status})`);
  }
  await call('POST', `/v1/agent/jobs/${job.jobId}/complete`, {
    status: outcome.status,
    ...(outcome.error ? { error: outcome.error.slice(0, 2000) } : {}),
  });
  say(`job ${job.jobId} ${abort.signal.aborted ? 'canceled' : outcome.status}`);
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'login') return login(rest);
  if (command === 'run') return run(rest);
  say(
    'Usage: npm run agent -- login [--url <base>] [--name <name>] [--allow-exec] [--allow-browser] | run [--allow-exec] [--once]',
  );
  return command === undefined || command === 'help' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  },
);
