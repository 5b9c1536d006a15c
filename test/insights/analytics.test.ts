import { handler as analyticsWorker } from '../../functions/workers/analytics';
import { handler as buildsWorker } from '../../functions/workers/analytics-builds';
import { startWorkers } from '../../lib/local/workers';
import { workers } from '../../lib/workers';
import { awsAnalytics } from '../../shared/ports/analytics/aws';
import { keepAnalytics, takeAnalytics } from '../../shared/ports/analytics/local';
import { eventLine, logsEvent, readLogsEvent } from '../../shared/ports/analytics/logs';
import type { AnalyticsEvent } from '../../shared/ports/analytics/port';
import { buildStateChange } from '../../shared/ports/builds/events';
import { TestPlatform } from '../helpers/platform';
import { until } from '../helpers/until';

/**
 * Analytics: each request one event; the worker adds them to hourly counters once per batch; the
 * organization reads its series, totals and top routes.
 */
let p: TestPlatform;
let analytics: string;

beforeAll(async () => {
  p = await TestPlatform.start();
  analytics = `/v1/orgs/${p.org.orgId}/analytics`;
});
afterAll(() => p.close());

const payload = (events: AnalyticsEvent[], stream: string) =>
  logsEvent(
    '/aws/lambda/test',
    stream,
    events.map((e, i) => ({ id: `${stream}-${i}`, at: e.at, message: eventLine(e) })),
  );

test('the counters equal the requests made, per organization, project and route; a redelivered batch changes nothing', async () => {
  const stop = keepAnalytics();
  const org = p.org.orgId;
  let events: AnalyticsEvent[];
  try {
    for (let i = 0; i < 3; i++) expect((await p.get(`/v1/orgs/${org}/pages`)).status).toBe(200);
    expect((await p.post(`/v1/orgs/${org}/pages`, { title: '' })).status).toBe(400);
    for (let i = 0; i < 2; i++) expect((await p.get(`/v1/orgs/${org}/projects/prj_counted`)).status).toBe(404);
  } finally {
    events = takeAnalytics().filter((e) => e.orgId === org);
    stop();
  }
  expect(events).toHaveLength(6);
  expect(events.every((e) => e.caller === 'user' && e.durationMs >= 0)).toBe(true);
  const batch = payload(events, `stream-${Date.now()}`);
  expect(await analyticsWorker(batch)).toEqual({ events: 6, counted: 1 });

  const res = await p.get(analytics);
  expect(res.status).toBe(200);
  expect(res.body.totals).toMatchObject({ requests: 6, clientErrors: 3, serverErrors: 0 });
  expect(res.body.interval).toBe('hour');
  expect(res.body.series.length).toBeGreaterThanOrEqual(24);
  expect(res.body.series.reduce((n: number, s: { requests: number }) => n + s.requests, 0)).toBe(6);
  expect(res.body.topRoutes[0]).toEqual({
    route: 'GET /v1/orgs/:orgId/pages',
    requests: 3,
    clientErrors: 0,
    serverErrors: 0,
  });
  const project = await p.get(`${analytics}?projectId=prj_counted&interval=day`);
  expect(project.body.totals).toMatchObject({ requests: 2, clientErrors: 2 });
  expect(project.body.projectId).toBe('prj_counted');
  expect(project.body.topRoutes.map((r: { route: string }) => r.route)).toEqual([
    'GET /v1/orgs/:orgId/projects/:projectId',
  ]);

  // Delivered again (CloudWatch Logs retries a batch): nothing counted twice.
  expect(await analyticsWorker(batch)).toEqual({ events: 6, counted: 0 });
  expect((await p.get(analytics)).body.totals.requests).toBe(6);
});

test('domain counts: deployments created, issues opened and mail sent, from the actions that succeed', async () => {
  const orgId = `org_synthetic${Date.now()}`;
  const at = Date.now();
  const base = { at, orgId, group: 'x', durationMs: 4, caller: 'api_key' };
  const events: AnalyticsEvent[] = [
    {
      ...base,
      route: 'POST /v1/orgs/:orgId/projects/:projectId/deployments',
      action: 'projects.deployments.create',
      status: 202,
      projectId: 'prj_a',
    },
    { ...base, route: 'POST /v1/orgs/:orgId/repos/:name/issues', action: 'repos.issues.create', status: 201 },
    { ...base, route: 'POST /v1/orgs/:orgId/issues', action: 'issues.create', status: 201 },
    // A visitor's request to a deployed site: an edge request, not an API request.
    { ...base, group: 'edge', route: '-', action: 'edge.request', status: 200, projectId: 'prj_a' },
    {
      ...base,
      route: 'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/send',
      action: 'mail.mailboxes.send',
      status: 202,
    },
    {
      ...base,
      route: 'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/send',
      action: 'mail.mailboxes.send',
      status: 400,
    },
  ];
  expect(await analyticsWorker(payload(events, `domain-${at}`))).toEqual({ events: 6, counted: 1 });
  const { readSeries } = await import('../../shared/domains/insights/counters');
  const { totals } = await readSeries({ orgId, from: at - 1000, to: at + 1000, interval: 'hour' });
  expect(totals).toMatchObject({
    requests: 5,
    deploymentsCreated: 1,
    issuesCreated: 2,
    mailSent: 1,
    clientErrors: 1,
    durationMs: 20,
    edgeRequests: 1,
  });
  const project = await readSeries({ orgId, projectId: 'prj_a', from: at - 1000, to: at + 1000, interval: 'hour' });
  expect(project.totals).toMatchObject({ requests: 1, edgeRequests: 1 });
});

