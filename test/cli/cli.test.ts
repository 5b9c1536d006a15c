import { readFileSync, statSync } from 'node:fs';
import { configFile } from '../../cli/config';
import { TestPlatform } from '../helpers/platform';
import { Cli } from './helpers';

/** login, projects and env through the command line (a child process each), against the local gateway in this process. */
let p: TestPlatform;
let cli: Cli;
let apiKey: string;

beforeAll(async () => {
  p = await TestPlatform.start();
  apiKey = await p.apiKey();
  cli = new Cli();
});
afterAll(async () => {
  await p?.close();
});

describe('login', () => {
  it('refuses an unknown token with the API message, and stores nothing', async () => {
    const res = await cli.run(['login', '--url', p.baseUrl, '--token', 'app_api_nope']);
    expect(res).toEqual({ code: 1, stdout: '', stderr: 'Error: Unauthorized\nLog in again: platform login\n' });
    expect(() => statSync(configFile(cli.env))).toThrow();
  });

  it('says what is missing before any request', async () => {
    const res = await cli.run(['login', '--token', apiKey]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Error: Give the API address: --url <base URL>/);
    expect(res.stderr).toContain('Usage: platform login [--url URL]');
  });

  it('commands before login say how to log in', async () => {
    const res = await cli.run(['projects', 'list']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Error: Not logged in. Run: platform login --url <base URL> --token <token or API key>\n');
  });

  it("refuses an organization the token doesn't have", async () => {
    const res = await cli.run(['login', '--url', p.baseUrl, '--token', apiKey, '--org', 'org_other']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`Error: This token has no organization org_other. It has: ${p.org.slug}.\n`);
  });

  it('a person: reads the token from stdin, picks their only organization, stores it for the user only', async () => {
    const res = await cli.run(['login', '--url', `${p.baseUrl}/`, '--token', '-'], { stdin: `${p.owner.token}\n` });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Logged in to ${p.baseUrl} as ${p.owner.email}, organization ${p.org.slug}`);
    const file = configFile(cli.env);
    expect(file.startsWith(cli.configHome)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      current: 'default',
      profiles: { default: { baseUrl: p.baseUrl, token: p.owner.token, orgId: p.org.orgId, orgSlug: p.org.slug } },
    });
  });

  it('an API key, by organization slug', async () => {
    const res = await cli.run(['login', '--url', p.baseUrl, '--token', apiKey, '--org', p.org.slug]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Logged in to .* as API key \S+, organization /);
    expect(JSON.parse(readFileSync(configFile(cli.env), 'utf8')).profiles.default.token).toBe(apiKey);
  });
});

describe('projects', () => {
  const slug = `cli-${Date.now().toString(36)}`;

  it('list: none yet', async () => {
    expect(await cli.run(['projects', 'list'])).toEqual({
      code: 0,
      stdout: 'No projects yet. Create one: platform projects create <slug>\n',
      stderr: '',
    });
  });

  it('create, then list: tab-separated cells piped, a table on a terminal, and as JSON', async () => {
    const created = await cli.run(['projects', 'create', slug, '--framework', 'static', '--name', 'CLI site']);
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(new RegExp(`^Created project ${slug} \\(prj_\\w+\\), static, in \\S+\\.\\n$`));
    const piped = await cli.run(['projects', 'list']);
    expect(piped.stdout).toMatch(new RegExp(`^${slug}\tprj_\\w+\tstatic\t-\n$`));
    const terminal = new Cli();
    Object.assign(terminal.env, cli.env);
    terminal.columns = 100;
    const list = await terminal.run(['projects', 'list']);
    const [header, row] = list.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^SLUG\s+ID\s+FRAMEWORK\s+PRODUCTION$/);
    expect(row).toMatch(new RegExp(`^${slug}\\s+prj_\\w+\\s+static\\s+-$`));
    const json = await cli.run(['projects', 'ls', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ slug, name: 'CLI site', framework: 'static' })]);
  });

  it('--json of a command that prints a sentence: the API answer on stdout, the sentence on stderr', async () => {
    const res = await cli.run(['projects', 'create', `${slug}-j`, '--framework', 'static', '--json']);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^Created project /);
    const answer = JSON.parse(res.stdout);
    expect(answer.project).toMatchObject({ slug: `${slug}-j`, framework: 'static' });
    const api = await p.get(`/v1/orgs/${p.org.orgId}/projects/${answer.project.projectId}`, { token: apiKey });
    expect(api.body.project).toEqual(answer.project);
  });

  it("prints the API's message for a refusal: a taken slug, invalid fields with their issues", async () => {
    expect(await cli.run(['projects', 'create', slug])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: A project with this slug exists.\n',
    });
    const bad = await cli.run(['projects', 'create', 'Not A Slug', '--name', 'x'.repeat(65)]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: Invalid request\n {2}name: .*\n {2}slug: Use 2-40 lowercase letters/);
    expect(bad.stderr).not.toMatch(/\bat \S+ \(/);
  });

  it('usage mistakes exit 2 with the usage of the command', async () => {
    for (const [argv, usage] of [
      [['projects'], 'projects <list|create|settings>'],
      [['projects', 'create'], 'projects create <slug>'],
      [['projects', 'list', '--nope'], 'projects list [--json]'],
    ] as const) {
      const res = await cli.run([...argv]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^Error: .+\n\nUsage: platform /);
      expect(res.stderr).toContain(`\n\nUsage: platform ${usage}`);
    }
    expect((await cli.run(['frobnicate'])).stderr).toBe(
      'Error: Unknown command frobnicate.\nRun platform --help to list the commands.\n',
    );
    expect((await cli.run(['help'])).stdout).toContain('deploy [folder]');
  });
});

describe('env', () => {
  const slug = `env-${Date.now().toString(36)}`;
  let dir: Cli;

  beforeAll(async () => {
    expect((await cli.run(['projects', 'create', slug, '--framework', 'static'])).code).toBe(0);
    dir = new Cli();
    Object.assign(dir.env, cli.env);
  });

  it('needs the project', async () => {
    const res = await cli.run(['env', 'ls']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Error: Name the project: --project <slug or id> \(or PLATFORM_PROJECT\)\./);
    const unknown = await cli.run(['env', 'ls', '--project', 'nope-nope']);
    expect(unknown).toMatchObject({ code: 1, stderr: 'Error: Project nope-nope not found in this organization.\n' });
  });

  it('set (plain, sensitive from stdin), ls, pull, rm', async () => {
    const plain = await cli.run(['env', 'set', 'GREETING', 'Hello "you"', '--project', slug, '--plain']);
    expect(plain).toEqual({
      code: 0,
      stdout: `Set GREETING (plain) for production, preview, development in ${slug}.\n`,
      stderr: '',
    });
    const secret = await cli.run(
      ['env', 'set', 'API_SECRET', '--project', slug, '--target', 'production,development'],
      {
        stdin: 's3cr3t\n',
      },
    );
    expect(secret.stdout).toBe(`Set API_SECRET (sensitive) for production, development in ${slug}.\n`);
    await cli.run(['env', 'set', 'PREVIEW_ONLY', 'x', '--project', slug, '--target', 'preview', '--plain']);

    const ls = await cli.run(['env', 'ls', '--project', slug]);
    expect(ls.stdout.split('\n')).toEqual([
      'API_SECRET\tproduction,development\t(sensitive)',
      'GREETING\tproduction,preview,development\tHello "you"',
      'PREVIEW_ONLY\tpreview\tx',
      '',
    ]);
    expect(ls.stdout).not.toContain('s3cr3t');

    const pull = await dir.run(['env', 'pull', '--project', slug]);
    expect(pull.stdout).toBe('Wrote 1 variable to .env (1 sensitive left out).\n');
    const file = `${dir.cwd}/.env`;
    expect(readFileSync(file, 'utf8')).toBe(
      [
        `# ${slug}, target development: written by platform env pull. Do not commit.`,
        "# API_SECRET is sensitive: its value can't be read back.",
        'GREETING="Hello \\"you\\""',
        '',
      ].join('\n'),
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const preview = await dir.run(['env', 'pull', '--project', slug, '--target', 'preview', '--file', 'preview.env']);
    expect(preview.stdout).toBe('Wrote 2 variables to preview.env.\n');

    expect((await cli.run(['env', 'rm', 'PREVIEW_ONLY', '--project', slug])).stdout).toBe(
      `Removed PREVIEW_ONLY from ${slug}.\n`,
    );
    const after = await cli.run(['env', 'ls', '--project', slug, '--json']);
    expect(JSON.parse(after.stdout).map((v: { key: string }) => v.key)).toEqual(['API_SECRET', 'GREETING']);
  });

  it("set refuses what the API refuses, with the API's message", async () => {
    const res = await cli.run(['env', 'set', 'AWS_REGION', 'x', '--project', slug]);
    expect(res).toEqual({ code: 1, stdout: '', stderr: 'Error: AWS_REGION is reserved by the platform.\n' });
    const target = await cli.run(['env', 'set', 'A', 'x', '--project', slug, '--target', 'staging']);
    expect(target.code).toBe(2);
    expect(target.stderr).toMatch(/^Error: Unknown target staging: use production, preview, development\./);
  });
});
