import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Io } from '../../cli/context';
import { run } from '../../cli/run';
import { Cli } from '../cli/helpers';
import { TestPlatform } from '../helpers/platform';
import { gitCli } from '../repos/git-cli';

/**
 * `platform repo protect --require-check` and `platform pr checks` (once, and `--watch` until no
 * check is queued or in progress) against the local platform, a pull request pushed with git.
 */
let p: TestPlatform;
let cli: Cli;
let key: string;
let home: string;
const name = `chk-cli-${Date.now().toString(36)}`;
let checks: string;
let number: string;
let mainChecks: string;

const { ok } = gitCli(() => home);

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'checks-cli-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'checks-cli-home-'));
  p = await TestPlatform.start();
  key = await p.apiKey();
  cli = new Cli();
  expect((await cli.run(['login', '--url', p.baseUrl, '--token', key])).code).toBe(0);
  const res = await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name, readme: true });
  expect(res.status).toBe(201);
  const dir = join(mkdtempSync(join(home, 'w-')), 'repo');
  await ok(home, ['clone', '-q', (res.body.repo.cloneUrl as string).replace('://', `://git:${key}@`), dir]);
  const main = (await ok(dir, ['rev-parse', 'HEAD'])).trim();
  mainChecks = `/v1/orgs/${p.org.orgId}/repos/${name}/commits/${main}/checks`;
  await ok(dir, ['checkout', '-q', '-b', 'feature']);
  writeFileSync(join(dir, 'app.txt'), 'one\n');
  await ok(dir, ['add', '.']);
  await ok(dir, ['commit', '-q', '-m', 'Add app']);
  await ok(dir, ['push', '-q', 'origin', 'feature']);
  const head = (await ok(dir, ['rev-parse', 'HEAD'])).trim();
  checks = `/v1/orgs/${p.org.orgId}/repos/${name}/commits/${head}/checks`;
  const pull = await p.post(`/v1/orgs/${p.org.orgId}/repos/${name}/pulls`, {
    title: 'Add app',
    source: 'feature',
    target: 'main',
  });
  number = String(pull.body.pull.number);
});
afterAll(() => p.close());

it('repo protect --require-check adds to the rule (bound to a writer with @), --drop-check removes, the approvals stay', async () => {
  const added = await cli.run(['repo', 'protect', name, '--approvals', '1', '--require-check', 'e2e', '--json']);
  expect(added.code).toBe(0);
  expect(JSON.parse(added.stdout)).toEqual({ requiredApprovals: 1, requiredChecks: ['e2e'], branch: 'main' });
  const more = await cli.run(['repo', 'protect', name, '--require-check', 'lint']);
  expect(more.stdout).toBe(`${name}: 1 approvals required to merge into main. Required checks: e2e, lint.\n`);
  const bound = await cli.run(['repo', 'protect', name, '--require-check', 'lint@platform', '--json']);
  expect(JSON.parse(bound.stdout).requiredChecks).toEqual(['e2e', { name: 'lint', source: 'platform' }]);
  const keyId = (await p.post(mainChecks, { name: 'keyed' }, { token: key })).body.check.createdBy as string;
  const byKey = await cli.run(['repo', 'protect', name, '--require-check', `lint@key:${keyId}`]);
  expect(byKey.stdout).toBe(
    `${name}: 1 approvals required to merge into main. Required checks: e2e, lint (API key ${keyId}).\n`,
  );
  const dropped = await cli.run(['repo', 'protect', name, '--drop-check', 'lint', '--approvals', '0', '--json']);
  expect(JSON.parse(dropped.stdout)).toEqual({ requiredApprovals: 0, requiredChecks: ['e2e'], branch: 'main' });
  const help = await cli.run(['repo', 'protect', '--help']);
  expect(help.stdout).toContain('--require-check NAME');
  expect(help.stdout).toContain('platform repo protect api --require-check build');
});

it('pr checks shows the checks and the required ones not reported; exit 1 once one failed', async () => {
  const none = await cli.run(['pr', 'checks', number, '--repo', name]);
  expect(none.code).toBe(0);
  expect(none.stdout).toContain(`#${number} at `);
  expect(none.stdout).toMatch(/e2e \(required\)\texpected\tnot reported yet\t-/);

  expect((await p.post(checks, { name: 'lint', state: 'success', summary: 'Clean\nsecond line' })).status).toBe(201);
  const shown = await cli.run(['pr', 'checks', number, '--repo', name]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toMatch(/lint\tsuccess\tClean\t-/);
  const asJson = JSON.parse((await cli.run(['pr', 'checks', number, '--repo', name, '--json'])).stdout);
  expect(asJson).toMatchObject({ required: ['e2e'], summary: { state: 'success', total: 1 } });

  const help = await cli.run(['pr', 'checks', '--help']);
  expect(help.stdout).toContain('--watch');
  expect(help.stdout).toContain('platform pr checks --watch');
});

it('pr checks --watch redraws until nothing is queued or in progress, then exits 1 for a failure', async () => {
  const e2e = await p.post(checks, { name: 'e2e', state: 'queued' });
  expect(e2e.status).toBe(201);
  let stdout = '';
  let sawQueued: () => void = () => undefined;
  const queuedShown = new Promise<void>((resolve) => {
    sawQueued = resolve;
  });
  const io: Io = {
    stdout: (t) => {
      stdout += t;
      if (/e2e \(required\)\tqueued/.test(stdout)) sawQueued();
    },
    stderr: () => undefined,
    env: cli.env,
    cwd: cli.cwd,
    tty: false,
    stdin: async () => '',
    pollMs: 20,
  };
  const watching = run(['pr', 'checks', number, '--repo', name, '--watch'], io);
  await queuedShown;
  const id = e2e.body.check.checkId;
  expect((await p.patch(`${checks}/${id}`, { state: 'in_progress' })).status).toBe(200);
  expect((await p.patch(`${checks}/${id}`, { state: 'failure', summary: 'Build failed' })).status).toBe(200);
  expect(await watching).toBe(1);
  // Each change printed once, in order: queued, (maybe in progress), failure.
  const states = [...stdout.matchAll(/e2e \(required\)\t(\w+)/g)].map((m) => m[1]);
  expect(states[0]).toBe('queued');
  expect(states.at(-1)).toBe('failure');
  expect(stdout).toContain('Build failed');
});

it('pr checks shows a required check bound to the platform as expected while only a key reported that name', async () => {
  const put = await p.put(`/v1/orgs/${p.org.orgId}/repos/${name}/protection`, {
    requiredChecks: [{ name: 'lint', source: 'platform' }],
  });
  expect(put.status).toBe(200);
  const shown = await cli.run(['pr', 'checks', number, '--repo', name]);
  expect(shown.stdout).toMatch(/\nlint\tsuccess\tClean\t-\n/);
  expect(shown.stdout).toMatch(/lint \(platform\) \(required\)\texpected\tonly another writer reported it\t-/);
});
