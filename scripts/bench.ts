import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { routeGroups } from '../lib/route-groups';
import { buildRef, compareAgainst, renderAgainst } from './bench/against';
import { benchAgents, renderAgents } from './bench/agents';
import { benchAudit, renderAudit } from './bench/audit';
import { bareName, buildBare } from './bench/bare';
import { AGAINST_MARKERS, readBlock, renderSummary, SUMMARY_MARKERS, writeBlock } from './bench/blocks';
import { benchCalendar, renderCalendar } from './bench/calendar';
import { benchCli, renderCli } from './bench/cli';
import { coldPair, firstAnswerTime, firstRequests } from './bench/cold';
import { benchConnectors, renderConnectors } from './bench/connectors';
import { benchContacts, renderContacts } from './bench/contacts';
import { benchDatabaseQuery, renderDatabaseQuery } from './bench/databases';
import { benchDeployments, renderDeployments } from './bench/deployments';
import { benchDomains, renderDomains } from './bench/domains';
import { benchGit, renderGit } from './bench/git';
import { benchIdempotency, renderIdempotency } from './bench/idempotency';
import { benchMail, renderMail } from './bench/mail';
import { benchNotifications, renderNotifications } from './bench/notifications';
import { benchPages, renderPages } from './bench/pages';
import { type BenchPlatform, startBenchPlatform } from './bench/platform';
import { benchPulls, renderPulls } from './bench/pulls';
import { type Figures, type FunctionFigures, renderReport } from './bench/report';
import { countRoundTrips } from './bench/roundtrips';
import { benchTracker, renderTracker } from './bench/tracker';
import { measureWarm } from './bench/warm';
import { benchWeb, renderWeb } from './bench/web';
import { type Bundle, buildEach, ROOT } from './build';

/**
 * `npm run bench [-- --write]`: bundle size, cold init, warm latency and DynamoDB round trips of
 * every function of lib/route-groups.ts, each against a bare handler with the same AWS SDK
 * clients (the goals are in DESIGN.md, "Performance"). Prints a markdown report; `--write` puts
 * it between the bench markers of docs/benchmarks.md and its summary between the summary markers of
 * README.md; `--summary` writes that summary again from docs/benchmarks.md, measuring nothing;
 * `--against <ref>` measures only the start bytes and cold starts of every function side by side
 * with another commit's (scripts/bench/against.ts), into its own block of docs/benchmarks.md with `--write`.
 * Fixed counts, loopback only: about 8 minutes on 2 cores, most of it the git section (100 MB
 * pushes, imports and clones) and the preview builds.
 */

/**
 * Cold-init runs per function: 15, fewer (never under 7) once the table grows, so the whole bench
 * stays short on a 2-core machine.
 */
const coldRunsFor = (functions: number) => Math.max(11, Math.min(15, Math.floor(120 / Math.max(1, functions))));
const WARMUP = 50;
const RUNS = 300;
/** The bench never runs longer than this, whatever hangs. */
const DEADLINE_MS = 15 * 60_000;

// Set before any SDK client exists: the SDK reads it when its first client is created.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

let platform: BenchPlatform | undefined;

