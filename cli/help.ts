import { COMMAND_TABLE } from './commands';
import { type CommandSpec, GLOBAL_OPTIONS, type OptionSpec } from './spec';

/**
 * The command line's usage texts, made from the command table: the overview (`platform --help`),
 * each command's own with its options and examples (`platform deploy --help`, `platform help
 * deploy`) and each group's (`platform env --help`). A usage mistake prints the usage of the
 * command it was made in.
 */

const keyOf = (c: CommandSpec) => c.path.join(' ');
const visible = () => COMMAND_TABLE.filter((c) => !c.hidden);

const optionWord = (name: string, o: OptionSpec) =>
  o.type === 'string' ? `--${name} ${o.value ?? 'VALUE'}` : `--${name}`;

/** `env set <KEY> [VALUE] --project P [--target …] [--plain] [--json]`. */
export function usageOf(c: CommandSpec): string {
  const words = [...c.path];
  for (const p of c.positionals ?? []) words.push(p.required ? `<${p.name}>` : `[${p.name}]`);
  for (const [name, o] of Object.entries(c.options ?? {})) {
    const word = optionWord(name, o);
    words.push(o.required ? word : `[${word}]`);
  }
  if (!c.raw) words.push('[--json]');
  return words.join(' ');
}

/** Every command by its words: its usage line, summary and details (the tests read these). */
export const COMMANDS: Record<string, { usage: string; summary: string; details?: string }> = Object.fromEntries(
  visible().map((c) => [keyOf(c), { usage: usageOf(c), summary: c.summary, details: c.details }]),
);

/** The command an argv names, and how many of its words name it (aliases included). */
export function findCommand(argv: string[]): { command: CommandSpec; words: number } | undefined {
  let best: { command: CommandSpec; words: number } | undefined;
  for (const command of COMMAND_TABLE) {
    const n = command.path.length;
    if (argv.length < n || (best && best.words >= n)) continue;
    const matches = command.path.every((word, i) =>
      i === n - 1 ? argv[i] === word || (command.aliases ?? []).includes(argv[i] as string) : argv[i] === word,
    );
    if (matches) best = { command, words: n };
  }
  return best;
}

/** The commands of a group (`env`), when the word names one. */
export const groupOf = (word: string) => visible().filter((c) => c.path.length > 1 && c.path[0] === word);

/** The words that may come first (no group: commands, their aliases and groups), or after a group's name. */
export function wordsOf(group?: string): string[] {
  const words = visible()
    .filter((c) => (group ? c.path[0] === group && c.path.length > 1 : true))
    .flatMap((c) => (group ? [c.path.slice(1).join(' '), ...(c.aliases ?? [])] : [c.path[0] as string]));
  return [...new Set(words)];
}

/** Edits from one word to another (a swap of two neighbours counts one, as in `deplyo`). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const up = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + same);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The known word nearest to a mistyped one, when it is near enough to be meant (or starts the same). */
export function nearest(word: string, known: string[]): string | undefined {
  let best: { word: string; d: number } | undefined;
  for (const k of known) {
    const d = k.startsWith(word) && word.length >= 3 ? 0.5 : distance(word.toLowerCase(), k);
    if (!best || d < best.d) best = { word: k, d };
  }
  return best && best.d <= Math.max(1, Math.min(2, Math.floor(word.length / 3))) ? best.word : undefined;
}

/** The command (or group) a command line is about: `env set` for `env set KEY --plain`; undefined for none. */
export function topicOf(argv: string[]): string | undefined {
  const found = findCommand(argv);
  if (found) return keyOf(found.command);
  const first = argv[0];
  return first !== undefined && groupOf(first).length > 0 ? first : undefined;
}

const ENV_NOTE =
  'The config file is $XDG_CONFIG_HOME/platform/config.json (default ~/.config); PLATFORM_URL, PLATFORM_TOKEN,\n' +
  'PLATFORM_ORG, PLATFORM_PROJECT and PLATFORM_PROFILE override it; a folder linked with platform link gives\n' +
  '--org and --project their defaults.';

const WIDTH = 32;

function line(c: CommandSpec): string {
  const usage = usageOf(c);
  const indent = ' '.repeat(WIDTH + 2);
  const text = c.summary.split('\n').join(`\n${indent}`);
  return usage.length < WIDTH ? `  ${usage.padEnd(WIDTH)}${text}` : `  ${usage}\n${indent}${text}`;
}

function optionLines(options: Record<string, OptionSpec>): string {
  const rows = Object.entries(options).map(([name, o]) => [
    `${o.short ? `-${o.short}, ` : ''}${optionWord(name, o)}`,
    o.help,
  ]);
  const width = Math.max(...rows.map(([w]) => (w as string).length)) + 2;
  return rows.map(([w, h]) => `  ${(w as string).padEnd(width)}${h}`).join('\n');
}

