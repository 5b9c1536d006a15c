import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { configFile } from '../../cli/config';
import { table } from '../../cli/output';
import { TestPlatform } from '../helpers/platform';
import { Cli } from './helpers';

/**
 * Profiles (several in the config file, tokens 0600), `link` (the folder's defaults for --org and
 * --project), tables cut to the width, and shell completion: the bash script loads in bash (a
 * child process), `__complete` answers command words, options and names from the API.
 */
let p: TestPlatform;
let cli: Cli;
let key: string;
const slug = `cfg-${Date.now().toString(36)}`;

beforeAll(async () => {
  p = await TestPlatform.start();
  key = await p.apiKey();
  cli = new Cli();
});
afterAll(async () => {
  await p?.close();
});

describe('tables', () => {
  it('fit the width: free text is cut with … first, kept columns last', () => {
    const rows = [
      ['ID', 'TITLE', 'WHEN'],
      ['a1', 'A rather long title that will not fit', '2026-11-26 08:00'],
    ];
    expect(table(rows, 80)).toMatchInlineSnapshot(`
"ID  TITLE                                  WHEN
a1  A rather long title that will not fit  2026-11-26 08:00"
`);
    expect(table(rows, 40, [0, 2])).toMatchInlineSnapshot(`
"ID  TITLE               WHEN
a1  A rather long tit…  2026-11-26 08:00"
`);
  });
});

describe('profiles', () => {
  it('login stores profiles in one file, mode 0600; profile list and use; --profile for one command', async () => {
    expect((await cli.run(['login', '--url', p.baseUrl, '--token', key])).code).toBe(0);
    const second = await cli.run(['login', '--url', p.baseUrl, '--token', p.owner.token, '--profile', 'person']);
    expect(second.code).toBe(0);
    const file = configFile(cli.env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles)).toEqual(['default', 'person']);

    cli.columns = 60;
    const list = await cli.run(['profile', 'list']);
    const url = p.baseUrl.replace(/\./g, '\\.');
    expect(list.stdout.split('\n')).toEqual([
      expect.stringMatching(/^ {3}PROFILE +URL +ORG$/),
      expect.stringMatching(new RegExp(`^\\* {2}default {2}${url} +${p.org.slug}$`)),
      expect.stringMatching(new RegExp(`^ {3}person {3}${url} +${p.org.slug}$`)),
      '',
    ]);
    expect((await cli.run(['profile', 'use', 'person'])).stdout).toBe(`Using profile person (${p.baseUrl}).\n`);
    const me = await cli.run(['projects', 'list', '--json']);
    expect(me.code).toBe(0);
    expect((await cli.run(['profile', 'list', '--json'])).stdout).toContain('"current": "person"');
    const missing = await cli.run(['profile', 'use', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Error: No profile nope\. Profiles: default, person\./);
    const other = await cli.run(['projects', 'list', '--profile', 'ghost']);
    expect(other).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error: Not logged in \(profile ghost\)/) });
    expect((await cli.run(['logout', '--profile', 'person'])).stdout).toBe('Logged out: removed profile person.\n');
    expect((await cli.run(['profile', 'use', 'default'])).code).toBe(0);
  });
});

describe('link', () => {
  it('writes .platform.json; commands under the folder default --project to it', async () => {
    expect((await cli.run(['projects', 'create', slug, '--framework', 'static'])).code).toBe(0);
    const linked = await cli.run(['link', '--org', p.org.slug, '--project', slug, '--json']);
    expect(linked.code).toBe(0);
    const link = JSON.parse(readFileSync(join(cli.cwd, '.platform.json'), 'utf8'));
    expect(link).toEqual({ orgId: p.org.orgId, orgSlug: p.org.slug, projectId: expect.any(String), projectSlug: slug });
    expect(JSON.parse(linked.stdout)).toEqual(link);
    const below = join(cli.cwd, 'src', 'deep');
    mkdirSync(below, { recursive: true });
    const inner = new Cli(below);
    Object.assign(inner.env, cli.env);
    expect((await inner.run(['env', 'set', 'A', 'b', '--plain'])).stdout).toBe(
      `Set A (plain) for production, preview, development in ${slug}.\n`,
    );
    const refused = await inner.run(['env', 'ls', '--org', 'org_nope']);
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Error: This token has no organization org_nope/),
    });
    expect((await cli.run(['unlink'])).stdout).toMatch(/^Removed .*\.platform\.json\.\n$/);
    expect((await inner.run(['env', 'ls'])).code).toBe(2);
  });
});

describe('completion', () => {
  it('the bash script parses, and sourcing it registers the completion (bash, a child process)', async () => {
    const script = await cli.run(['completion', 'bash']);
    expect(script.code).toBe(0);
    const file = join(cli.cwd, 'platform.bash');
    writeFileSync(file, script.stdout);
    const run = promisify(execFile);
    await run('bash', ['-n', file]);
    const { stdout } = await run('bash', ['-c', `source '${file}' && complete -p platform`]);
    expect(stdout.trim()).toBe('complete -F _platform platform');
    // The command words come from the script itself: completing `platform pr ch` needs no platform.
    const words = await run('bash', [
      '-c',
      `source '${file}' && COMP_WORDS=(platform pr ch) && COMP_CWORD=2 && _platform && echo "\${COMPREPLY[@]}"`,
    ]);
    expect(words.stdout).toBe('checkout checks\n');
    for (const shell of ['zsh', 'fish']) {
      const other = await cli.run(['completion', shell]);
      expect(other.stdout).toContain('platform __complete');
    }
    expect((await cli.run(['completion', 'tcsh'])).code).toBe(2);
  });

  it('__complete: command words and options from the table, names from the API', async () => {
    const words = async (...w: string[]) => (await cli.run(['__complete', ...w])).stdout.split('\n').filter(Boolean);
    expect(await words('pr', 'ch')).toEqual(['checkout', 'checks']);
    expect(await words('env', 'set', '--t')).toEqual(['--target']);
    expect(await words('env', 'set', '--target', 'pr')).toEqual(['production', 'preview']);
    expect(await words('env', 'ls', '--project', slug.slice(0, 4))).toEqual([slug]);
    expect(await words('link', '--org', '')).toEqual([p.org.slug]);
    const repo = `cmp-${Date.now().toString(36)}`;
    expect((await cli.run(['repo', 'create', repo, '--readme'])).code).toBe(0);
    expect(await words('repo', 'view', 'cmp-')).toEqual([repo]);
    expect(await words('pr', 'create', '--repo', repo, '--base', '')).toEqual(['main']);
    // In a clone, the repository is the one origin points to.
    const clone = join(cli.cwd, 'clone');
    await promisify(execFile)('git', ['init', '-q', clone]);
    await promisify(execFile)('git', [
      '-C',
      clone,
      'remote',
      'add',
      'origin',
      `${p.baseUrl}/git/${p.org.orgId}/${repo}.git`,
    ]);
    const inClone = new Cli(clone);
    Object.assign(inClone.env, cli.env);
    expect((await inClone.run(['__complete', 'pr', 'create', '--base', 'ma'])).stdout).toBe('main\n');
    expect((await cli.run(['help'])).stdout).not.toContain('__complete');
  });
});