async function main(): Promise<void> {
  const write = process.argv.includes('--write');
  const started = Date.now();
  const loadAtStart = loadavg()[0] ?? 0;

  say(`bundling ${routeGroups.length} function(s) and their bare handlers`);
  // A function that does not bundle is reported and fails the run, but the others are measured.
  const results = await buildEach();
  const failed = results.flatMap((r) => ('error' in r ? [{ name: r.group.name, error: r.error }] : []));
  const bares = new Map<string, Promise<Bundle>>();
  const functions: FunctionFigures[] = [];
  for (const r of results) {
    if (!('bundle' in r)) continue;
    const name = bareName(r.group.needs);
    if (!bares.has(name)) bares.set(name, buildBare(r.group.needs));
    functions.push({
      group: r.group,
      bundle: r.bundle,
      bare: await (bares.get(name) as Promise<Bundle>),
      cold: { bundle: [], bare: [] },
      first: [],
    });
  }

  const coldRuns = coldRunsFor(functions.length);
  const against = process.argv[process.argv.indexOf('--against') + 1];
  if (process.argv.includes('--against')) {
    if (!against) throw new Error('--against needs a commit: npm run bench -- --against <ref>');
    say(`building ${against}'s functions in a worktree of its own`);
    const ref = buildRef(against);
    try {
      const firsts = await firstRequests(functions.map((f) => f.group.name));
      const rows = await compareAgainst(
        ref.root,
        results.flatMap((r) => ('bundle' in r ? [r.bundle] : [])),
        firsts,
        coldRuns,
        say,
      );
      const stamp = `Measured ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} on Node ${process.version}, ${cpus().length} cores, load average ${loadAtStart.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}, with \`npm run bench -- --against ${against}${write ? ' --write' : ''}\`.`;
      const report = `${stamp}\n\n${renderAgainst(against, coldRuns, rows)}`;
      process.stdout.write(report);
      if (write) writeBlock(REPORT_FILE, report, AGAINST_MARKERS);
    } finally {
      ref.remove();
    }
    return;
  }
  // Cold init is judged against one floor for all: a bare handler with the DynamoDB client alone
  // (the other clients a function needs load with its first route that needs them).
  const floor = await buildBare(['table']);
  const firsts = await firstRequests(functions.map((f) => f.group.name));
  for (const f of functions) {
    say(`cold init of ${f.group.name}: ${coldRuns} fresh processes each, alternating with ${floor.name}`);
    const times = await coldPair(f.bundle.outfile, floor.outfile, coldRuns);
    f.cold = { bundle: times.a, bare: times.b };
    const event = firsts[f.group.name];
    for (let i = 0; i < coldRuns; i++) f.first.push(await firstAnswerTime(f.bundle.outfile, event));
  }

  say('starting DynamoDB Local, the identity provider and a seeded organization');
  platform = await startBenchPlatform();
  say(`warm latency: ${WARMUP} warm-up + ${RUNS} measured rounds`);
  const warm = await measureWarm(platform, WARMUP, RUNS);
  say('counting DynamoDB round trips');
  const roundTrips = await countRoundTrips(platform);
  const sections: string[] = [];
  // The databases function's own figure (scripts/bench/databases.ts), once its groups exist.
  if (['resources', 'databases'].every((name) => routeGroups.some((g) => g.name === name))) {
    say('query page latency of the databases function');
    sections.push(
      `**Query page latency** of the databases function\n\n${renderDatabaseQuery(await benchDatabaseQuery(platform))}`,
    );
  }
  // Deployments (scripts/bench/deployments.ts): upload to ready, cached vs uncached install.
  if (routeGroups.some((g) => g.name === 'deployments')) {
    say('deployments: upload to ready of the static fixture, cached vs uncached install');
    sections.push(`**Deployments**\n\n${renderDeployments(await benchDeployments(platform))}`);
  }
  // Git over HTTP (scripts/bench/git.ts): clone and push through the platform vs git's own transport.
  if (routeGroups.some((g) => g.name === 'repos')) {
    say(
      'git: clone of a 2,000-commit fixture and a 1 MB push, through the platform and directly; platform repo push, import and clone of 10 and 100 MB',
    );
    sections.push(`**Git over HTTP**\n\n${renderGit(await benchGit(platform))}`);
  }
  // Pull requests (scripts/bench/pulls.ts): a merge and a files page through the API vs git itself.
  if (routeGroups.some((g) => g.name === 'pulls')) {
    say('pull requests: a three-way merge and a files page, through the API and with git');
    sections.push(`**Pull requests**\n\n${renderPulls(await benchPulls(platform))}`);
  }
  // Agents (scripts/bench/agents.ts): the poll that claims vs its bare Query and UpdateItem.
  if (routeGroups.some((g) => g.name === 'agent-device')) {
    say('agents: a poll that claims a job, through the API and bare');
    sections.push(`**Agents**\n\n${renderAgents(await benchAgents(platform))}`);
  }
  // Connectors (scripts/bench/connectors.ts): test through the API vs the MCP SDK's connect and listTools.
  if (routeGroups.some((g) => g.name === 'connectors')) {
    say('connectors: test of a server-everything connector, through the API and with the MCP SDK');
    sections.push(`**Connectors**\n\n${renderConnectors(await benchConnectors(platform))}`);
  }
  // The command line (scripts/bench/cli.ts): platform --help from the bundle, a fresh process each run.
  say('command line: platform --help, a fresh process each run');
  sections.push(`**Command line start**\n\n${renderCli(benchCli())}`);
  // Idempotency keys (scripts/bench/idempotency.ts): a create vs its replay.
  say('idempotency: a create with a fresh key vs the same request replayed');
  sections.push(`**Idempotency keys**\n\n${renderIdempotency(await benchIdempotency(platform))}`);
  // The audit log (scripts/bench/audit.ts): a write with its audit entry vs auditing off.
  say('audit: a page title change with its audit entry vs auditing off');
  sections.push(`**Audit log**\n\n${renderAudit(await benchAudit(platform))}`);
  // Notifications (scripts/bench/notifications.ts): a page of notices vs GET org; local timer lateness.
  if (routeGroups.some((g) => g.name === 'notifications')) {
    say('notifications: a page of notices vs GET /v1/orgs/:orgId, and the local scheduler lateness');
    sections.push(`**Notifications**\n\n${renderNotifications(await benchNotifications(platform))}`);
  }
  // Pages (scripts/bench/pages.ts): search page 1 over 10,000 pages vs over 100.
  if (routeGroups.some((g) => g.name === 'pages')) {
    say('pages: search page 1 over 10,000 pages vs over 100');
    sections.push(`**Pages**\n\n${renderPages(await benchPages(platform))}`);
  }
  // Domains (scripts/bench/domains.ts): a static page by custom domain vs deployment host vs a bare file server.
  if (routeGroups.some((g) => g.name === 'domains')) {
    say('domains: a static page through the edge by custom domain and by deployment host, and from a bare file server');
    sections.push(`**Domains**\n\n${renderDomains(await benchDomains(platform))}`);
  }
  // Mail (scripts/bench/mail.ts): INBOX page 1 over 10,000 threads vs 100; ingest per message vs parse.
  if (routeGroups.some((g) => g.name === 'mail')) {
    say('mail: INBOX page 1 over 10,000 threads vs 100, and ingest per message vs its parse');
    sections.push(`**Mail**\n\n${renderMail(await benchMail(platform))}`);
  }
  // Contacts (scripts/bench/contacts.ts): q page 1 over 10,000 contacts vs 100.
  if (routeGroups.some((g) => g.name === 'contacts')) {
    say('contacts: q page 1 over 10,000 contacts vs 100');
    sections.push(`**Contacts**\n\n${renderContacts(await benchContacts(platform))}`);
  }
  // Calendar (scripts/bench/calendar.ts): GET …/events over 400 days of 100 weekly series vs ical.js alone.
  if (routeGroups.some((g) => g.name === 'calendar')) {
    say('calendar: the occurrences of 400 days of 100 weekly series, through the API and by ical.js alone');
    sections.push(`**Calendar**\n\n${renderCalendar(await benchCalendar(platform))}`);
  }
  // Tracker (scripts/bench/tracker.ts): space-and-status search over 10,000 issues vs 100; rank 200 vs 1.
  if (routeGroups.some((g) => g.name === 'tracker')) {
    say('tracker: space-and-status search page 1 over 10,000 issues vs 100, and rank 200 issues vs 1');
    sections.push(`**Issue tracking**\n\n${renderTracker(await benchTracker(platform))}`);
  }
  // The web app (scripts/bench/web.ts): first-load JavaScript, Lighthouse on the projects page and a
  // pull request, signed in; without web/dist it says so and measures nothing.
  say('web app: first-load JavaScript, Lighthouse (mobile and desktop) on the projects page and a pull request');
  sections.push(`**Web app**\n\n${renderWeb(await benchWeb(platform, say))}`);
  await platform.stop();
  platform = undefined;

  const figures: Figures = {
    date: new Date(),
    node: process.version,
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    load: [loadAtStart, loadavg()[0] ?? 0],
    command: write ? 'npm run bench -- --write' : 'npm run bench',
    coldRuns,
    functions,
    failed,
    warm,
    roundTrips,
    sections,
    elapsedMs: Date.now() - started,
  };
  const report = renderReport(figures);
  process.stdout.write(report);
  if (write) writeReport(report);
  if (failed.length > 0) throw new Error(`not measured, the bundle failed: ${failed.map((f) => f.name).join(', ')}`);
}