/** What each group is about, in the overview. */
const GROUPS: Record<string, string> = {
  profile: 'the profiles of the config file (a local platform, a deployed stack…)',
  projects: "the organization's projects and their settings",
  deployments: 'deployments: list them, inspect one',
  env: "a project's environment variables",
  repo: 'repositories: create, clone, view, rename, protect, delete',
  key: 'git credentials: passwords for git over HTTPS',
  auth: "git's credential helper for the platform's git URLs",
  member: "the organization's members",
  pr: 'pull requests: open from the current branch, review, merge, check out',
  issue: "a repository's issues",
  db: 'databases: items, queries and scans with filters, indexes',
  bucket: 'buckets: copy files up and down, list, delete, settings',
  domain: 'custom domains and the DNS records they need',
  notify: 'your notifications',
  agent: 'agent devices and jobs; network requests to approve',
  connector: 'MCP connectors',
  webhook: 'webhook endpoints: events sent to your URLs, signed; deliveries',
  track: 'the issue tracker: spaces, issues searched with JQL, sprints, import and export',
  cal: 'your calendars: the agenda, events and invitations, .ics import and export',
  dav: 'app passwords for calendar and contacts programs (CalDAV, CardDAV)',
  mail: 'mail domains and mailboxes; threads: list, read, send, reply, forward',
  page: "the organization's pages (Markdown): list, create, view, edit from a file, history, restore a version",
  org: 'organizations: create, list; members, invitations and API keys',
};

/** What a group is about (the overview's line and the group's own --help). */
export const groupSummary = (group: string) => GROUPS[group];

/** A group's line: `env <ls|set|rm|pull>`. */
export const groupUsage = (group: string) =>
  `${group} <${groupOf(group)
    .map((c) => c.path.slice(1).join(' '))
    .join('|')}>`;

function groupLine(group: string): string {
  const usage = groupUsage(group);
  const text = GROUPS[group] ?? '';
  return usage.length < WIDTH ? `  ${usage.padEnd(WIDTH)}${text}` : `  ${usage}\n${' '.repeat(WIDTH + 2)}${text}`;
}

const overview = () => {
  const single = visible().filter((c) => c.path.length === 1);
  const groups = [
    ...new Set(
      visible()
        .filter((c) => c.path.length > 1)
        .map((c) => c.path[0] as string),
    ),
  ];
  return `Usage: platform <command> [options]

Commands:
${single.map(line).join('\n')}

Command groups (platform <group> --help lists a group's commands):
${groups.map(groupLine).join('\n')}

Options of every command:
${optionLines(GLOBAL_OPTIONS)}

Each command's own usage: platform <command> --help. The version: platform --version (-V).
${ENV_NOTE}
`;
};

function commandHelp(c: CommandSpec): string {
  const parts = [`Usage: platform ${usageOf(c)}\n`];
  const summary = c.summary;
  parts.push(`\n${summary.charAt(0).toUpperCase()}${summary.slice(1)}.${c.details ? `\n${c.details}` : ''}\n`);
  const args = (c.positionals ?? []).filter((p) => p.help);
  if (args.length) parts.push(`\nArguments:\n${args.map((p) => `  ${p.name}  ${p.help}`).join('\n')}\n`);
  if (c.options && Object.keys(c.options).length) parts.push(`\nOptions:\n${optionLines(c.options)}\n`);
  parts.push(`\nOptions of every command: --json, --org ORG, --profile NAME, --help.\n`);
  if (c.examples?.length) parts.push(`\nExamples:\n${c.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  return parts.join('');
}

/** The usage text of a topic (a command or a group), or the overview. */
export function helpOf(topic: string | undefined): string {
  const command = topic ? COMMAND_TABLE.find((c) => keyOf(c) === topic) : undefined;
  if (command) return commandHelp(command);
  const group = topic ? groupOf(topic) : [];
  if (topic && group.length) {
    const subs = group.map((c) => c.path.slice(1).join(' ')).join('|');
    const about = GROUPS[topic] ? `${GROUPS[topic].charAt(0).toUpperCase()}${GROUPS[topic].slice(1)}.\n\n` : '';
    return `Usage: platform ${topic} <${subs}> [options]\n\n${about}${group.map(line).join('\n')}\n\nEach command's own usage: platform ${topic} <command> --help.\n`;
  }
  return overview();
}

/** The arguments a command requires, as its usage names them (`<deploymentId>`). */
export const requiredArguments = (topic: string) =>
  (COMMAND_TABLE.find((c) => keyOf(c) === topic)?.positionals ?? [])
    .filter((p) => p.required)
    .map((p) => `<${p.name}>`);
