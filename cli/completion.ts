import { readConfigFile } from './config';
import { type Io, listProjects, openSession } from './context';
import { git, repoNameOf } from './groups/common';
import { type CommandSpec, type Completion, GLOBAL_OPTIONS, type OptionSpec } from './spec';

/**
 * Shell completion, made from the command table: `platform completion bash|zsh|fish` prints a
 * script holding the command words; everything after them (options, their values, arguments) is
 * asked of the hidden `platform __complete <words…>`, which answers from the table and, for
 * organization, project, repository, branch, tracker space and mailbox names, from the API.
 */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const visible = (table: CommandSpec[]) => table.filter((c) => !c.hidden);

/** The words that may follow `prefix` (command words only). */
function nextWords(table: CommandSpec[], prefix: string[]): string[] {
  const words = new Set<string>();
  for (const c of visible(table)) {
    if (c.path.length <= prefix.length) continue;
    if (prefix.every((w, i) => c.path[i] === w)) words.add(c.path[prefix.length] as string);
  }
  return [...words];
}

/** The command named by the leading words, and how many words name it. */
function commandOf(table: CommandSpec[], words: string[]): { command: CommandSpec; n: number } | undefined {
  let best: { command: CommandSpec; n: number } | undefined;
  for (const c of table) {
    const n = c.path.length;
    if (words.length < n || (best && best.n >= n)) continue;
    if (c.path.every((w, i) => words[i] === w || (i === n - 1 && (c.aliases ?? []).includes(words[i] as string)))) {
      best = { command: c, n };
    }
  }
  return best;
}

/** A dynamic or fixed list of values. */
async function valuesOf(kind: Completion | undefined, io: Io, given: Record<string, string>): Promise<string[]> {
  if (!kind || kind === 'file') return [];
  if (Array.isArray(kind)) return [...kind];
  if (kind === 'profile') return Object.keys(readConfigFile(io.env).profiles);
  const s = await openSession(io, { profile: given.profile, org: given.org });
  switch (kind) {
    case 'org': {
      const { me } = await s.api.getMe();
      return me.orgs.map((o) => o.slug);
    }
    case 'project':
      return (await listProjects(s)).map((p) => p.slug);
    case 'repo': {
      const { repos } = await s.api.getRepos({ orgId: s.config.orgId });
      return repos.map((r) => r.name);
    }
    case 'branch': {
      // The repository named on the line, else the one origin points to here.
      const origin = given.repo
        ? undefined
        : await git({ io }, io.cwd, ['remote', 'get-url', 'origin']).catch(() => undefined);
      const repo = given.repo ?? (origin ? repoNameOf(origin) : undefined);
      if (!repo) return [];
      const { branches } = await s.api.getReposBranches({ orgId: s.config.orgId, name: repo });
      return branches.map((b) => b.name);
    }
    case 'space': {
      const { spaces } = await s.api.getIssuesSpaces({ orgId: s.config.orgId });
      return spaces.map((k) => k.key);
    }
    case 'mailbox': {
      const { mailboxes } = await s.api.getMailMailboxes({ orgId: s.config.orgId });
      return mailboxes.map((m) => m.address);
    }
    default:
      return [];
  }
}

/**
 * What may come in place of the last word of `words` (the words typed after `platform`, the last
 * one being the one completed, possibly empty).
 */
export async function completeWords(table: CommandSpec[], words: string[], io: Io): Promise<string[]> {
  const done = words.slice(0, -1);
  const current = words.at(-1) ?? '';
  const starts = (list: string[]) => list.filter((w) => w.startsWith(current));
  const found = commandOf(table, done);
  if (!found) return starts(nextWords(table, done));
  const { command, n } = found;
  const options: Record<string, OptionSpec> = { ...GLOBAL_OPTIONS, ...command.options };
  // What is given so far: option values and arguments (for a branch, the repository named).
  const given: Record<string, string> = {};
  const args: string[] = [];
  for (let i = n; i < done.length; i++) {
    const w = done[i] as string;
    if (w.startsWith('--')) {
      const o = options[w.slice(2)];
      if (o?.type === 'string' && i + 1 < done.length) given[w.slice(2)] = done[++i] as string;
    } else args.push(w);
  }
  const positionals = command.positionals ?? [];
  positionals.forEach((p, i) => {
    if (args[i] !== undefined && p.complete === 'repo') given.repo ??= args[i];
  });
  const previous = done.length > n ? done.at(-1) : undefined;
  if (previous?.startsWith('--')) {
    const o = options[previous.slice(2)];
    if (o?.type === 'string') return starts(await valuesOf(o.complete, io, given));
  }
  if (current.startsWith('-')) return starts(Object.keys(options).map((name) => `--${name}`));
  const positional = positionals[args.length];
  return starts(await valuesOf(positional?.complete, io, given));
}

const quote = (words: string[]) => words.join(' ');

function bash(table: CommandSpec[]): string {
  const top = nextWords(table, []);
  const groups = [
    ...new Set(
      visible(table)
        .filter((c) => c.path.length > 1)
        .map((c) => c.path[0] as string),
    ),
  ];
  const cases = groups.map((g) => `    ${g}) words="${quote(nextWords(table, [g]))}" ;;`).join('\n');
  return `# bash completion for platform (generated by: platform completion bash)
_platform() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words=""
  if [[ $COMP_CWORD -eq 1 ]]; then
    words="${quote(top)}"
  elif [[ $COMP_CWORD -eq 2 ]]; then
    case "\${COMP_WORDS[1]}" in
${cases}
    esac
  fi
  if [[ -z "$words" ]]; then
    words="$(platform __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)"
    if [[ -z "$words" ]]; then
      compopt -o default 2>/dev/null
      COMPREPLY=()
      return 0
    fi
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _platform platform
`;
}

function zsh(table: CommandSpec[]): string {
  const top = visible(table)
    .filter((c) => c.path.length === 1)
    .map((c) => `'${c.path[0]}:${c.summary.split('\n')[0]?.replace(/'/g, '')}'`);
  const groups = [
    ...new Set(
      visible(table)
        .filter((c) => c.path.length > 1)
        .map((c) => c.path[0] as string),
    ),
  ];
  return `#compdef platform
# zsh completion for platform (generated by: platform completion zsh)
_platform() {
  local -a commands groups candidates
  commands=(${top.join(' ')})
  groups=(${groups.join(' ')})
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    compadd -- \${groups[@]}
    return
  fi
  candidates=("\${(@f)$(platform __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ -n "\${candidates[1]}" ]]; then
    compadd -- \${candidates[@]}
  else
    _files
  fi
}
compdef _platform platform
`;
}

function fish(table: CommandSpec[]): string {
  const top = nextWords(table, []);
  return `# fish completion for platform (generated by: platform completion fish)
function __platform_complete
  # The words before the cursor, then the one being typed (quoted: it may be empty).
  set -l words (commandline -opc)
  set -l current (commandline -ct)
  platform __complete $words[2..-1] "$current" 2>/dev/null
end
complete -c platform -f
complete -c platform -n '__fish_use_subcommand' -a '${quote(top)}'
complete -c platform -n 'not __fish_use_subcommand' -a '(__platform_complete)'
`;
}

export function completionScript(shell: Shell, table: CommandSpec[]): string {
  return shell === 'bash' ? bash(table) : shell === 'zsh' ? zsh(table) : fish(table);
}
