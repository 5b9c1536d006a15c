import { parseArgs } from 'node:util';
import { ApiError } from '../client';
import { CliError, type Io, requireProject, session, UsageError } from './context';
import { deploy, promote } from './deploy';
import { envList, envPull, envRemove, envSet, parseTargets } from './env';
import { login, logout } from './login';
import { logs } from './logs';
import { PackError } from './pack';
import { projectsCreate, projectsList } from './projects';

export const USAGE = `Usage: platform <command> [options]

  login [--url URL] [--token TOKEN|-] [--org ORG] [--local]
                                  check and store the API address, a token or API key, the organization
  logout                          forget them
  projects list [--json]          the organization's projects
  projects create <slug> [--name N] [--framework static|node|nextjs] [--location L]
  env ls --project P [--json]     a project's variables (sensitive values are never shown)
  env set <KEY> [VALUE] --project P [--target production,preview,development] [--plain]
                                  without VALUE, the value is read from stdin
  env rm <KEY> --project P
  env pull --project P [--file .env] [--target development]
  deploy [folder] [--project P] [--prod] [--force] [--framework F]
                                  pack, upload and build the folder (default: the current one), following the
                                  build log; the project is created from the folder's name when there is none
  logs <deploymentId> [--follow] [--runtime]
                                  the build log (--runtime: the server function's logs)
  promote <deploymentId>          make a ready deployment the production one

The config file is $XDG_CONFIG_HOME/platform/config.json (default ~/.config); PLATFORM_URL, PLATFORM_TOKEN,
PLATFORM_ORG and PLATFORM_PROJECT override it.
`;

type Spec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

function parse(args: string[], options: Spec, positionals: [min: number, max: number]) {
  let parsed: ReturnType<typeof parseArgs<{ options: Spec; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [min, max] = positionals;
  if (parsed.positionals.length < min) throw new UsageError('Missing argument.');
  if (parsed.positionals.length > max) throw new UsageError(`Unexpected argument ${parsed.positionals[max]}.`);
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout(USAGE);
      return 0;
    case 'login': {
      const { values } = parse(
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
      parse(rest, {}, [0, 0]);
      return logout(io);
    case 'projects': {
      const [sub, ...args] = rest;
      if (sub === 'list' || sub === 'ls') {
        const { values } = parse(args, { json: { type: 'boolean' } }, [0, 0]);
        return projectsList(session(io), values.json === true);
      }
      if (sub === 'create') {
        const { values, positionals } = parse(
          args,
          { name: { type: 'string' }, framework: { type: 'string' }, location: { type: 'string' } },
          [1, 1],
        );
        return projectsCreate(session(io), positionals[0] as string, {
          name: str(values.name),
          framework: str(values.framework),
          location: str(values.location),
        });
      }
      throw new UsageError('Use: projects list | projects create <slug>');
    }
    case 'env':
      return env(rest, io);
    case 'deploy': {
      const { values, positionals } = parse(
        rest,
        {
          project: { type: 'string' },
          prod: { type: 'boolean' },
          force: { type: 'boolean' },
          framework: { type: 'string' },
        },
        [0, 1],
      );
      return deploy(session(io), positionals[0], {
        project: str(values.project),
        prod: values.prod === true,
        force: values.force === true,
        framework: str(values.framework),
      });
    }
    case 'logs': {
      const { values, positionals } = parse(
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
      const { positionals } = parse(rest, {}, [1, 1]);
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
      const { values } = parse(args, { project, json: { type: 'boolean' } }, [0, 0]);
      const s = session(io);
      return envList(s, await requireProject(s, str(values.project)), values.json === true);
    }
    case 'set': {
      const { values, positionals } = parse(
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
      const { values, positionals } = parse(args, { project }, [1, 1]);
      const s = session(io);
      return envRemove(s, await requireProject(s, str(values.project)), positionals[0] as string);
    }
    case 'pull': {
      const { values } = parse(args, { project, file: { type: 'string' }, target: { type: 'string' } }, [0, 0]);
      const [target, ...more] = parseTargets(str(values.target) ?? 'development');
      if (!target || more.length > 0) throw new UsageError('env pull takes one --target.');
      const s = session(io);
      return envPull(s, await requireProject(s, str(values.project)), str(values.file) ?? '.env', target);
    }
    default:
      throw new UsageError('Use: env ls | env set <KEY> [VALUE] | env rm <KEY> | env pull');
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
      io.stderr(`Error: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof ApiError) {
      const issues = err.issues.map((i) => `\n  ${i.path ? `${i.path}: ` : ''}${i.message}`).join('');
      const hint = err.status === 401 ? '\nLog in again: platform login' : '';
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