const REPORT_FILE = join(ROOT, 'docs', 'benchmarks.md');
const README = join(ROOT, 'README.md');

/** The full report into docs/benchmarks.md, its summary into README.md. */
function writeReport(report: string): void {
  writeBlock(REPORT_FILE, report);
  writeBlock(README, renderSummary(report), SUMMARY_MARKERS);
  say('docs/benchmarks.md bench block and README.md bench summary updated');
}

async function stop(code: number): Promise<never> {
  // Stopping DynamoDB Local is what matters; its launcher also kills it on exit.
  await platform?.stop().catch(() => undefined);
  process.exit(code);
}

if (require.main === module && process.argv.includes('--load')) {
  // The load across every group (scripts/load.ts), with the arguments after `--load`.
  const rest = process.argv.slice(process.argv.indexOf('--load') + 1);
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'load.ts'), ...rest], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
} else if (require.main === module && process.argv.includes('--summary')) {
  // The README's summary from the report already in docs/benchmarks.md: nothing is measured.
  writeBlock(README, renderSummary(readBlock(REPORT_FILE)), SUMMARY_MARKERS);
  say('README.md bench summary written from docs/benchmarks.md');
} else if (require.main === module) {
  setTimeout(() => {
    say(`gave up after ${DEADLINE_MS / 1000} s`);
    void stop(1);
  }, DEADLINE_MS).unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(130));
  main()
    .then(() => stop(0))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      return stop(1);
    });
}
