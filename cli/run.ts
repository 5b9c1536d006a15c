import { parseArgs } from 'node:util';
import { ApiError } from '../client';
import { readConfig } from './config';
import { CliError, type Io, requireProject, session, UsageError, unreachableHint } from './context';
import { deploy, promote } from './deploy';
import { envList, envPull, envRemove, envSet, parseTargets } from './env';
import { helpOf, requiredArguments, topicOf } from './help';
import { login, logout } from './login';
import { logs } from './logs';
import { PackError } from './pack';
import { parseFramework, projectsCreate, projectsList } from './projects';

type Spec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The command line of `topic` (its words taken off), checked against its options and arguments. */
function parse(topic: string, args: string[], options: Spec, positionals: [min: number, max: number]) {
  let parsed: ReturnType<typeof parseArgs<{ options: Spec; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [min, max] = positionals;
  if (parsed.positionals.length < min) {
    const missing = requiredArguments(topic)[parsed.positionals.length] ?? 'an argument';
    throw new UsageError(`${topic} needs ${missing}.`);
  }
  if (parsed.positionals.length > max) throw new UsageError(`Unexpected argument ${parsed.positionals[max]}.`);
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

/** `--help` or `-h` among a command line's options (not after `--`, where it would be an argument). */
function asksHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'help') {
    io.stdout(helpOf(topicOf(rest)));
    return 0;
  }
  if (command === undefined || asksHelp(argv)) {
    io.stdout(helpOf(topicOf(argv)));
    return 0;
  }
  switch (command) {
    case 'login': {
      const { values } = parse(
        'login',
        rest,
        { url: { type: 'string' }, token: { type: 'string' }, org: { type: 'string' }, local: { type: 'boolean' } },
        [0, 0],
      );
      return login(io, {
        url: str(values.url),
        token: str(values.token),
        org: str(values.org),
        local: values.local === true,
      });
    }
    case 'logout':
      parse('logout', rest, {}, [0, 0]);
      return logout(io);
    case 'projects': {
      const [sub, ...args] = rest;
      if (sub === 'list' || sub === 'ls') {
        const { values } = parse('projects list', args, { json: { type: 'boolean' } }, [0, 0]);
        return projectsList(session(io), values.json === true);
      }
      if (sub === 'create') {
        const { values, positionals } = parse(
          'projects create',
          args,
          { name: { type: 'string' }, framework: { type: 'string' }, location: { type: 'string' } },
          [1, 1],
        );
        const framework = parseFramework(str(values.framework));
        return projectsCreate(session(io), positionals[0] as string, {
          name: str(values.name),
          framework,
          location: str(values.location),
        });
      }
      throw new UsageError(sub === undefined ? 'Name a projects command.' : `Unknown projects command ${sub}.`);
    }
    case 'env':
      return env(rest, io);
    case 'deploy': {
      const { values, positionals } = parse(
        'deploy',
        rest,
        {
          project: { type: 'string' },
          prod: { type: 'boolean' },
          force: { type: 'boolean' },
          framework: { type: 'string' },
        },
        [0, 1],
      );
      const framework = parseFramework(str(values.framework));
      return deploy(session(io), positionals[0], {
        project: str(values.project),
        prod: values.prod === true,
        force: values.force === true,
        framework,
      });
    }
    case 'logs': {
      const { values, positionals } = parse(
        'logs',
        rest,
        { follow: { type: 'boolean', short: 'f' }, runtime: { type: 'boolean' } },
        [1, 1],
      );
      return logs(session(io), positionals[0] as string, {
        follow: values.follow === true,
        runtime: values.runtime === true,
      });
    }
    case 'promote': {
      const { positionals } = parse('promote', rest, {}, [1, 1]);
      return promote(session(io), positionals[0] as string);
    }
    default:
      throw new UsageError(`Unknown command ${command}.`);
  }
}

async function env(rest: string[], io: Io): Promise<number> {
  const [sub, ...args] = rest;
  const project = { type: 'string' } as const;
  switch (sub) {
    case 'ls':
    case 'list': {
      const { values } = parse('env ls', args, { project, json: { type: 'boolean' } }, [0, 0]);
      const s = session(io);
      return envList(s, await requireProject(s, str(values.project)), values.json === true);
    }
    case 'set': {
      const { values, positionals } = parse(
        'env set',
        args,
        { project, target: { type: 'string' }, plain: { type: 'boolean' } },
        [1, 2],
      );
      const targets = parseTargets(str(values.target));
      const s = session(io);
      return envSet(s, await requireProject(s, str(values.project)), positionals[0] as string, positionals[1], {
        targets,
        plain: values.plain === true,
      });
    }
    case 'rm':
    case 'remove': {
      const { values, positionals } = parse('env rm', args, { project }, [1, 1]);
      const s = session(io);
      return envRemove(s, await requireProject(s, str(values.project)), positionals[0] as string);
    }
    case 'pull': {
      const { values } = parse(
        'env pull',
        args,
        { project, file: { type: 'string' }, target: { type: 'string' } },
        [0, 0],
      );
      const [target, ...more] = parseTargets(str(values.target) ?? 'development');
      if (!target || more.length > 0) throw new UsageError('env pull takes one --target.');
      const s = session(io);
      return envPull(s, await requireProject(s, str(values.project)), str(values.file) ?? '.env', target);
    }
    default:
      throw new UsageError(sub === undefined ? 'Name an env command.' : `Unknown env command ${sub}.`);
  }
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
      io.stderr(`Error: ${err.message}\n\n${helpOf(topicOf(argv))}`);
      return 2;
    }
    if (err instanceof ApiError) {
      const issues = err.issues.map((i) => `\n  ${i.path ? `${i.path}: ` : ''}${i.message}`).join('');
      const hint =
        err.status === 401
          ? '\nLog in again: platform login'
          : err.status === 0
            ? `\n${unreachableHint(configuredUrl(io))}`
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
