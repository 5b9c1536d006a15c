import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { loggedInDevice } from '../agents/helpers';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { type MailWorld, mailboxFor, startMailWorld } from '../mail/helpers';
import { Cli } from './helpers';

/**
 * The walkthrough a new user follows with no curl: agent devices (capabilities, hosts allowed with
 * or without a request), jobs (canceled, expired, results printed), calendars and repeating events,
 * issues edited, assigned and put in sprints, pages. Each command a child process against the
 * local platform (output piped); each asserts the API's state after it.
 */
let w: MailWorld;
let owner: Cli;
let worker: { stop: () => Promise<void> } | undefined;
const agents = () => `/v1/orgs/${w.p.org.orgId}/agents`;
const deviceOf = async (deviceId: string) =>
  (await w.p.get(agents())).body.devices.find((d: { deviceId: string }) => d.deviceId === deviceId);
const jobOf = async (jobId: string) => (await w.p.get(`${agents()}/jobs/${jobId}`)).body;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'cli-walkthrough-'));
  worker = await startQueueWorker('agent-checks');
  w = await startMailWorld({ smtp: false });
  owner = new Cli();
  owner.env.TZ = 'Europe/Paris';
  expect((await owner.run(['login', '--url', w.p.baseUrl, '--token', w.p.owner.token])).code).toBe(0);
});
afterAll(async () => {
  await w?.close();
  await worker?.stop();
});

