import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type FaultProxy, WIRE_SERVICES } from '../lib/local/faults';
import { routeGroups } from '../lib/route-groups';
import { git } from './bench/git';
import { startMailIn } from './bench/mail';
import { type BenchPlatform, startBenchPlatform } from './bench/platform';
import { median, percentile } from './bench/stats';

/**
 * `npm run load -- --seconds 60 [--faults 0.05] [--clients 100] [--dynamo-on-disk] [--write]`: the local platform (the
 * bench's: DynamoDB Local, the S3 server, the SQS endpoint, the SMTP server, the workers, the local
 * gateway), one seeded organization, then `--clients` clients at once over every route group of
 * lib/route-groups.ts (reads and writes) and mail in over SMTP, for `--seconds` (or `--minutes`).
 * With `--faults R`, every DynamoDB, S3 and SQS call fails at rate R the way AWS fails (throttling,
 * internal errors, unavailable), after the seeding. Every acknowledged write is read back at the
 * end. Prints a markdown report; a hard deadline ends the run whatever hangs.
 */

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const seconds = Number(arg('seconds') ?? (arg('minutes') ? Number(arg('minutes')) * 60 : 60));
const faultRate = Number(arg('faults') ?? 0);
const clients = Number(arg('clients') ?? 100);
const say = (line: string) => process.stderr.write(`load: ${line}\n`);

interface GroupFigures {
  latencies: number[];
  statuses: Record<number, number>;
  noRetryAfter: number;
  samples: Record<string, string>;
}
const figures = new Map<string, GroupFigures>();
/** Latencies by group and method (a group's reads and writes apart), for where the time goes. */
const byMethod = new Map<string, number[]>();

/** One answered call (or SMTP session, or git command): its time and status, by group and by method. */
function recordCall(group: string, method: string, ms: number, status: number): GroupFigures {
  const f = groupOf(group);
  f.latencies.push(ms);
  f.statuses[status] = (f.statuses[status] ?? 0) + 1;
  const key = `${group} ${method}`;
  const list = byMethod.get(key) ?? [];
  list.push(ms);
  byMethod.set(key, list);
  return f;
}
const groupOf = (name: string) => {
  let f = figures.get(name);
  if (!f) {
    f = { latencies: [], statuses: {}, noRetryAfter: 0, samples: {} };
    figures.set(name, f);
  }
  return f;
};

/** RSS in MB of this process and every process below it (DynamoDB Local's java, …), from /proc. */
function rssMb(): { total: number; processes: Record<string, number> } {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const pid = Number(entry);
      parents.set(pid, Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0));
      names.set(pid, /Name:\s+(\S+)/.exec(status)?.[1] ?? '?');
      rss.set(pid, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const ours = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents)
      if (!ours.has(pid) && ours.has(ppid)) {
        ours.add(pid);
        grew = true;
      }
  }
  const processes: Record<string, number> = {};
  for (const pid of ours) {
    const name = pid === process.pid ? 'node (platform + load)' : (names.get(pid) ?? '?');
    // git's processes (the clients' and the git endpoint's) live for one clone or push: counting
    // them would measure how many run at that instant, not whether the platform keeps memory.
    if (name.startsWith('git')) continue;
    processes[name] = (processes[name] ?? 0) + (rss.get(pid) ?? 0);
  }
  return { total: Object.values(processes).reduce((a, b) => a + b, 0), processes };
}

/** Memory samples kept compactly: at most MAX_SAMPLES, halved (every other one dropped) when full. */
const MAX_SAMPLES = 240;
interface Sample {
  at: number;
  total: number;
  processes: Record<string, number>;
}

/**
 * After warm-up: a sixth of the run, at most 5 minutes. V8 grows its heap and DynamoDB Local's JVM
 * commits its own (up to -Xmx) while the load ramps up; whether memory stays flat is judged after.
 */
const warmUpMs = (ranMs: number) => Math.min(300_000, ranMs / 6);

