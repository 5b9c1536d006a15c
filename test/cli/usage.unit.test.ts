import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, groupSummary, groupUsage } from '../../cli/help';
import { freePort } from '../../shared/kernel/net/free-port';
import { Cli } from './helpers';

/**
 * The command line before it reaches a platform: each command's usage (`--help`, `-h`,
 * `help <command>`), usage mistakes (exit 2, with the usage of the command they were made in),
 * and a platform that does not answer. Nothing listens at the addresses used here, so a command
 * that sent a request would fail with exit 1 instead.
 */
let cli: Cli;
let deadUrl: string;

beforeAll(async () => {
  cli = new Cli();
  deadUrl = `http://127.0.0.1:${await freePort()}`;
  Object.assign(cli.env, { PLATFORM_URL: deadUrl, PLATFORM_TOKEN: 'app_api_x', PLATFORM_ORG: 'org_x' });
});

const usageOf = (command: string) => `Usage: platform ${COMMANDS[command]?.usage}\n`;

describe('--help', () => {
  it('every command prints its own usage on stdout and exits 0: --help, -h, help <command>', async () => {
    for (const command of Object.keys(COMMANDS)) {
      const words = command.split(' ');
      for (const argv of [
        [...words, '--help'],
        [...words, '-h'],
        ['help', ...words],
      ]) {
        // Three forms of every command's usage: in this process (300 children would take ~40 s);
        // the tests below and the other files run the program itself.
        const res = await cli.inProcess(argv);
        expect({ argv, code: res.code, stderr: res.stderr }).toEqual({ argv, code: 0, stderr: '' });
        expect(res.stdout.startsWith(usageOf(command))).toBe(true);
      }
    }
  });

  it('also among other options and arguments, before any check of them', async () => {
    const res = await cli.run(['deploy', 'no-such-folder', '--framework', 'rails', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(usageOf('deploy'));
    expect(res.stdout).toContain("--framework sets the\nproject's framework");
  });

  it('a group lists its commands; no command, the overview', async () => {
    const env = await cli.run(['env', '--help']);
    expect(env.code).toBe(0);
    expect(env.stdout).toMatch(
      /^Usage: platform env <ls\|set\|rm\|pull> \[options\]\n\nA project's environment variables\.\n\n {2}env ls --project P/,
    );
    const all = await cli.run(['--help']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^Usage: platform <command> \[options\]\n/);
    // The overview: each command of one word with its usage, each group with its commands' names.
    for (const [name, { usage }] of Object.entries(COMMANDS)) {
      if (!name.includes(' ')) expect(all.stdout).toContain(`\n  ${usage}`);
      else expect(all.stdout).toContain(`\n  ${groupUsage(name.split(' ')[0] as string)}`);
    }
    expect(all.stdout).toContain('\n  env <ls|set|rm|pull>');
    expect((await cli.run([])).stdout).toBe(all.stdout);
  });

  it('every group has a summary, shown by its --help', async () => {
    const groups = [
      ...new Set(
        Object.keys(COMMANDS)
          .filter((k) => k.includes(' '))
          .map((k) => k.split(' ')[0] as string),
      ),
    ];
    for (const group of groups) {
      expect({ group, summary: groupSummary(group) }).toEqual({ group, summary: expect.stringMatching(/\w/) });
      const res = await cli.inProcess([group, '--help']);
      expect(res.stdout).toContain(`${groupSummary(group)?.slice(1)}.\n\n`);
    }
  });

  it("every command's --help has a summary and an example", async () => {
    for (const command of Object.keys(COMMANDS)) {
      const res = await cli.inProcess([...command.split(' '), '--help']);
      expect({ command, help: res.stdout }).toEqual({
        command,
        help: expect.stringMatching(new RegExp(`\\n\\n[A-Z].+\\n[^]*\\nExamples:\\n[^]*\\bplatform ${command}[ \\n)]`)),
      });
    }
  });

  it('after --, --help is an argument', async () => {
    const res = await cli.run(['promote', '--', '--help']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^Error: Couldn't reach /);
  });
});

describe('usage mistakes: exit 2, the usage of the command', () => {
  it('promote, logs, env set, projects create without their argument', async () => {
    for (const [argv, missing] of [
      [['promote'], 'promote needs <deploymentId>.'],
      [['logs', '--follow'], 'logs needs <deploymentId>.'],
      [['env', 'set', '--project', 'p'], 'env set needs <KEY>.'],
      [['projects', 'create'], 'projects create needs <slug>.'],
    ] as const) {
      const res = await cli.run([...argv]);
      const command = missing.slice(0, missing.indexOf(' needs'));
      expect({ code: res.code, stdout: res.stdout }).toEqual({ code: 2, stdout: '' });
      expect(res.stderr.startsWith(`Error: ${missing}\n\n${usageOf(command)}`)).toBe(true);
    }
  });

  it('an unknown --framework, before any request (deploy and projects create)', async () => {
    const folder = join(cli.cwd, 'site');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.html'), '<p>hi</p>');
    const deploy = await cli.run(['deploy', folder, '--framework', 'rails']);
    expect(deploy.code).toBe(2);
    expect(
      deploy.stderr.startsWith(`Error: Unknown framework rails: use nextjs, static, node.\n\n${usageOf('deploy')}`),
    ).toBe(true);
    const create = await cli.run(['projects', 'create', 'web', '--framework', 'Static']);
    expect(create.code).toBe(2);
    expect(create.stderr.startsWith('Error: Unknown framework Static: use nextjs, static, node.\n\n')).toBe(true);
  });

  it('an unknown subcommand shows its group; an unknown command, where the list is, not the whole help', async () => {
    const sub = await cli.run(['env', 'show']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/^Error: Unknown env command show\.\n\nUsage: platform env <ls\|set\|rm\|pull>/);
    const none = await cli.run(['frobnicate']);
    expect(none).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: Unknown command frobnicate.\nRun platform --help to list the commands.\n',
    });
  });

  it('a mistyped command or subcommand suggests the nearest', async () => {
    const deplyo = await cli.run(['deplyo']);
    expect(deplyo).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: Unknown command deplyo. Did you mean `deploy`?\nRun platform --help to list the commands.\n',
    });
    expect((await cli.inProcess(['projetcs', 'ls'])).stderr).toMatch(
      /^Error: Unknown command projetcs\. Did you mean `projects`\?/,
    );
    const sub = await cli.inProcess(['repo', 'clnoe', 'api']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(
      /^Error: Unknown repo command clnoe\. Did you mean `repo clone`\?\n\nUsage: platform repo </,
    );
    expect((await cli.inProcess(['zzzzzz'])).stderr).not.toContain('Did you mean');
  });

  it('an unknown option is named in our words, with the nearest; exit 2', async () => {
    const res = await cli.run(['deploy', '--forse']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `Error: deploy has no option --forse. Did you mean --force?\n\n${usageOf('deploy')}\nRun platform deploy --help for its options and examples.\n`,
    );
    const far = await cli.inProcess(['promote', 'dpl_1', '--zzz']);
    expect(far.stderr).toMatch(/^Error: promote has no option --zzz\.\n/);
    const value = await cli.inProcess(['pr', 'list', '--state']);
    expect(value.code).toBe(2);
    expect(value.stderr).toMatch(/^Error: --state needs a value\.\n/);
  });

  it('a missing required option is a usage error before any request', async () => {
    const res = await cli.inProcess(['track', 'create', 'A summary']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Error: track create needs --space KEY\.\n\nUsage: platform track create /);
    const db = await cli.inProcess(['db', 'get', 'orders']);
    expect(db.code).toBe(2);
    expect(db.stderr).toMatch(/^Error: db get needs --key JSON\.\n/);
  });
});

