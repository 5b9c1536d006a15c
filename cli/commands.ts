import { rmSync } from 'node:fs';
import { ApiError } from '../client';
import { completeWords, completionScript, SHELLS } from './completion';
import { LINK_FILE, readConfigFile, readLink, writeConfigFile, writeLink } from './config';
import { requireProject, UsageError } from './context';
import { deploy, promote } from './deploy';
import { envList, envPull, envRemove, envSet, parseTargets } from './env';
import { GROUP_COMMANDS } from './groups';
import { PROJECT } from './groups/common';
import { login, logout } from './login';
import { logs } from './logs';
import { table } from './output';
import { ignoreLinkFile, parseFramework, projectsCreate, projectsList } from './projects';
import type { CommandSpec, OptionSpec } from './spec';

/**
 * The command table: every command of `platform`, declared once. The dispatcher (`run.ts`), the
 * usage texts (`help.ts`) and the shell completion (`completion.ts`) are made from it.
 */

const FRAMEWORK: OptionSpec = {
  type: 'string',
  value: 'static|node|nextjs',
  help: 'the framework of the project',
  complete: ['static', 'node', 'nextjs'],
};
const PROJECT_REQUIRED: OptionSpec = { ...PROJECT, required: true, defaulted: true };

const CORE: CommandSpec[] = [
  {
    path: ['login'],
    summary: 'sign in (by device code, or with a token) and store the API address and organization',
    details:
      'Without a token, you sign in as yourself by device code: the command shows a code and the page where\n' +
      'you approve it, signed in; the session lasts 90 days (GET /v1/me/sessions lists them). With a token\n' +
      '(--token, --with-token from stdin, or PLATFORM_TOKEN) it is checked against GET /v1/me. --org: an\n' +
      'organization id or slug (needed when you have several). --local: the address and API key of the\n' +
      'platform npm start runs here (DATA_DIR/local.json). --profile NAME stores it in that profile.',
    examples: [
      'platform login --url https://api.example.com',
      'platform login --local',
      'echo "$TOKEN" | platform login --url https://api.example.com --with-token --profile ci',
    ],
    options: {
      url: { type: 'string', value: 'URL', help: 'the API address' },
      token: { type: 'string', value: 'TOKEN|-', help: 'a token or API key (-: read from stdin)' },
      'with-token': { type: 'boolean', help: 'read the token from stdin (for scripts)' },
      org: { type: 'string', value: 'ORG', help: 'the organization (id or slug)', complete: 'org' },
      local: { type: 'boolean', help: 'the platform npm start runs in this folder' },
    },
    run: (c) =>
      login(c.io, {
        url: c.str('url'),
        token: c.str('token'),
        withToken: c.flag('with-token'),
        org: c.str('org'),
        local: c.flag('local'),
        profile: c.str('profile'),
        json: c.json,
      }),
  },
  {
    path: ['logout'],
    summary: 'forget them',
    details: 'Removes the profile in use (or --profile NAME); the config file goes with the last one.',
    examples: ['platform logout', 'platform logout --profile ci'],
    run: (c) => logout(c.io, c.str('profile'), c.json),
  },
  {
    path: ['profile', 'list'],
    aliases: ['ls'],
    summary: 'the profiles of the config file, the one in use marked',
    examples: ['platform profile list'],
    run: (c) => {
      const file = readConfigFile(c.io.env);
      const current = c.io.env.PLATFORM_PROFILE ?? file.current;
      const profiles = Object.entries(file.profiles).map(([name, p]) => ({
        name,
        current: name === current,
        baseUrl: p.baseUrl,
        orgId: p.orgId,
        orgSlug: p.orgSlug,
      }));
      return c.print({ current, profiles }, () =>
        profiles.length === 0
          ? 'No profiles yet. Log in: platform login --url <base URL> --token <token>'
          : table(
              [
                ['', 'PROFILE', 'URL', 'ORG'],
                ...profiles.map((p) => [p.current ? '*' : '', p.name, p.baseUrl, p.orgSlug ?? p.orgId]),
              ],
              c.io,
            ),
      );
    },
  },
  {
    path: ['profile', 'use'],
    summary: 'make a profile the one in use',
    positionals: [{ name: 'name', required: true, complete: 'profile' }],
    examples: ['platform profile use local'],
    run: (c) => {
      const name = c.args[0] as string;
      const file = readConfigFile(c.io.env);
      if (!file.profiles[name]) {
        const known = Object.keys(file.profiles).join(', ') || 'none';
        throw new UsageError(`No profile ${name}. Profiles: ${known}. Add one: platform login --profile ${name}`);
      }
      file.current = name;
      writeConfigFile(c.io.env, file);
      return c.print({ current: name }, () => `Using profile ${name} (${file.profiles[name]?.baseUrl}).`);
    },
  },
  {
    path: ['link'],
    summary: `link this folder to an organization and a project (writes ${LINK_FILE})`,
    details:
      'Commands run in this folder (or below it) then default --org and --project to these, as vercel link does.\n' +
      'Without --org, the organization of the profile.',
    options: { project: { ...PROJECT, help: "the project's slug or id" } },
    examples: ['platform link --org acme --project web'],
    run: async (c) => {
      const s = await c.session();
      const project = c.str('project') ? await requireProject({ ...s, link: undefined }, c.str('project')) : undefined;
      const link = {
        orgId: s.config.orgId,
        orgSlug: s.config.orgSlug,
        ...(project ? { projectId: project.projectId, projectSlug: project.slug } : {}),
      };
      const file = writeLink(c.io.cwd, link);
      const ignored = ignoreLinkFile(c.io.cwd) ? `\nAdded ${LINK_FILE} to .gitignore.` : '';
      const what = project ? `project ${project.slug} of ${link.orgSlug ?? link.orgId}` : (link.orgSlug ?? link.orgId);
      return c.print(link, () => `Linked ${c.io.cwd} to ${what} (${file}).${ignored}`);
    },
  },
  {
    path: ['unlink'],
    summary: `remove the link of this folder (the nearest ${LINK_FILE} up)`,
    examples: ['platform unlink'],
    run: (c) => {
      const link = readLink(c.io.cwd);
      if (link) rmSync(link.file);
      return c.print({ removed: link?.file ?? null }, () =>
        link ? `Removed ${link.file}.` : 'This folder is not linked.',
      );
    },
  },
  {
    path: ['projects', 'list'],
    aliases: ['ls'],
    summary: "the organization's projects",
    examples: ['platform projects list', "platform projects list --json | jq -r '.projects[].slug'"],
    run: async (c) => projectsList(await c.session(), c.json),
  },
  {
    path: ['projects', 'create'],
    jsonLast: true,
    summary: 'create a project',
    positionals: [{ name: 'slug', required: true }],
    options: {
      name: { type: 'string', value: 'N', help: 'its display name (default: the slug)' },
      framework: FRAMEWORK,
      location: { type: 'string', value: 'L', help: 'where it runs (platform locations)' },
    },
    examples: ['platform projects create web --framework nextjs'],
    run: async (c) => {
      const framework = parseFramework(c.str('framework'));
      return projectsCreate(await c.session(), c.args[0] as string, {
        name: c.str('name'),
        framework,
        location: c.str('location'),
      });
    },
  },
  {
    path: ['env', 'ls'],
    aliases: ['list'],
    summary: "a project's variables (sensitive values are never shown)",
    options: { project: PROJECT_REQUIRED },
    examples: ['platform env ls --project shop'],
    run: async (c) => {
      const s = await c.session();
      return envList(s, await requireProject(s, c.str('project')), c.json);
    },
  },
  {
    path: ['env', 'set'],
    jsonLast: true,
    summary: 'without VALUE, the value is read from stdin',
    details:
      'Variables are sensitive (never readable back) unless --plain. Default targets: all three. A key has one\n' +
      'value for its targets: setting it for fewer targets than it has removes it from the others, so that\n' +
      'needs --force (or use a separate key).',
    positionals: [{ name: 'KEY', required: true }, { name: 'VALUE' }],
    options: {
      project: PROJECT_REQUIRED,
      target: {
        type: 'string',
        value: 'production,preview,development',
        help: 'the targets it applies to',
        complete: ['production', 'preview', 'development'],
      },
      plain: { type: 'boolean', help: 'readable back (env ls, env pull)' },
      force: { type: 'boolean', help: 'go on when other targets of the key lose it (one value per key)' },
    },
    examples: [
      'platform env set GREETING Hello --plain',
      'printf s3cr3t | platform env set API_TOKEN --target production',
      'platform env set API_URL https://staging.example.com --target preview --force',
    ],
    run: async (c) => {
      const targets = parseTargets(c.str('target'));
      const s = await c.session();
      return envSet(s, await requireProject(s, c.str('project')), c.args[0] as string, c.args[1], {
        targets,
        plain: c.flag('plain'),
        force: c.flag('force'),
      });
    },
  },
  {
    path: ['env', 'rm'],
    jsonLast: true,
    aliases: ['remove'],
    summary: 'delete a variable',
    positionals: [{ name: 'KEY', required: true }],
    options: { project: PROJECT_REQUIRED },
    examples: ['platform env rm GREETING --project shop'],
    run: async (c) => {
      const s = await c.session();
      return envRemove(s, await requireProject(s, c.str('project')), c.args[0] as string);
    },
  },
  {
    path: ['env', 'pull'],
    jsonLast: true,
    summary: "write the target's readable variables to a dotenv file",
    options: {
      project: PROJECT_REQUIRED,
      file: { type: 'string', value: '.env', help: 'the file to write', complete: 'file' },
      target: {
        type: 'string',
        value: 'development',
        help: 'the target whose values are written',
        complete: ['production', 'preview', 'development'],
      },
    },
    examples: ['platform env pull', 'platform env pull --file .env.preview --target preview'],
    run: async (c) => {
      const [target, ...more] = parseTargets(c.str('target') ?? 'development');
      if (!target || more.length > 0) throw new UsageError('env pull takes one --target.');
      const s = await c.session();
      return envPull(s, await requireProject(s, c.str('project')), c.str('file') ?? '.env', target);
    },
  },
  {
    path: ['deploy'],
    jsonLast: true,
    summary:
      'pack, upload and build the folder (default: the current one), following the\n' +
      "build log; the project is created from the folder's name when there is none",
    details:
      `.gitignore is honoured; .git, node_modules, .env files and ${LINK_FILE} never leave the machine. --prod deploys to\n` +
      'production (default: preview). --force builds even when nothing changed. --framework sets the\n' +
      "project's framework (a new project's default: nextjs when package.json depends on next, node when it\n" +
      'has a server to start, else static, built by its build script when it has one). Exit code 1 when the\nbuild fails.',
    positionals: [{ name: 'folder', complete: 'file' }],
    options: {
      project: PROJECT,
      prod: { type: 'boolean', help: 'deploy to production' },
      force: { type: 'boolean', help: 'build even when nothing changed' },
      framework: FRAMEWORK,
    },
    examples: ['platform deploy', 'platform deploy site --prod'],
    run: async (c) => {
      const framework = parseFramework(c.str('framework'));
      return deploy(await c.session(), c.args[0], {
        project: c.str('project'),
        prod: c.flag('prod'),
        force: c.flag('force'),
        framework,
      });
    },
  },
  {
    path: ['logs'],
    jsonLast: true,
    summary: "the build log (--runtime: the server function's logs)",
    positionals: [{ name: 'deploymentId', required: true }],
    options: {
      follow: { type: 'boolean', short: 'f', help: 'to its end (runtime logs: until Ctrl-C)' },
      runtime: { type: 'boolean', help: "the server function's logs of the last hour" },
    },
    examples: [
      'platform logs dpl_01m80dmbn362ba0rqqgmf0ee00 --follow',
      'platform logs dpl_01m80dmbn362ba0rqqgmf0ee00 --runtime',
    ],
    run: async (c) =>
      logs(await c.session(), c.args[0] as string, { follow: c.flag('follow'), runtime: c.flag('runtime') }),
  },
  {
    path: ['promote'],
    jsonLast: true,
    summary: 'make a ready deployment the production one',
    details:
      'Production then serves it as it was built, with its variables: a preview built with variables other\n' +
      "than production's is refused unless --force (platform deploy --prod builds with production's).",
    positionals: [{ name: 'deploymentId', required: true }],
    options: { force: { type: 'boolean', help: "promote a preview built with variables other than production's" } },
    examples: ['platform promote dpl_01m80dmbn362ba0rqqgmf0ee00'],
    run: async (c) => promote(await c.session(), c.args[0] as string, c.flag('force')),
  },
];