/**
 * The node process's retained heap: heapUsed right after a full collection, in MB. RSS rises and
 * falls with V8's garbage (a sawtooth of 100 MB under this load); what is still reachable after a
 * collection is what a leak would grow.
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
function retainedHeapMb(): number {
  collect();
  return process.memoryUsage().heapUsed / 1e6;
}

/** Stops whatever main has started so far (the deadline and signals use it too). */
let stopAll = async () => {};

async function main(): Promise<string> {
  const proxies: FaultProxy[] = [];
  const { startFaultProxy } = await import('../lib/local/faults');
  const platform: BenchPlatform = await startBenchPlatform(
    async (service, endpoint) => {
      if (faultRate <= 0) return endpoint;
      const proxy = await startFaultProxy(service, endpoint);
      proxies.push(proxy);
      return proxy.endpoint;
    },
    { dynamoOnDisk: process.argv.includes('--dynamo-on-disk') },
  );
  const stops: (() => Promise<void> | void)[] = [() => platform.stop()];
  stopAll = async () => {
    for (const s of stops.splice(0).reverse()) await Promise.resolve(s()).catch(() => undefined);
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-load-'));
  stops.push(() => rmSync(dataDir, { recursive: true, force: true }));
  try {
    const env = process.env;
    env.ARTIFACTS_BUCKET = `load-${randomBytes(4).toString('hex')}`;
    // Environment variables are sealed with the local master key, as under `npm start`.
    env.LOCAL_SECRETS_KEY = randomBytes(32).toString('base64');
    env.OUTBOX_DIR = join(dataDir, 'outbox');
    const [{ storage }, { createGateway, listen }, { addDomain }, { createMailbox }] = await Promise.all([
      import('../shared/ports/object-storage'),
      import('../lib/local/gateway'),
      import('../shared/domains/mail/domains'),
      import('../shared/domains/mail/admin'),
    ]);
    await storage().createBucket(env.ARTIFACTS_BUCKET);
    // Mail in: the SMTP server and its worker (the other workers need the secrets and build
    // environment of `npm start`).
    const smtp = await startMailIn(stops);
    const gateway = createGateway();
    const port = await listen(gateway, 0);
    stops.push(() => {
      gateway.closeAllConnections();
      gateway.close();
    });
    const base = `http://127.0.0.1:${port}`;
    const org = `/v1/orgs/${platform.orgId}`;

    const call = async (group: string, method: string, path: string, body?: unknown, token = platform.jwt) => {
      const t = performance.now();
      let status = 0;
      let json: Record<string, unknown> = {};
      try {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        status = res.status;
        const text = await res.text();
        // A JSON object is an answer's body; anything else (a raw file, even one whose bytes parse as
        // JSON, as the hex `0e12…` does: a number) is kept as text.
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        json =
          typeof parsed === 'object' && parsed !== null
            ? (parsed as Record<string, unknown>)
            : { text: text.slice(0, 200) };
        const failed = status >= 500 || status === 429;
        if (faultRate > 0 && failed && (![429, 502, 503].includes(status) || !res.headers.get('retry-after')))
          groupOf(group).noRetryAfter++;
      } catch (err) {
        status = 0;
        json = { error: err instanceof Error ? err.message : String(err) };
        // No answer at all is a failure without Retry-After too.
        if (faultRate > 0) groupOf(group).noRetryAfter++;
      }
      const f = recordCall(group, method, performance.now() - t, status);
      if (status >= 400 || status === 0)
        f.samples[`${status} ${method} ${path}`] ??= JSON.stringify(json).slice(0, 200);
      return { status, body: json };
    };
    const must = async (group: string, method: string, path: string, body?: unknown) => {
      const res = await call(group, method, path, body);
      if (res.status >= 300 || res.status === 0)
        throw new Error(`seed: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      return res.body as Record<string, Record<string, string>>;
    };

    say('seeding');
    const suffix = randomBytes(3).toString('hex');
    const project = (await must('projects', 'POST', `${org}/projects`, { name: 'Load', slug: `load-${suffix}` }))
      .project as Record<string, string>;
    const projectId = project.projectId as string;
    const spaceKey = `L${suffix.toUpperCase()}`.replace(/[^A-Z]/g, 'X').slice(0, 6);
    await must('tracker', 'POST', `${org}/issues/spaces`, { key: spaceKey, name: 'Load', template: 'basic' });
    const domain = `load-${suffix}.test`;
    await addDomain(platform.orgId, domain);
    const mailbox = await createMailbox(platform.orgId, {
      address: `inbox@${domain}`,
      name: 'inbox',
      members: [platform.userId],
      kind: 'personal',
    });
    const mbx = `${org}/mail/mailboxes/${mailbox.mailboxId}`;
    const book = (await must('contacts', 'POST', `${mbx}/address-books`, { name: 'Load' })).addressBook
      ?.addressBookId as string;
    const repoName = `load-${suffix}`;
    const repo = await call('repos', 'POST', `${org}/repos`, { name: repoName });
    if (repo.status >= 300) say(`repository not made (${repo.status} ${JSON.stringify(repo.body).slice(0, 200)})`);
    // Git's own client over the platform's git endpoint: a first commit on main, pushed now; the
    // run clones it and pushes a commit to a branch of its own (scripts/bench/git.ts's `git`).
    const home = join(dataDir, 'home');
    mkdirSync(home);
    const gitUrl = String((repo.body.repo as { cloneUrl?: string } | undefined)?.cloneUrl).replace(
      '://',
      `://git:${platform.apiKey}@`,
    );
    const seed = join(dataDir, 'seed');
    await git(dataDir, home, ['init', '-q', '-b', 'main', seed]);
    writeFileSync(join(seed, 'README.md'), 'Load\n');
    await git(seed, home, ['add', '.']);
    await git(seed, home, ['commit', '-q', '-m', 'First']);
    await git(seed, home, ['push', '-q', gitUrl, 'main']);
    // An agent device, logged in as `npm run agent` logs in, that polls, claims and completes jobs.
    const { startLogin, answerLogin, loginToken } = await import('../shared/domains/agents/devices');
    const login = await startLogin({ name: 'load' });
    await answerLogin(platform.orgId, { userId: platform.userId, name: 'Load' }, login.userCode, true);
    const device = await loginToken(login.deviceCode);
    if (!('token' in device)) throw new Error(`load device login: ${device.error}`);
    // The platform organization, as the local seed makes it, with the load's owner as its owner: the
    // platform group's routes answer operators only.
    const { createOrg, addMember } = await import('../shared/kernel/identity/orgs');
    const operators = await createOrg({ slug: 'platform', name: 'Platform', kind: 'platform' });
    await addMember(operators.orgId, platform.ownerEmail, 'owner', 'Bench owner');
    // Seeding never meets faults; the run does.
    for (const proxy of proxies)
      proxy.set(
        WIRE_SERVICES.flatMap((service) => [
          { service, operation: '*', fault: 'throttle' as const, rate: faultRate / 3 },
          { service, operation: '*', fault: 'internal' as const, rate: faultRate / 3 },
          { service, operation: '*', fault: 'unavailable' as const, rate: faultRate / 3 },
        ]),
      );
    figures.clear();

    /** Every acknowledged write: how to read it back and what it must hold. */
    const written: { group: string; path: string; check: (body: Record<string, unknown>) => boolean }[] = [];
    const field = (body: Record<string, unknown>, key: string, name: string) =>
      (body[key] as Record<string, unknown> | undefined)?.[name];

    const reads: [string, string][] = [
      ['core', '/v1/me'],
      ['orgs', `${org}`],
      ['orgs', `${org}/members`],
      ['resources', `${org}/resources`],
      ['databases', `${org}/databases`],
      ['storage', `${org}/storage`],
      ['projects', `${org}/projects`],
      ['projects', `${org}/projects/${projectId}`],
      ['env', `${org}/projects/${projectId}/env`],
      ['deployments', `${org}/deployments`],
      ['repos', `${org}/repos`],
      ['repo-issues', `${org}/repos/${repoName}/issues`],
      ['pulls', `${org}/repos/${repoName}/pulls`],
      ['agents', `${org}/agents`],
      ['connectors', `${org}/connectors`],
      ['signin-clients', `${org}/projects/${projectId}/oauth-clients`],
      ['webhooks', `${org}/webhooks`],
      ['notifications', '/v1/me/notifications'],
      ['domains', `${org}/domains`],
      ['pages', `${org}/pages`],
      ['insights', `${org}/audit`],
      ['mail', `${org}/mail/mailboxes`],
      ['mail', `${mbx}/threads?limit=50`],
      ['platform', '/v1/platform/regions'],
      ['contacts', `${mbx}/address-books`],
      ['calendar', `${mbx}/calendars`],
      ['tracker', `${org}/issues?jql=${encodeURIComponent(`space = ${spaceKey} AND status = "To Do"`)}`],
    ];
    /** A git command timed as a call of the `git` group (0 when it failed: no answer of its own). */
    const gitTimed = async (method: string, cwd: string, args: string[]) => {
      const t = performance.now();
      let status = 200;
      try {
        await git(cwd, home, args);
      } catch (err) {
        status = 0;
        groupOf('git').samples[`0 ${method}`] ??= String(err).slice(0, 200);
        if (faultRate > 0) groupOf('git').noRetryAfter++;
      }
      recordCall('git', method, performance.now() - t, status);
      return status === 200;
    };
    const gitRound = async () => {
      // A clone, a commit on a branch of its own, its push; the branch's file is read back at the end.
      const work = mkdtempSync(join(dataDir, 'clone-'));
      try {
        if (!(await gitTimed('clone', dataDir, ['clone', '-q', '--depth', '1', gitUrl, work]))) return;
        const branch = `load-${randomBytes(4).toString('hex')}`;
        const content = randomBytes(8).toString('hex');
        writeFileSync(join(work, 'load.txt'), content);
        await git(work, home, ['add', '.']);
        await git(work, home, ['commit', '-q', '-m', branch]);
        if (await gitTimed('push', work, ['push', '-q', gitUrl, `HEAD:refs/heads/${branch}`]))
          written.push({
            group: 'git',
            path: `${org}/repos/${repoName}/contents/raw?ref=${branch}&path=load.txt`,
            check: (b) => b.text === content,
          });
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    };
    /**
     * Creates answered 201 with the text they were given, each read back at the end: `record` is
     * the answer's key, `id` its field the record is read back by, `text` the field that holds the text.
     */
    const creates: {
      group: string;
      path: string;
      body: (text: string) => Record<string, unknown>;
      record: string;
      id: string;
      text: string;
      read: (id: unknown) => string;
    }[] = [
      {
        group: 'tracker',
        path: `${org}/issues`,
        body: (summary) => ({ space: spaceKey, summary }),
        record: 'issue',
        id: 'key',
        text: 'summary',
        read: (key) => `${org}/issues/${key}`,
      },
      {
        group: 'pages',
        path: `${org}/pages`,
        body: (title) => ({ title }),
        record: 'page',
        id: 'pageId',
        text: 'title',
        read: (id) => `${org}/pages/${id}`,
      },
      {
        group: 'contacts',
        path: `${mbx}/address-books/${book}/contacts`,
        body: (fullName) => ({ fullName }),
        record: 'contact',
        id: 'contactId',
        text: 'fullName',
        read: (id) => `${mbx}/address-books/${book}/contacts/${id}`,
      },
      {
        group: 'repo-issues',
        path: `${org}/repos/${repoName}/issues`,
        body: (title) => ({ title }),
        record: 'issue',
        id: 'number',
        text: 'title',
        read: (n) => `${org}/repos/${repoName}/issues/${n}`,
      },
    ];
    const writes: (() => Promise<void>)[] = [
      ...creates.map((c) => async () => {
        const text = `Load ${randomBytes(4).toString('hex')}`;
        const res = await call(c.group, 'POST', c.path, c.body(text));
        const id = field(res.body, c.record, c.id);
        if (res.status === 201 && id !== undefined)
          written.push({ group: c.group, path: c.read(id), check: (b) => field(b, c.record, c.text) === text });
      }),
      async () => {
        const res = await call('agents', 'POST', `${org}/agents/jobs`, {
          type: 'http.batch',
          label: 'load',
          input: { requests: [{ method: 'GET', url: 'https://api.example.com/v1/items' }] },
        });
        const id = res.body.jobId ?? field(res.body, 'job', 'jobId');
        if (res.status === 201 && id)
          written.push({
            group: 'agents',
            path: `${org}/agents/jobs/${id}`,
            check: (b) => field(b, 'job', 'jobId') === id,
          });
      },
      async () => {
        const polled = await call('agent-device', 'POST', '/v1/agent/poll', {}, device.token);
        const id = field(polled.body, 'job', 'jobId');
        if (polled.status !== 200 || !id) return;
        const done = await call(
          'agent-device',
          'POST',
          `/v1/agent/jobs/${id}/complete`,
          { status: 'done' },
          device.token,
        );
        if (done.status === 200)
          written.push({
            group: 'agent-device',
            path: `${org}/agents/jobs/${id}`,
            check: (b) => field(b, 'job', 'status') === 'done',
          });
      },
    ];

    // Mail in over SMTP: an accepted message is an acknowledged write; its thread is looked for at the end.
    const { createTransport } = await import('nodemailer');
    const smtpClient = createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
      pool: true,
    });
    stops.push(() => smtpClient.close());
    const mailed: string[] = [];
    const sendMail = async () => {
      const subject = `Load ${randomBytes(4).toString('hex')}`;
      const t = performance.now();
      let status = 250;
      try {
        await smtpClient.sendMail({
          from: 'sender@outside.example',
          to: mailbox.address,
          subject,
          text: 'Load test message.',
        });
        mailed.push(subject);
      } catch {
        status = 554;
      }
      recordCall('smtp (mail in)', 'SEND', performance.now() - t, status);
    };

    const samples: Sample[] = [];
    const sample = () => {
      const m = rssMb();
      samples.push({ at: performance.now(), ...m });
      if (samples.length >= MAX_SAMPLES) for (let i = samples.length - 2; i > 0; i -= 2) samples.splice(i, 1);
    };
    sample();
    const sampler = setInterval(sample, 5_000);
    stops.push(() => clearInterval(sampler));
    const retained: { warm?: number; end?: number } = {};
    const warmTimer = setTimeout(
      () => {
        retained.warm = retainedHeapMb();
      },
      warmUpMs(seconds * 1000),
    );
    stops.push(() => clearTimeout(warmTimer));

    say(`${clients} clients for ${seconds} s${faultRate > 0 ? `, faults at ${faultRate}` : ''}`);
    const started = performance.now();
    const end = started + seconds * 1000;
    const client = async (i: number) => {
      let n = i;
      while (performance.now() < end) {
        n++;
        const r = n % 10;
        if (r < 6) {
          const [group, path] = reads[Math.floor(Math.random() * reads.length)] as [string, string];
          await call(group, 'GET', path);
        } else if (r < 9) await (writes[Math.floor(Math.random() * writes.length)] as () => Promise<void>)();
        else if (i % 4 === 0) await sendMail();
        // Git's own client, a quarter of the clients one round in ten: a clone and a push spawn git
        // on both sides (the local platform's git endpoint runs git itself), far heavier than a call.
        else if (i % 4 === 1) await gitRound();
        else {
          const [group, path] = reads[Math.floor(Math.random() * reads.length)] as [string, string];
          await call(group, 'GET', path);
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
    const ranMs = performance.now() - started;
    sample();
    clearInterval(sampler);
    retained.end = retainedHeapMb();

    for (const proxy of proxies) proxy.set([]);
    const injected = proxies.reduce((a, p) => a + Object.values(p.injected).reduce((x, y) => x + y, 0), 0);
    say(`reading back ${written.length} writes`);
    const lost: string[] = [];
    const readFigures = new Map(figures);
    const methods = new Map([...byMethod].filter(([k]) => !k.startsWith('readback')));
    for (let i = 0; i < written.length; i += 20) {
      await Promise.all(
        written.slice(i, i + 20).map(async (w) => {
          const res = await call(`readback ${w.group}`, 'GET', w.path);
          if (res.status !== 200 || !w.check(res.body)) lost.push(`${w.path} ${res.status}`);
        }),
      );
    }
    // Mail: wait (bounded) until the worker has filed every accepted message.
    const countThreads = async () => {
      let count = 0;
      let cursor: string | null = null;
      do {
        const res = await call(
          'readback mail',
          'GET',
          `${mbx}/threads?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        if (res.status !== 200) return count;
        count += (res.body.threads as unknown[]).length;
        cursor = res.body.cursor as string | null;
      } while (cursor);
      return count;
    };
    let filed = 0;
    for (let t = 0; t < 30; t++) {
      filed = await countThreads();
      if (filed >= mailed.length) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    return render({
      readFigures,
      methods,
      samples,
      retained,
      ranMs,
      written: written.length,
      lost,
      mailed: mailed.length,
      filed,
      injected,
      load: loadavg(),
    });
  } finally {
    await stopAll();
  }
}

function render(r: {
  readFigures: Map<string, GroupFigures>;
  methods: Map<string, number[]>;
  samples: Sample[];
  retained: { warm?: number; end?: number };
  ranMs: number;
  written: number;
  lost: string[];
  mailed: number;
  filed: number;
  injected: number;
  load: number[];
}): string {
  const fmt = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(1));
  const lines = [
    `Load: ${clients} clients for ${Math.round(r.ranMs / 1000)} s over ${routeGroups.length} route groups${faultRate > 0 ? `, faults at ${faultRate * 100} % of DynamoDB, S3 and SQS calls (${r.injected} injected)` : ''}; DynamoDB Local ${process.argv.includes('--dynamo-on-disk') ? 'on disk, as `npm start` runs it' : 'in memory'}; load average ${r.load.map((l) => l.toFixed(1)).join(' / ')} at the end.`,
    '',
    '| Group | Requests | p50 ms | p99 ms | p99/p50 | Errors by status | 5xx | 500 |',
    '|---|---:|---:|---:|---:|---|---:|---:|',
  ];
  let total = 0;
  let fiveXX = 0;
  let fiveHundred = 0;
  let noRetry = 0;
  let tailMissed: string[] = [];
  const all: number[] = [];
  const missingGroups = routeGroups.map((g) => g.name).filter((n) => !r.readFigures.has(n));
  for (const [name, f] of [...r.readFigures].sort(([a], [b]) => a.localeCompare(b))) {
    const count = f.latencies.length;
    const p50 = percentile(f.latencies, 50);
    const p99 = percentile(f.latencies, 99);
    const errors = Object.entries(f.statuses).filter(([s]) => Number(s) >= 400 || Number(s) === 0);
    const g5 = errors.filter(([s]) => Number(s) >= 500).reduce((a, [, c]) => a + c, 0);
    const g500 = f.statuses[500] ?? 0;
    total += count;
    fiveXX += g5;
    fiveHundred += g500;
    noRetry += f.noRetryAfter;
    all.push(...f.latencies);
    if (!name.startsWith('readback') && p99 > 3 * p50) tailMissed.push(name);
    lines.push(
      `| ${name} | ${count} | ${fmt(p50)} | ${fmt(p99)} | ${(p99 / p50).toFixed(1)}× | ${errors.map(([s, c]) => `${s === '0' ? 'no answer' : s}: ${c}`).join(', ') || '–'} | ${g5} | ${g500} |`,
    );
  }
  tailMissed = tailMissed.sort();
  // Flat or not: the median RSS of the sixth of the run right after warm-up against that of the last
  // sixth (single samples ride V8's sawtooth).
  const t0 = r.samples[0]?.at ?? 0;
  const warmAt = t0 + warmUpMs(r.ranMs);
  const span = r.ranMs / 6;
  const windowMedian = (from: number, to: number) =>
    median(r.samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.total));
  const early = windowMedian(warmAt, warmAt + span);
  const late = windowMedian(t0 + r.ranMs - span, t0 + r.ranMs);
  const drift = ((late - early) / early) * 100;
  const first = r.samples[0];
  const warm = r.samples.find((s) => s.at >= warmAt);
  const last = r.samples[r.samples.length - 1];
  const mem = (s: Sample | undefined) =>
    s
      ? `${s.total.toFixed(0)} MB (${Object.entries(s.processes)
          .map(([n, v]) => `${n} ${v.toFixed(0)}`)
          .join(', ')})`
      : '–';
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  lines.push(
    `| **all** | ${total} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | | | ${fiveXX} | ${fiveHundred} |`,
    '',
    `Acknowledged writes read back: ${r.written} (lost: ${r.lost.length}${r.lost.length ? `: ${r.lost.slice(0, 5).join('; ')}` : ''}); messages accepted over SMTP: ${r.mailed}, threads filed in the mailbox at the end: ${r.filed}.`,
    `Memory (RSS of the platform's processes, ${r.samples.length} samples): start ${mem(first)}; after warm-up (${Math.round(warmUpMs(r.ranMs) / 1000)} s) ${mem(warm)}; end ${mem(last)}. Median RSS of the sixth of the run after warm-up ${early.toFixed(0)} MB, of the last sixth ${late.toFixed(0)} MB: drift ${drift.toFixed(1)} %. Node's retained heap (after a full collection): ${r.retained.warm?.toFixed(0) ?? '–'} MB after warm-up, ${r.retained.end?.toFixed(0) ?? '–'} MB at the end.`,
    ...(missingGroups.length ? [`Groups not reached: ${missingGroups.join(', ')}.`] : []),
    '',
    '| Goal | Result |',
    '|---|---|',
    faultRate > 0
      ? `| 0 500s with faults; every failure 429/502/503 with Retry-After | ${fiveHundred} 500s, ${noRetry} failures otherwise: ${met(fiveHundred === 0 && noRetry === 0)} |`
      : `| 0 5xx | ${fiveXX}: ${met(fiveXX === 0)} |`,
    `| 0 lost writes | ${r.lost.length}: ${met(r.lost.length === 0)} |`,
    `| Memory flat within 10 % after warm-up | ${drift.toFixed(1)} %: ${met(Math.abs(drift) <= 10)} |`,
    `| p99 ≤ 3× p50 per group | ${tailMissed.length ? `missed by ${tailMissed.join(', ')}` : 'met'}: ${met(tailMissed.length === 0)} |`,
  );
  // Where the time goes: each group's reads and writes apart, slowest first by p50.
  const slowest = [...r.methods]
    .map(([k, v]) => ({ k, n: v.length, p50: percentile(v, 50), p99: percentile(v, 99) }))
    .sort((a, b) => b.p50 - a.p50)
    .slice(0, 8);
  lines.push(
    '',
    "Slowest by p50 (a group's calls by method):",
    '',
    '| Group and method | Requests | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    ...slowest.map((x) => `| ${x.k} | ${x.n} | ${fmt(x.p50)} | ${fmt(x.p99)} |`),
  );
  const samplesOf = [...r.readFigures].flatMap(([, f]) => Object.entries(f.samples)).slice(0, 12);
  if (samplesOf.length)
    lines.push('', 'First error of each kind:', '', ...samplesOf.map(([k, v]) => `- \`${k}\` → \`${v}\``));
  return `${lines.join('\n')}\n`;
}

/** The run never lasts longer than half as long again and five minutes (seeding, read-back), whatever hangs. */
const deadline = setTimeout(
  () => {
    say('hard deadline passed: stopping');
    void stopAll().finally(() => process.exit(2));
  },
  // Seeding and the read-back grow with the run: a 30-minute soak acknowledged 10,000 writes, whose
  // read-back took longer than five minutes.
  (seconds * 1.5 + 300) * 1000,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void stopAll().finally(() => process.exit(130)));
main()
  .then(async (report) => {
    process.stdout.write(report);
    if (process.argv.includes('--write')) {
      const { loadKind, writeLoad } = await import('./load/write');
      writeLoad(report, loadKind(seconds, faultRate));
    }
    clearTimeout(deadline);
    process.exit(0);
  })
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