test('the default range ends with the current hour: two reads within it are the same answer (304 to its ETag)', async () => {
  const first = await p.get(analytics);
  expect(first.status).toBe(200);
  expect(first.body.to.endsWith(':59:59.999Z')).toBe(true);
  expect(first.body.series).toHaveLength(24);
  const etag = first.headers.get('etag') as string;
  const again = await p.get(analytics, { headers: { 'if-none-match': etag } });
  // Unless the hour turned between the two reads.
  if (again.status !== 304) expect(new Date().getUTCMinutes()).toBe(0);
  else expect(again.status).toBe(304);
});

test('builds that end add to the analytics once: succeeded, failed and their seconds', async () => {
  const org = p.org.orgId;
  const of = { orgId: org, projectId: 'prj_built', deploymentId: 'dpl_counted', target: 'preview' as const };
  const started = Date.now() - 90_000;
  const ok = buildStateChange(of, `build-ok-${started}`, 'SUCCEEDED', started);
  expect(await buildsWorker(ok)).toEqual({ counted: true });
  expect(await buildsWorker(ok)).toEqual({ counted: false });
  expect(await buildsWorker(buildStateChange(of, `build-bad-${started}`, 'FAILED', started))).toEqual({
    counted: true,
  });
  expect(await buildsWorker(buildStateChange(of, `build-run-${started}`, 'IN_PROGRESS', started))).toEqual({
    counted: false,
  });
  const res = await p.get(`${analytics}?projectId=prj_built`);
  expect(res.body.totals).toMatchObject({ buildsSucceeded: 1, buildsFailed: 1, requests: 0 });
  expect(res.body.totals.buildSeconds).toBeGreaterThanOrEqual(180);
});

test('`from` after `to` is 400, so is a range over 90 days; `interval` is hour or day', async () => {
  const now = Date.now();
  const reversed = await p.get(`${analytics}?from=${now}&to=${now - 1}`);
  expect(reversed.status).toBe(400);
  expect(reversed.body).toEqual({ error: '`from` is after `to`.' });
  const long = await p.get(`${analytics}?from=${now - 91 * 86_400_000}&to=${now}`);
  expect(long.status).toBe(400);
  expect(long.body).toEqual({ error: 'The range from `from` to `to` is at most 90 days.' });
  expect((await p.get(`${analytics}?interval=week`)).status).toBe(400);
  const days = await p.get(`${analytics}?from=2026-01-01&to=2026-01-03T12:00:00Z&interval=day`);
  expect(days.status).toBe(200);
  expect(days.body.series.map((s: { at: string }) => s.at)).toEqual([
    '2026-01-01T00:00:00.000Z',
    '2026-01-02T00:00:00.000Z',
    '2026-01-03T00:00:00.000Z',
  ]);
});

test('the local runner hands the kept events to the worker every second', async () => {
  const row = workers.filter((w) => w.name === 'analytics');
  expect(row).toHaveLength(1);
  const { org, owner } = await p.newOrg();
  const running = await startWorkers({ workers: row, runSchedulesAtStart: false });
  try {
    for (let i = 0; i < 4; i++)
      expect((await p.get(`/v1/orgs/${org.orgId}/pages`, { token: owner.token })).status).toBe(200);
    // The reads of the analytics count too, after they are answered: the first answer that saw the four.
    const seen = await until(async () => {
      const res = await p.get(`/v1/orgs/${org.orgId}/analytics`, { token: owner.token });
      return res.body.topRoutes.find((r: { route: string }) => r.route === 'GET /v1/orgs/:orgId/pages');
    });
    expect(seen.requests).toBe(4);
  } finally {
    await running.stop();
  }
});

test('on AWS an event is one log line, which the worker reads back from a subscription batch', async () => {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const event: AnalyticsEvent = {
    at: Date.now(),
    orgId: 'org_line',
    projectId: 'prj_line',
    group: 'projects',
    route: 'GET /v1/orgs/:orgId/projects/:projectId',
    action: 'projects.read',
    status: 200,
    durationMs: 12.5,
    caller: 'api_key',
  };
  try {
    await awsAnalytics().emit(event);
  } finally {
    spy.mockRestore();
  }
  expect(lines).toHaveLength(1);
  expect(lines[0]?.endsWith('\n')).toBe(true);
  const batch = logsEvent('/aws/lambda/projects', 'stream', [
    { id: '1', at: event.at, message: lines[0] as string },
    { id: '2', at: event.at, message: 'START RequestId: 1 Version: $LATEST' },
    { id: '3', at: event.at, message: '{"level":"info","message":"something else"}' },
  ]);
  const read = readLogsEvent(batch);
  expect(read.events).toEqual([event]);
  // The same batch is the same batch id; another stream another one.
  expect(readLogsEvent(batch).batchId).toBe(read.batchId);
  expect(readLogsEvent(logsEvent('/aws/lambda/projects', 'other', [])).batchId).not.toBe(read.batchId);
});