const TOOLS: CommandSpec[] = [
  {
    path: ['completion'],
    summary: 'print the shell completion script (bash, zsh or fish)',
    details:
      'bash: source <(platform completion bash), or write it to ~/.local/share/bash-completion/completions/platform.\n' +
      'zsh: platform completion zsh > ~/.zfunc/_platform (a folder in fpath). fish: platform completion fish > ~/.config/fish/completions/platform.fish.\n' +
      'Organization, project, repository and branch names are completed from the API.',
    positionals: [{ name: 'shell', required: true, complete: SHELLS }],
    examples: ['source <(platform completion bash)'],
    run: (c) => {
      const shell = c.args[0] as string;
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new UsageError(`Unknown shell ${shell}: use ${SHELLS.join(', ')}.`);
      }
      c.io.stdout(completionScript(shell as (typeof SHELLS)[number], COMMAND_TABLE));
      return 0;
    },
  },
  {
    path: ['__complete'],
    hidden: true,
    raw: true,
    summary: 'the words that may come next (for the completion scripts)',
    positionals: [{ name: 'words…' }],
    run: async (c) => {
      const words = await completeWords(COMMAND_TABLE, c.args, c.io).catch((err: unknown) => {
        // Completion never prints an error into the shell's line.
        if (err instanceof ApiError || err instanceof Error) return [];
        throw err;
      });
      c.io.stdout(words.length ? `${words.join('\n')}\n` : '');
      return 0;
    },
  },
];

export const COMMAND_TABLE: CommandSpec[] = [...CORE, ...GROUP_COMMANDS, ...TOOLS];