describe('agent', () => {
  it('device set changes capabilities and hosts; approve allows a host with no request filed', async () => {
    const device = await loggedInDevice(w.p);
    const set = await owner.run(['agent', 'device', 'set', device.deviceId, '--capabilities', 'http,exec']);
    expect(set).toEqual({ code: 0, stdout: `Device ${device.deviceId}: capabilities http, exec.\n`, stderr: '' });
    expect((await deviceOf(device.deviceId)).capabilities).toEqual(['http', 'exec']);

    // Nothing filed a request for this host: the host is allowed directly.
    const direct = await owner.run(['agent', 'approve', device.deviceId, 'api.example.com']);
    expect(direct).toEqual({
      code: 0,
      stdout: `Allowed api.example.com for ${device.deviceId} (no request was pending: added to its hosts).\n`,
      stderr: '',
    });
    expect((await deviceOf(device.deviceId)).hosts).toEqual(['api.example.com']);
    // A filed request is approved as such.
    await w.p.post('/v1/agent/network-requests', { host: 'asked.example.com' }, { token: device.token });
    const asked = await owner.run(['agent', 'approve', device.deviceId, 'asked.example.com']);
    expect(asked.stdout).toBe(`Approved asked.example.com for ${device.deviceId}.\n`);
    expect((await deviceOf(device.deviceId)).hosts).toEqual(['api.example.com', 'asked.example.com']);
    expect((await w.p.get(agents())).body.requests).toEqual([]);

    const hosts = await owner.run([
      'agent',
      'device',
      'set',
      device.deviceId,
      '--remove-host',
      'api.example.com',
      '--allow-host',
      '*.example.org',
    ]);
    expect(hosts.code).toBe(0);
    expect((await deviceOf(device.deviceId)).hosts).toEqual(['asked.example.com', '*.example.org']);
    const bad = await owner.run(['agent', 'device', 'set', device.deviceId, '--capabilities', 'root']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: Unknown capability root: use http, browser, exec\./);
    await w.p.delete(`${agents()}/devices/${device.deviceId}`);
  });

  it('a job that waits for a capability says so (not hosts); job cancel cancels it', async () => {
    const device = await loggedInDevice(w.p);
    const made = await w.p.post(`${agents()}/jobs`, { type: 'exec', input: { command: ['true'] } });
    let seen = '';
    const watching = owner.run(['agent', 'job', 'watch', made.body.jobId], {
      onStderr: (stderr) => {
        seen = stderr;
      },
    });
    await until(() => seen.includes('waiting'));
    expect(seen).toContain(
      `laptop (offline) needs the exec capability (platform agent device set ${device.deviceId} --capabilities exec,…)`,
    );
    expect(seen).not.toContain('access to');
    const canceled = await owner.run(['agent', 'job', 'cancel', made.body.jobId]);
    expect(canceled).toEqual({ code: 0, stdout: `Canceled ${made.body.jobId}.\n`, stderr: '' });
    expect((await jobOf(made.body.jobId)).job.status).toBe('canceled');
    expect((await watching).code).toBe(1);
    const again = await owner.run(['agent', 'job', 'cancel', made.body.jobId]);
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'Error: This job already finished.\n' });
    await w.p.delete(`${agents()}/devices/${device.deviceId}`);
  });

  it('watch ends when a queued job passes its expiry, saying it expired', async () => {
    const made = await w.p.post(`${agents()}/jobs`, {
      type: 'http.batch',
      input: { requests: [{ url: 'https://expiry.example.com/' }] },
    });
    let seen = '';
    const watching = owner.run(['agent', 'job', 'watch', made.body.jobId], {
      onStderr: (stderr) => {
        seen = stderr;
      },
    });
    await until(() => seen.includes('waiting'));
    // Its time is up (as an hour later).
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `ORG#${w.p.org.orgId}`, sk: `JOB#${made.body.jobId}` },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1000 },
      }),
    );
    const watched = await watching;
    expect(watched.code).toBe(1);
    expect(watched.stderr).toContain(`${made.body.jobId}: expired\n`);
    expect(watched.stdout).toMatch(new RegExp(`^Job ${made.body.jobId} expired \\(nothing ran it before .+\\)\\.\\n$`));
    expect((await jobOf(made.body.jobId)).job.status).toBe('expired');
  });

  it("a done job's results are printed (fetched through their link); --link prints the link, --json the answer", async () => {
    const device = await loggedInDevice(w.p);
    await owner.run(['agent', 'approve', device.deviceId, 'results.example.com']);
    const made = await w.p.post(`${agents()}/jobs`, {
      type: 'http.batch',
      input: { requests: [{ url: 'https://results.example.com/items' }] },
    });
    const polled = await w.p.post('/v1/agent/poll', {}, { token: device.token });
    expect(polled.body.job.jobId).toBe(made.body.jobId);
    const results = { responses: [{ url: 'https://results.example.com/items', status: 200, body: '{"items":[1,2]}' }] };
    const put = await fetch(polled.body.job.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(results),
    });
    expect(put.status).toBe(200);
    await w.p.post(`/v1/agent/jobs/${made.body.jobId}/complete`, { status: 'done' }, { token: device.token });

    const watched = await owner.run(['agent', 'job', 'watch', made.body.jobId]);
    expect(watched).toEqual({
      code: 0,
      stdout: 'https://results.example.com/items: 200\n{"items":[1,2]}\n',
      stderr: `${made.body.jobId}: done\nJob ${made.body.jobId} done.\n`,
    });
    const link = await owner.run(['agent', 'job', 'watch', made.body.jobId, '--link']);
    expect(link.stdout).toMatch(new RegExp(`^Job ${made.body.jobId} done\\. Results: http\\S+\\n$`));
    const json = JSON.parse((await owner.run(['agent', 'jobs', made.body.jobId, '--json'])).stdout);
    expect(json).toMatchObject({ job: { jobId: made.body.jobId, status: 'done' }, resultsUrl: expect.any(String) });
    const view = await owner.run(['agent', 'jobs', made.body.jobId]);
    expect(view.stdout).toContain('\n\nhttps://results.example.com/items: 200\n{"items":[1,2]}\n');
  });
});

