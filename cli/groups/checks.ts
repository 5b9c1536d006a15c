import type { Client } from '../../client';
import type { CheckRun, RequiredCheck } from '../../client/operations';
import { sleep, UsageError } from '../context';
import { table } from '../output';
import type { CommandSpec, Ctx } from '../spec';
import { currentBranch, numberArg, REPO, repoOf } from './common';

/** `pr checks`: the check runs of a pull request's head, once or redrawn until they are done (`--watch`). */

/** Wait between two reads with `--watch` (ms; the Io's pollMs in tests). */
const WATCH_MS = 2000;

type ChecksPage = Awaited<ReturnType<Client['getReposPullsChecks']>>;

/** Every check of the head (all pages). */
async function readChecks(api: Client, orgId: string, name: string, number: string) {
  const first = await api.getReposPullsChecks({ orgId, name, number, limit: 100 });
  const checks: CheckRun[] = [...first.checks];
  for (let cursor = first.cursor; cursor; ) {
    const next: ChecksPage = await api.getReposPullsChecks({ orgId, name, number, limit: 100, cursor });
    checks.push(...next.checks);
    cursor = next.cursor;
  }
  return { ...first, checks, cursor: null };
}

/** The open pull request from the branch checked out. */
async function pullOfBranch(c: Ctx, api: Client, orgId: string, name: string): Promise<string> {
  const branch = await currentBranch(c);
  if (!branch) throw new UsageError('Name the pull request: platform pr checks <number> (or run it on its branch).');
  for (let cursor: string | undefined; ; ) {
    const page = await api.getReposPulls({ orgId, name, state: 'open', limit: 100, ...(cursor ? { cursor } : {}) });
    const pull = page.pulls.find((p) => p.sourceBranch === branch);
    if (pull) return String(pull.number);
    if (!page.cursor) throw new UsageError(`No open pull request from ${branch}: name its number.`);
    cursor = page.cursor;
  }
}

/** `--require-check` NAME or NAME@platform, NAME@key:ID, NAME@agent:ID: a required check, bound to its writer or not. */
export function requiredCheckArg(v: string): RequiredCheck {
  const m = /^(.+)@(platform|key:(key_\w+)|agent:(key_\w+))$/.exec(v);
  if (!m?.[1]) return v;
  const source = m[3] ? { apiKey: m[3] } : m[4] ? { agentKey: m[4] } : ('platform' as const);
  return { name: m[1], source };
}

export const checkName = (r: RequiredCheck) => (typeof r === 'string' ? r : r.name);

/** A required check in words: `build (platform)`, `lint (API key key_…)`. */
export function shownRequired(r: RequiredCheck): string {
  if (typeof r === 'string') return r;
  const s = r.source;
  const from = s === 'platform' ? 'platform' : 'apiKey' in s ? `API key ${s.apiKey}` : `agent key ${s.agentKey}`;
  return `${r.name} (${from})`;
}

const FAILED = new Set(['failure', 'cancelled']);
const RUNNING = new Set(['queued', 'in_progress']);

/** The table: one row per check, then the required ones not reported yet. */
function render(c: Ctx, number: string, res: ChecksPage): string {
  const s = res.summary;
  const head = res.head ? res.head.slice(0, 7) : 'no head';
  const title = `#${number} at ${head}: ${s.state} (${s.counts.success} of ${s.total} succeeded)`;
  // A required check counts only from the writer it is bound to: one of that name from another is not it.
  const counted = new Set(res.requiredStatus.flatMap((r) => (r.checkId ? [r.checkId] : [])));
  const missing = res.requiredStatus.filter((r) => r.state === 'missing');
  if (res.checks.length === 0 && missing.length === 0) return `${title}\nNo checks reported.`;
  const rows = [
    ['NAME', 'STATE', 'SUMMARY', 'URL'],
    ...res.checks.map((ch) => [
      counted.has(ch.checkId) ? `${ch.name} (required)` : ch.name,
      ch.state,
      (ch.summary ?? '').split('\n')[0] ?? '',
      ch.detailsUrl ?? '-',
    ]),
    ...missing.map((m) => [
      `${shownRequired(m.source ? { name: m.name, source: m.source } : m.name)} (required)`,
      'expected',
      m.reportedBy ? 'only another writer reported it' : 'not reported yet',
      '-',
    ]),
  ];
  return `${title}\n${table(rows, c.io, [0, 1, 3]).replace(/\n$/, '')}`;
}

export const CHECK_COMMANDS: CommandSpec[] = [
  {
    path: ['pr', 'checks'],
    summary: "the checks of a pull request's head: name, state, summary, URL (exit 1 when one failed)",
    details:
      'Without a number, the open pull request of the branch checked out. --watch reads them again every\n' +
      'two seconds, redrawing the table, until none is queued or in progress; the exit code is 1 when one\n' +
      'failed or was cancelled, else 0. Checks required by branch protection and not reported yet (by the\n' +
      'writer a required check is bound to, when it is) show as `expected`.',
    positionals: [{ name: 'number' }],
    options: {
      repo: REPO,
      watch: { type: 'boolean', help: 'redraw until no check is queued or in progress' },
    },
    examples: ['platform pr checks 12', 'platform pr checks --watch'],
    run: async (c) => {
      const name = await repoOf(c);
      const s = await c.session();
      const { api } = s;
      const orgId = s.config.orgId;
      const number = c.args[0] !== undefined ? numberArg(c) : await pullOfBranch(c, api, orgId, name);
      let res = await readChecks(api, orgId, name, number);
      if (c.flag('watch')) {
        let drawn = '';
        for (;;) {
          const text = render(c, number, res);
          if (!c.json && text !== drawn) {
            // On a terminal the table is drawn over the last one; elsewhere each change is printed once.
            const lines = drawn ? drawn.split('\n').length : 0;
            c.io.stdout(`${c.io.tty && lines ? `\x1b[${lines}A\x1b[J` : ''}${text}\n`);
            drawn = text;
          }
          if (!res.checks.some((ch) => RUNNING.has(ch.state))) break;
          await sleep(c.io.pollMs ?? WATCH_MS, c.io.signal);
          if (c.io.signal?.aborted) break;
          res = await readChecks(api, orgId, name, number);
        }
        if (c.json) c.print(res, () => '');
      } else c.print(res, () => render(c, number, res));
      return res.checks.some((ch) => FAILED.has(ch.state)) ? 1 : 0;
    },
  },
];
