/**
 * The command line's usage texts: the overview (`platform --help`), each command's own
 * (`platform deploy --help`, `platform help deploy`) and each group's (`platform env --help`).
 * A usage mistake prints the usage of the command it was made in.
 */
interface Command {
  usage: string;
  /** One line, in the overview. */
  summary: string;
  /** More, in the command's own help. */
  details?: string;
}

const FRAMEWORK_OPTION = '--framework static|node|nextjs';

export const COMMANDS: Record<string, Command> = {
  login: {
    usage: 'login [--url URL] [--token TOKEN|-] [--org ORG] [--local]',
    summary: 'check and store the API address, a token or API key, the organization',
    details:
      'The token is checked against GET /v1/me. --token - reads it from stdin. --org: an organization id or\n' +
      'slug (needed when the token has several). --local: the address and API key of the platform npm start\n' +
      'runs here (DATA_DIR/local.json).',
  },
  logout: { usage: 'logout', summary: 'forget them' },
  'projects list': { usage: 'projects list [--json]', summary: "the organization's projects" },
  'projects create': {
    usage: `projects create <slug> [--name N] [${FRAMEWORK_OPTION}] [--location L]`,
    summary: 'create a project',
  },
  'env ls': {
    usage: 'env ls --project P [--json]',
    summary: "a project's variables (sensitive values are never shown)",
  },
  'env set': {
    usage: 'env set <KEY> [VALUE] --project P [--target production,preview,development] [--plain]',
    summary: 'without VALUE, the value is read from stdin',
    details: 'Variables are sensitive (never readable back) unless --plain. Default targets: all three.',
  },
  'env rm': { usage: 'env rm <KEY> --project P', summary: 'delete a variable' },
  'env pull': {
    usage: 'env pull --project P [--file .env] [--target development]',
    summary: "write the target's readable variables to a dotenv file",
  },
  deploy: {
    usage: `deploy [folder] [--project P] [--prod] [--force] [${FRAMEWORK_OPTION}]`,
    summary:
      'pack, upload and build the folder (default: the current one), following the\n' +
      "build log; the project is created from the folder's name when there is none",
    details:
      '.gitignore is honoured; .git, node_modules and .env files never leave the machine. --prod deploys to\n' +
      'production (default: preview). --force builds even when nothing changed. --framework applies when\n' +
      'deploy creates the project (default: nextjs or node from package.json, else static). Exit code 1 when the\nbuild fails.',
  },
  logs: {
    usage: 'logs <deploymentId> [--follow] [--runtime]',
    summary: "the build log (--runtime: the server function's logs)",
  },
  promote: { usage: 'promote <deploymentId>', summary: 'make a ready deployment the production one' },
};

/** Other names a subcommand answers to. */
const ALIASES: Record<string, string> = {
  'projects ls': 'projects list',
  'env list': 'env ls',
  'env remove': 'env rm',
};

const isGroup = (word: string) => Object.keys(COMMANDS).some((k) => k.startsWith(`${word} `));

/** The command (or group) a command line is about: `env set` for `env set KEY --plain`; undefined for none. */
export function topicOf(argv: string[]): string | undefined {
  const [first, second] = argv;
  if (first === undefined) return undefined;
  const pair = `${first} ${second ?? ''}`;
  if (COMMANDS[pair]) return pair;
  if (ALIASES[pair]) return ALIASES[pair];
  if (COMMANDS[first] || isGroup(first)) return first;
  return undefined;
}

const ENV_NOTE =
  'The config file is $XDG_CONFIG_HOME/platform/config.json (default ~/.config); PLATFORM_URL, PLATFORM_TOKEN,\n' +
  'PLATFORM_ORG and PLATFORM_PROJECT override it.';

const WIDTH = 32;

function line(key: string): string {
  const { usage, summary } = COMMANDS[key] as Command;
  const indent = ' '.repeat(WIDTH + 2);
  const text = summary.split('\n').join(`\n${indent}`);
  return usage.length < WIDTH ? `  ${usage.padEnd(WIDTH)}${text}` : `  ${usage}\n${indent}${text}`;
}

const USAGE = `Usage: platform <command> [options]

${Object.keys(COMMANDS).map(line).join('\n')}

Each command's own usage: platform <command> --help.
${ENV_NOTE}
`;

/** The usage text of a topic (a command or a group), or the overview. */
export function helpOf(topic: string | undefined): string {
  const command = topic ? COMMANDS[topic] : undefined;
  if (command) {
    const more = command.details ? `\n${command.details}` : '';
    const summary = command.summary;
    return `Usage: platform ${command.usage}\n\n${summary.charAt(0).toUpperCase()}${summary.slice(1)}.${more}\n`;
  }
  if (topic && isGroup(topic)) {
    const keys = Object.keys(COMMANDS).filter((k) => k.startsWith(`${topic} `));
    const subs = keys.map((k) => k.slice(topic.length + 1)).join('|');
    return `Usage: platform ${topic} <${subs}> [options]\n\n${keys.map(line).join('\n')}\n`;
  }
  return USAGE;
}

/** The arguments a command requires, as its usage names them (`<deploymentId>`). */
export const requiredArguments = (topic: string) =>
  (COMMANDS[topic]?.usage ?? '').split(' ').filter((word) => /^<[^>]+>$/.test(word));