describe('cal', () => {
  let mailboxId: string;
  const calendars = () => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}/calendars`;

  beforeAll(async () => {
    mailboxId = (await mailboxFor(w.p, [w.p.owner.userId])).mailboxId;
  });

  it('calendars create adds a calendar; add --repeat makes a series (simple, or an RRULE with --until)', async () => {
    const made = await owner.run(['cal', 'calendars', 'create', 'Releases', '--color', 'green']);
    const calendarId = /\((cal_\w+)\)/.exec(made.stdout)?.[1] as string;
    expect(made).toEqual({
      code: 0,
      stdout: `Created calendar Releases (${calendarId}). Add to it: platform cal add … --calendar ${calendarId}\n`,
      stderr: '',
    });
    const listed = (await w.p.get(calendars())).body.calendars;
    expect(listed).toContainEqual(expect.objectContaining({ calendarId, name: 'Releases', color: 'green' }));

    const weekly = await owner.run([
      'cal',
      'add',
      'Standup',
      '--calendar',
      calendarId,
      '--start',
      '2026-12-01 09:30',
      '--duration',
      '15m',
      '--repeat',
      'FREQ=WEEKLY;BYDAY=MO,TU',
      '--until',
      '2026-12-31',
    ]);
    expect(weekly.stdout).toMatch(/^Added (evt_\w+): Standup, .+, repeating weekly on MO, TU until 2026-12-31\.\n$/);
    const eventId = /^Added (evt_\w+)/.exec(weekly.stdout)?.[1];
    const event = (await w.p.get(`${calendars()}/${calendarId}/events/${eventId}`)).body.event;
    expect(event.recurrence).toMatchObject({
      freq: 'weekly',
      until: '2026-12-31',
      byDay: [{ day: 'MO' }, { day: 'TU' }],
    });
    const daily = await owner.run([
      'cal',
      'add',
      'Check-in',
      '--calendar',
      calendarId,
      '--start',
      '2026-12-01 17:00',
      '--repeat',
      'daily',
      '--count',
      '3',
      '--json',
    ]);
    expect(JSON.parse(daily.stdout).event.recurrence).toMatchObject({ freq: 'daily', count: 3 });
    const from = Date.UTC(2026, 10, 30);
    const occurrences = (
      await w.p.get(
        `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mailboxId}/events?from=${from}&to=${from + 20 * 86_400_000}&calendarId=${calendarId}`,
      )
    ).body.occurrences as { summary: string }[];
    expect(occurrences.filter((o) => o.summary === 'Check-in')).toHaveLength(3);

    const bad = await owner.run(['cal', 'add', 'x', '--start', '2026-12-01', '--repeat', 'fortnightly']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: --repeat takes daily, weekly, monthly, yearly or an RRULE/);
    const loose = await owner.run(['cal', 'add', 'x', '--start', '2026-12-01', '--count', '2']);
    expect(loose.stderr).toMatch(/^Error: --until and --count go with --repeat\./);
  });
});

describe('track', () => {
  const key = `W${Date.now().toString(36).slice(-4).toUpperCase()}`;
  const issue = async (k: string) => (await w.p.get(`/v1/orgs/${w.p.org.orgId}/issues/${k}`)).body.issue;

  it('edit and assign an issue; put existing issues in a sprint, move them, take them out', async () => {
    expect((await owner.run(['track', 'space', 'create', key, '--name', 'Walk', '--template', 'scrum'])).code).toBe(0);
    for (const s of ['One', 'Two']) expect((await owner.run(['track', 'create', s, '--space', key])).code).toBe(0);
    const edited = await owner.run([
      'track',
      'edit',
      `${key}-1`,
      '--summary',
      'One, renamed',
      '--priority',
      'High',
      '--label',
      'ui,web',
      '--due',
      '2026-12-24',
    ]);
    expect(edited).toEqual({
      code: 0,
      stdout: `Updated ${key}-1: summary, priority, dueDate, labels.\n`,
      stderr: '',
    });
    expect(await issue(`${key}-1`)).toMatchObject({
      summary: 'One, renamed',
      priorityId: 'high',
      labels: ['ui', 'web'],
      dueDate: '2026-12-24',
    });

    const assigned = await owner.run(['track', 'assign', `${key}-1`, 'me']);
    expect(assigned.code).toBe(0);
    expect((await issue(`${key}-1`)).assigneeId).toBe(w.p.owner.userId);
    expect((await owner.run(['track', 'assign', `${key}-1`, 'none'])).stdout).toBe(`${key}-1 is unassigned.\n`);
    expect((await issue(`${key}-1`)).assigneeId).toBeUndefined();

    for (const name of ['Alpha', 'Beta'])
      expect((await owner.run(['track', 'sprint', 'create', '--space', key, '--name', name])).code).toBe(0);
    const sprints = JSON.parse((await owner.run(['track', 'sprint', 'list', '--space', key, '--json'])).stdout)
      .sprints as { sprintId: string; name: string }[];
    const added = await owner.run(['track', 'sprint', 'add', 'Alpha', `${key}-1`, `${key}-2`]);
    expect(added).toEqual({ code: 0, stdout: `Put ${key}-1, ${key}-2 in Alpha.\n`, stderr: '' });
    expect((await issue(`${key}-2`)).sprintId).toBe(sprints[0]?.sprintId);
    expect((await owner.run(['track', 'sprint', 'move', sprints[1]?.sprintId as string, `${key}-2`])).code).toBe(0);
    expect((await issue(`${key}-2`)).sprintId).toBe(sprints[1]?.sprintId);
    expect((await owner.run(['track', 'sprint', 'remove', `${key}-2`])).stdout).toBe(
      `Moved ${key}-2 to the backlog.\n`,
    );
    expect((await issue(`${key}-2`)).sprintId).toBeUndefined();
    const none = await owner.run(['track', 'edit', `${key}-1`]);
    expect(none.code).toBe(2);
  });
});

describe('page', () => {
  it('create from a file, ls, view, edit from a file (a stale --base-version refused), rename', async () => {
    const dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'cli-pages-'));
    owner.cwd = dir;
    writeFileSync(join(dir, 'runbook.md'), '# Runbook\n\nRestart the worker.\n');
    const made = await owner.run(['page', 'create', 'Runbook', '--file', 'runbook.md']);
    const pageId = /\((pg_\w+)\)/.exec(made.stdout)?.[1] as string;
    expect(made).toEqual({ code: 0, stdout: `Created page Runbook (${pageId}).\n`, stderr: '' });
    const page = () => w.p.get(`/v1/orgs/${w.p.org.orgId}/pages/${pageId}`);
    expect((await page()).body.content).toBe('# Runbook\n\nRestart the worker.\n');

    const listed = await owner.run(['page', 'ls']);
    expect(listed.stdout.split('\n').map((r) => r.split('\t').slice(0, 2))).toContainEqual([pageId, 'Runbook']);
    expect((await owner.run(['page', 'view', pageId, '--raw'])).stdout).toBe('# Runbook\n\nRestart the worker.\n');
    const version = (await page()).body.page.contentVersion as number;

    writeFileSync(join(dir, 'runbook.md'), '# Runbook\n\nRestart the worker, then check the queue.\n');
    const saved = await owner.run(['page', 'edit', pageId, '--file', 'runbook.md', '--base-version', String(version)]);
    expect(saved.code).toBe(0);
    expect((await page()).body.content).toBe('# Runbook\n\nRestart the worker, then check the queue.\n');
    const stale = await owner.run(['page', 'edit', pageId, '--file', 'runbook.md', '--base-version', String(version)]);
    expect(stale.code).toBe(1);
    const renamed = await owner.run(['page', 'edit', pageId, '--title', 'Ops runbook']);
    expect(renamed.stdout).toBe(`Updated Ops runbook (${pageId}).\n`);
    expect((await page()).body.page.title).toBe('Ops runbook');
    const view = await owner.run(['page', 'view', pageId]);
    expect(view.stdout).toMatch(/^Ops runbook {2}\(pg_\w+, content version \d+\)\n/);
    expect(view.stdout).toContain('then check the queue.');
  });
});
