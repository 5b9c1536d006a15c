import { parseArgs } from 'node:util';
import { ApiError, type Client } from '../client';
import { version } from '../package.json';
import { COMMAND_TABLE } from './commands';
import { readConfig } from './config';
import { CliError, type Io, openSession, type Session, UsageError, unreachableHint } from './context';
import {
  findCommand,
  groupOf,
  groupUsage,
  helpOf,
  nearest,
  requiredArguments,
  topicOf,
  usageOf,
  wordsOf,
} from './help';
import { PackError } from './pack';
import { type CommandSpec, type Ctx, GLOBAL_OPTIONS, type Values } from './spec';

/** `--help` or `-h` among a command line's options (not after `--`, where it would be an argument). */
function asksHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** The command line of a command (its words taken off), checked against its options and arguments. */
export function parse(command: CommandSpec, args: string[]) {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, o] of Object.entries({ ...GLOBAL_OPTIONS, ...command.options })) {
    options[name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  let parsed: { values: Values; positionals: string[] };
  const topic = command.path.join(' ');
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (err) {
    throw new UsageError(optionMistake(topic, Object.keys(options), err as Error & { code?: string }));
  }
  for (const [name, o] of Object.entries(command.options ?? {})) {
    if (o.required && !o.defaulted && parsed.values[name] === undefined)
      throw new UsageError(`${topic} needs --${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}.`);
  }
  const declared = command.positionals ?? [];
  const min = declared.filter((p) => p.required).length;
  if (parsed.positionals.length < min) {
    const missing = requiredArguments(topic)[parsed.positionals.length] ?? 'an argument';
    throw new UsageError(`${topic} needs ${missing}.`);
  }
  const rest = declared.some((p) => p.name.endsWith('…'));
  if (!rest && parsed.positionals.length > declared.length) {
    throw new UsageError(`Unexpected argument ${parsed.positionals[declared.length]}.`);
  }
  return parsed;
}

/** node:util's parse error said in our words: the option, what is wrong, the nearest known one. */
function optionMistake(topic: string, known: string[], err: Error & { code?: string }): string {
  const option = /'(-[^' ]+)/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const near = option.startsWith('--') ? nearest(option.slice(2), known) : undefined;
    return `${topic} has no option ${option}.${near ? ` Did you mean --${near}?` : ''}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /argument missing/.test(err.message) ? `${option} needs a value.` : `${option} takes no value.`;
  }
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `${topic} takes no such argument.`;
  return err.message;
}

/** A client that keeps the last answer it got (for `jsonLast` commands). */
function recording(api: Client, keep: (answer: unknown) => void): Client {
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const answer = await (value as (...a: unknown[]) => Promise<unknown>)(...args);
        keep(answer);
        return answer;
      };
    },
  });
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if ((first === '--version' || first === '-V') && rest.length === 0) {
    io.stdout(`${version}\n`);
    return 0;
  }
  if (first === 'help') {
    io.stdout(helpOf(topicOf(rest)));
    return 0;
  }
  const found = first === '__complete' || !asksHelp(argv) ? findCommand(argv) : undefined;
  if (first === undefined || (asksHelp(argv) && first !== '__complete')) {
    io.stdout(helpOf(topicOf(argv)));
    return 0;
  }
  if (!found) {
    if (groupOf(first).length > 0) {
      const sub = argv[1];
      if (sub === undefined) throw new UsageError(`Name a ${first} command.`);
      const near = nearest(sub, wordsOf(first));
      throw new UsageError(`Unknown ${first} command ${sub}.${near ? ` Did you mean \`${first} ${near}\`?` : ''}`);
    }
    const near = nearest(first, wordsOf());
    throw new UsageError(`Unknown command ${first}.${near ? ` Did you mean \`${near}\`?` : ''}`);
  }
  const { command, words } = found;
  const args = argv.slice(words);
  if (command.raw) return command.run(rawCtx(io, args));
  const { values, positionals } = parse(command, args);
  // Colour only where it is wanted: not with NO_COLOR (any value) or --no-color.
  if (io.color && (values['no-color'] === true || io.env.NO_COLOR)) io = { ...io, color: false };
  const json = values.json === true;
  const str = (name: string) => {
    const v = values[name];
    return typeof v === 'string' ? v : Array.isArray(v) ? v.at(-1) : undefined;
  };
  let last: unknown = null;
  const quiet = json && command.jsonLast === true;
  const runIo: Io = quiet ? { ...io, stdout: io.stderr } : io;
  let opened: Session | undefined;
  const ctx: Ctx = {
    io: runIo,
    values,
    args: positionals,
    json,
    str,
    flag: (name) => values[name] === true,
    all: (name) => {
      const v = values[name];
      return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
    },
    session: async () => {
      if (opened) return opened;
      const s = await openSession(runIo, { profile: str('profile'), org: str('org') });
      opened = quiet ? { ...s, api: recording(s.api, (a) => (last = a)) } : s;
      return opened;
    },
    print: (data, human) => {
      if (json) io.stdout(`${JSON.stringify(data, null, 2)}\n`);
      else {
        const text = human();
        if (text) io.stdout(text.endsWith('\n') ? text : `${text}\n`);
      }
      return 0;
    },
  };
  const code = await command.run(ctx);
  if (quiet && code === 0) io.stdout(`${JSON.stringify(last, null, 2)}\n`);
  return code;
}

function rawCtx(io: Io, args: string[]): Ctx {
  return {
    io,
    values: {},
    args,
    json: false,
    str: () => undefined,
    flag: () => false,
    all: () => [],
    session: () => openSession(io),
    print: (_data, human) => {
      io.stdout(`${human()}\n`);
      return 0;
    },
  };
}

/** After a usage mistake: the usage line of the command (or group) and where the rest is, not the whole help. */
function usageHint(topic: string | undefined): string {
  if (!topic) return 'Run platform --help to list the commands.\n';
  const command = findCommand(topic.split(' '));
  const usage = command && command.command.path.join(' ') === topic ? usageOf(command.command) : undefined;
  const line = usage ?? groupUsage(topic);
  return `\nUsage: platform ${line}\n\nRun platform ${topic} --help for ${usage ? 'its options and examples' : 'its commands'}.\n`;
}

/** ` --profile NAME` when a profile other than the default is in use (to name it in a hint). */
function profileOf(io: Io, argv: string[]): string {
  const given = argv[argv.indexOf('--profile') + 1];
  const name = argv.includes('--profile') ? given : io.env.PLATFORM_PROFILE;
  return name && name !== 'default' ? ` --profile ${name}` : '';
}

/** The API address in the config, if it can be read (for a hint only). */
function configuredUrl(io: Io): string | undefined {
  try {
    return readConfig(io.env).baseUrl;
  } catch {
    return undefined;
  }
}

/**
 * Runs one command line and answers its exit code: 0 done, 1 refused (the API's message, or a
 * failed build), 2 a mistake in the command line. Nothing is thrown and no stack is printed.
 */
export async function run(argv: string[], io: Io): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`Error: ${err.message}\n${usageHint(topicOf(argv))}`);
      return 2;
    }
    if (err instanceof ApiError) {
      const issues = err.issues.map((i) => `\n  ${i.path ? `${i.path}: ` : ''}${i.message}`).join('');
      const hint =
        err.status === 401
          ? `\nLog in again: platform login${profileOf(io, argv)}`
          : err.status === 0
            ? `\n${unreachableHint(configuredUrl(io))}`
            : err.status === 403
              ? '\nAsk an owner or admin of the organization for the role or access (platform member list names them).'
              : '';
      io.stderr(`Error: ${err.message}${issues}${hint}\n`);
      return 1;
    }
    if (err instanceof CliError || err instanceof PackError) {
      io.stderr(`Error: ${err.message}\n`);
      return 1;
    }
    // Not expected: still one line, unless asked for the details.
    const detail = io.env.PLATFORM_DEBUG ? `\n${(err as Error)?.stack ?? ''}` : '';
    io.stderr(`Error: ${(err as Error)?.message ?? String(err)}${detail}\n`);
    return 1;
  }
}

export { COMMAND_TABLE };