describe('a platform that does not answer', () => {
  const hint =
    'Is the local platform running? Start it with npm start (in the platform folder, with the same PORT), then try again.';

  it('login --local to a stopped platform says to run npm start', async () => {
    const here = new Cli();
    mkdirSync(join(here.cwd, '.data'));
    writeFileSync(
      join(here.cwd, '.data', 'local.json'),
      JSON.stringify({ baseUrl: deadUrl, apiKey: 'app_api_x', orgs: { customer: { orgId: 'org_x' } } }),
    );
    const res = await here.run(['login', '--local']);
    expect(res).toEqual({ code: 1, stdout: '', stderr: `Error: Couldn't reach ${deadUrl}: ECONNREFUSED\n${hint}\n` });
  });

  it('login --url to a local address, and any command once logged in, say the same', async () => {
    const other = new Cli();
    const login = await other.run(['login', '--url', deadUrl, '--token', 'app_api_x']);
    expect(login).toEqual({ code: 1, stdout: '', stderr: `Error: Couldn't reach ${deadUrl}: ECONNREFUSED\n${hint}\n` });
    const list = await cli.run(['projects', 'list']);
    expect(list).toEqual({ code: 1, stdout: '', stderr: `Error: Couldn't reach ${deadUrl}: ECONNREFUSED\n${hint}\n` });
  });
});

describe('the platform command itself (spawned)', () => {
  const bin = join(__dirname, '..', '..', 'cli', 'bin.cjs');
  const spawn = (...argv: string[]) =>
    spawnSync(process.execPath, [bin, ...argv], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: cli.configHome, XDG_CONFIG_HOME: cli.configHome },
      timeout: 50_000,
    });

  it('exits 0 with a command usage, 2 with a usage mistake', () => {
    const help = spawn('deploy', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout.startsWith(usageOf('deploy'))).toBe(true);
    const promote = spawn('promote');
    expect(promote.status).toBe(2);
    expect(promote.stdout).toBe('');
    expect(promote.stderr).toContain(`Error: promote needs <deploymentId>.\n\n${usageOf('promote')}`);
  });
});
