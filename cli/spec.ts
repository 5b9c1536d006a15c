import type { Io, Session } from './context';

/**
 * The shape of one command of the command table (`cli/commands.ts`): its words, options and
 * arguments, texts and what it does. The dispatcher, the usage texts, usage mistakes and shell
 * completion all come from these declarations.
 */

/** What the shell completes for a value: fixed words, or names the API knows. */
export type Completion =
  | readonly string[]
  | 'org'
  | 'project'
  | 'repo'
  | 'branch'
  | 'space'
  | 'mailbox'
  | 'profile'
  | 'file';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in the usage line (`P` for `--project P`). */
  value?: string;
  help: string;
  /** Shown without brackets in the usage line (the command refuses to run without it). */
  required?: boolean;
  /** Required, but with a default the command finds itself (`--project`: PLATFORM_PROJECT, the linked folder). */
  defaulted?: boolean;
  /** May be given several times (`--where a=1 --where b=2`). */
  multiple?: boolean;
  complete?: Completion;
}

export interface PositionalSpec {
  name: string;
  required?: boolean;
  help?: string;
  complete?: Completion;
}

export type Values = Record<string, string | boolean | string[] | undefined>;

/** What a command's `run` gets. */
export interface Ctx {
  io: Io;
  values: Values;
  args: string[];
  /** `--json`: print the API's own shapes. */
  json: boolean;
  /** The logged-in session (profile, `--org`, linked folder applied). */
  session: () => Promise<Session>;
  str: (name: string) => string | undefined;
  flag: (name: string) => boolean;
  /** Every value of a `multiple` option. */
  all: (name: string) => string[];
  /** Prints `data` as JSON with `--json`, else what `human` answers (a line break added when missing). */
  print: (data: unknown, human: () => string) => number;
}

export interface CommandSpec {
  /** The words that name it: `['env', 'set']`. */
  path: string[];
  /** Other names of the last word (`ls` for `list`). */
  aliases?: string[];
  summary: string;
  details?: string;
  examples?: string[];
  options?: Record<string, OptionSpec>;
  positionals?: PositionalSpec[];
  /** Not listed in the overview, the help or the completion (`__complete`). */
  hidden?: boolean;
  /**
   * With `--json`, its sentences go to stderr and the last answer of the API is printed (for
   * commands that are a sequence of calls, like `deploy`).
   */
  jsonLast?: boolean;
  /** Its words are passed as they are, options unparsed (`__complete`). */
  raw?: boolean;
  run: (ctx: Ctx) => Promise<number> | number;
}

/** Options every command takes. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', help: "print the API's own JSON instead of a table or a sentence" },
  org: {
    type: 'string',
    value: 'ORG',
    help: "the organization (id or slug; default: the linked folder's, else the profile's)",
    complete: 'org',
  },
  profile: { type: 'string', value: 'NAME', help: 'use this profile of the config file', complete: 'profile' },
  'no-color': { type: 'boolean', help: 'no colour on a terminal (as NO_COLOR=1)' },
  help: { type: 'boolean', short: 'h', help: 'print the usage of the command' },
};

export const command = (spec: CommandSpec) => spec;
