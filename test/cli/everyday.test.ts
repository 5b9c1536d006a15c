import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Person } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { type MailWorld, startMailWorld, unique } from '../mail/helpers';
import { Cli } from './helpers';

/**
 * Everyday actions that had no command: a tracker space and an export, a mail domain and a
 * mailbox, an agent job followed to its end (saying why it waits), a device login approved by
 * its code. Each command a child process against the local platform; output piped.
 */
let w: MailWorld;
let owner: Cli;
let dev: Cli;
let developer: Person;
let worker: { stop: () => Promise<void> } | undefined;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'cli-everyday-'));
  // Agent jobs queue their expiry checks for the agent-checks worker.
  worker = await startQueueWorker('agent-checks');
  w = await startMailWorld({ smtp: false });
  developer = await w.p.person('developer');
  owner = new Cli();
  dev = new Cli();
  expect((await owner.run(['login', '--url', w.p.baseUrl, '--token', w.p.owner.token])).code).toBe(0);
  expect((await dev.run(['login', '--url', w.p.baseUrl, '--token', developer.token])).code).toBe(0);
});
afterAll(async () => {
  await w?.close();
  await worker?.stop();
});

describe('track', () => {
  const key = `E${Date.now().toString(36).slice(-4).toUpperCase()}`;

  it('space create, then an issue in it, exported as JSON to a file and as CSV to stdout', async () => {
    const made = await owner.run(['track', 'space', 'create', key, '--name', 'Everyday', '--template', 'scrum']);
    expect(made).toEqual({
      code: 0,
      stdout: `Created space ${key} (scrum). Add an issue: platform track create <summary> --space ${key}\n`,
      stderr: '',
    });
    expect((await owner.run(['track', 'create', 'First thing', '--space', key])).code).toBe(0);
    const file = join(owner.cwd, 'issues.json');
    const exported = await owner.run(['track', 'export', `space = ${key}`, '-o', 'issues.json']);
    expect(exported).toEqual({ code: 0, stdout: '', stderr: 'Exported 1 issue to issues.json.\n' });
    const body = JSON.parse(readFileSync(file, 'utf8'));
    expect(body).toMatchObject({ format: 'tracker-issues/1', total: 1 });
    expect(body.issues[0]).toMatchObject({ key: `${key}-1`, summary: 'First thing' });
    const csv = await owner.run(['track', 'export', `space = ${key}`, '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain('First thing');
  });

  /** The space's sprints as the API answers them, once the first is started. */
  let sprints: { sprintId: string; name: string; startDate: number; endDate: number }[] = [];

  it('sprints: plan one with its issues and a second, start the first for a week, list them', async () => {
    const none = await owner.run(['track', 'sprint', 'list', '--space', key]);
    expect(none.stdout).toMatch(/^.+ has no sprints\. Start one: platform track sprint start --board \S+\n$/);
    const planned = await owner.run(['track', 'sprint', 'create', '--space', key, '--name', 'Alpha', '--goal', 'Ship']);
    expect(planned.stdout).toMatch(
      new RegExp(
        `^Planned Alpha \\(spr_\\w+\\) on .+\\. Add issues: platform track create <summary> --space ${key} --sprint "Alpha"\\n$`,
      ),
    );
    for (const summary of ['Sprint work', 'Sprint chore'])
      expect((await owner.run(['track', 'create', summary, '--space', key, '--sprint', 'Alpha'])).code).toBe(0);
    expect((await owner.run(['track', 'sprint', 'create', '--space', key, '--name', 'Beta'])).code).toBe(0);

    const started = await owner.run(['track', 'sprint', 'start', '--space', key, '--weeks', '1', '--goal', 'Ship it']);
    expect(started.stderr).toBe('');
    const json = JSON.parse((await owner.run(['track', 'sprint', 'list', '--space', key, '--json'])).stdout);
    sprints = json.sprints;
    const [alpha] = json.sprints;
    expect(alpha).toMatchObject({ name: 'Alpha', goal: 'Ship it', state: 'active' });
    expect(alpha.endDate - alpha.startDate).toBe(7 * 86_400_000);
    const end = new Date(alpha.endDate).toISOString().slice(0, 10);
    expect(started.stdout).toMatch(new RegExp(`^Started Alpha \\(${alpha.sprintId}\\) on .+, until ${end}\\.\\n$`));
    // Piped: name, state, start, end, id, whole and tab-separated.
    const listed = await owner.run(['track', 'sprint', 'list', '--space', key]);
    const rows = listed.stdout
      .trimEnd()
      .split('\n')
      .map((r) => r.split('\t'));
    expect(rows).toEqual([
      ['Alpha', 'active', new Date(alpha.startDate).toISOString().slice(0, 10), end, alpha.sprintId],
      ['Beta', 'future', '-', '-', json.sprints[1].sprintId],
    ]);
    const again = await owner.run(['track', 'sprint', 'start', 'alpha', '--space', key]);
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'Error: Alpha is active already.\n' });
  }, 180_000);

  it('sprints: close carries the unfinished issue to the next; a sprint by its id alone', async () => {
    expect((await owner.run(['track', 'transition', `${key}-2`, 'Done'])).code).toBe(0);
    const closed = await owner.run(['track', 'sprint', 'close', '--space', key, '--carry-to', 'next']);
    expect(closed).toEqual({
      code: 0,
      stdout: 'Closed Alpha: 1 of 2 issues done. 1 unfinished moved to Beta.\n',
      stderr: '',
    });
    const beta = sprints[1]?.sprintId as string;
    const chore = JSON.parse((await owner.run(['track', 'view', `${key}-3`, '--json'])).stdout).issue;
    expect(chore.sprintId).toBe(beta);
    // No --space: the sprint's id names its board. Beta starts, then closes with its report.
    expect((await owner.run(['track', 'sprint', 'start', beta])).stdout).toMatch(/^Started Beta /);
    const report = JSON.parse((await owner.run(['track', 'sprint', 'close', beta, '--json'])).stdout);
    expect(report.sprint).toMatchObject({ state: 'closed', data: { report: { committed: 1, incomplete: 1 } } });
  }, 180_000);

  it('sprints: none active, no space named, a bad --weeks, a kanban space', async () => {
    const closeNone = await owner.run(['track', 'sprint', 'close', '--space', key]);
    expect(closeNone).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^Error: No sprint of .+ is active\.\n$/),
    });
    const noSpace = await owner.run(['track', 'sprint', 'start']);
    expect(noSpace.code).toBe(2);
    expect(noSpace.stderr).toMatch(
      /^Error: Name the space: --space KEY \(or the board: --board ID, or the sprint by its id\)\.\n\nUsage: platform track sprint start /,
    );
    const weeks = await owner.run(['track', 'sprint', 'start', '--space', key, '--weeks', '0']);
    expect(weeks.code).toBe(2);
    expect(weeks.stderr).toMatch(/^Error: --weeks takes a whole number from 1 to 26\./);
    const kanbanKey = `K${key.slice(1)}`;
    expect((await owner.run(['track', 'space', 'create', kanbanKey, '--name', 'Flow'])).code).toBe(0);
    const kanban = await owner.run(['track', 'sprint', 'start', '--space', kanbanKey]);
    expect(kanban).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: ${kanbanKey} has no scrum board: sprints belong to scrum boards (its template scrum makes one).\n`,
    });
  });

  it('usage mistakes before any request: no --name, an unknown template or format', async () => {
    const noName = await owner.run(['track', 'space', 'create', 'ZZ']);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/^Error: track space create needs --name N\.\n/);
    const template = await owner.run(['track', 'space', 'create', 'ZZ', '--name', 'x', '--template', 'waterfall']);
    expect(template.stderr).toMatch(/^Error: Unknown template waterfall: use scrum, kanban, bugs, service, basic\./);
    expect((await owner.run(['track', 'export', '--format', 'xml'])).code).toBe(2);
    const taken = await owner.run(['track', 'space', 'create', key, '--name', 'Again']);
    expect(taken.code).toBe(1);
  });
});

describe('mail', () => {
  const domain = `${unique('every')}.test`;

  it('domain add prints the records to create; verify checks them; mailbox add at the domain', async () => {
    const added = await owner.run(['mail', 'domain', 'add', domain]);
    expect(added.code).toBe(0);
    const [first, ...rows] = added.stdout.trimEnd().split('\n');
    // A .test domain verifies at once on the local platform.
    expect(first).toBe(`${domain}: verified`);
    // Piped: every record whole, tab-separated.
    expect(rows.map((r) => r.split('\t').slice(0, 2))).toContainEqual(['verification', 'TXT']);
    expect(rows.every((r) => r.split('\t').length === 5)).toBe(true);
    const verified = await owner.run(['mail', 'domain', 'verify', domain, '--json']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout).domain.domain).toBe(domain);

    const address = `team@${domain}`;
    const box = await owner.run([
      'mail',
      'mailbox',
      'add',
      address,
      '--name',
      'Team',
      '--member',
      developer.email,
      '--shared',
    ]);
    expect(box.stderr).toBe('');
    expect(box.stdout).toMatch(new RegExp(`^Created mailbox ${address.replace(/\./g, '\\.')} \\(\\S+\\)\\.\\n$`));
    const theirs = await dev.run(['mail', 'mailboxes', '--json']);
    expect(JSON.stringify(JSON.parse(theirs.stdout))).toContain(address);
  });

  it('a developer may not add a mailbox: the refusal says whom to ask', async () => {
    const res = await dev.run(['mail', 'mailbox', 'add', `x@${domain}`, '--name', 'X']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^Error: .+\nAsk an owner or admin of the organization for the role or access \(platform member list names them\)\.\n$/,
    );
  });
});

describe('agent', () => {
  it('job create --watch says why it waits (no device) and ends with the job', async () => {
    const queued = await owner.run([
      'agent',
      'job',
      'create',
      '--type',
      'http.batch',
      '--input',
      '{"requests":[{"url":"https://example.com/"}]}',
      '--host',
      'example.com',
    ]);
    expect(queued.stderr).toBe('');
    const jobId = /^Queued job (\S+) \(http\.batch\)\. Follow it: platform agent job watch \1\n$/.exec(
      queued.stdout,
    )?.[1];
    expect(jobId).toBeDefined();
    let seen = '';
    const watching = owner.run(['agent', 'job', 'watch', jobId as string], {
      onStderr: (stderr) => {
        seen = stderr;
      },
    });
    // Canceled once the watch says it waits: the watch ends with it.
    await until(() => seen.includes(`${jobId}: queued (waiting`));
    const cancel = await w.p.post(`/v1/orgs/${w.p.org.orgId}/agents/jobs/${jobId}/cancel`, {});
    expect(cancel.status).toBe(200);
    const watched = await watching;
    expect(watched.code).toBe(1);
    expect(watched.stderr).toContain(
      `${jobId}: queued (waiting: no device can run it. Log one in on a machine: npm run agent -- login)\n`,
    );
    expect(watched.stderr).toContain(`${jobId}: canceled\n`);
    expect(watched.stdout).toBe(`Job ${jobId} canceled.\n`);
  });

  it('job create refuses what is not JSON, and an unknown type, before any request', async () => {
    const bad = await owner.run(['agent', 'job', 'create', '--type', 'exec', '--input', '{nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: --input is not JSON\.\n/);
    const type = await owner.run(['agent', 'job', 'create', '--type', 'ftp', '--input', '{}']);
    expect(type.stderr).toMatch(/^Error: Unknown job type ftp: use http\.batch, exec, browser\.batch\./);
    const none = await owner.run(['agent', 'job', 'create', '--input', '{}']);
    expect(none.stderr).toMatch(/^Error: agent job create needs --type /);
  });

  it('device approve <code> signs a device in; an unknown code is the API message', async () => {
    const start = await w.p.post('/v1/agent/login', { name: 'build box' }, { token: null });
    expect(start.status).toBe(200);
    const code = String(start.body.userCode).toLowerCase();
    const res = await owner.run(['agent', 'device', 'approve', code]);
    expect(res).toEqual({
      code: 0,
      stdout: `Approved the login ${code.toUpperCase()}: the device is signed in.\n`,
      stderr: '',
    });
    const token = await w.p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
    expect(token.status).toBe(200);
    expect(token.body.token).toEqual(expect.any(String));
    const again = await owner.run(['agent', 'device', 'approve', 'BCDF-GHJK']);
    expect(again.code).toBe(1);
  });
});
