import { Temporal } from 'temporal-polyfill';
import type { ServiceHours } from '../../shared/domains/tracker/model';
import { businessDue, businessMs } from '../../shared/domains/tracker/sla';
import { getItem } from '../../shared/kernel/store/table';
import { TIMER_PK } from '../../shared/ports/scheduler/local';
import type { Person, TestPlatform } from '../helpers/platform';
import { paths, trackerPlatform } from './platform';

/** SLA clocks: business time across a weekend, a holiday and a DST change; clocks on service issues. */
const H = 3_600_000;
const ny = (iso: string) => Temporal.ZonedDateTime.from(`${iso}[America/New_York]`).epochMilliseconds;

describe('business time', () => {
  // Weekdays 9-17 and Sundays around the clock (on call), New York; Monday 9 March 2026 is a
  // holiday, and clocks go forward on Sunday 8 March 2026 (that Sunday has 23 hours).
  const hours: ServiceHours = {
    timeZone: 'America/New_York',
    days: {
      1: ['09:00-17:00'],
      2: ['09:00-17:00'],
      3: ['09:00-17:00'],
      4: ['09:00-17:00'],
      5: ['09:00-17:00'],
      7: ['00:00-24:00'],
    },
    holidays: ['2026-03-09'],
  };

  it('counts Friday’s last hour, a 23-hour Sunday, no holiday Monday and Tuesday’s first hour', () => {
    const from = ny('2026-03-06T16:00');
    const to = ny('2026-03-10T10:00');
    expect(businessMs(from, to, hours)).toBe(25 * H);
    expect(businessDue(from, 25 * H, hours)).toBe(to);
    expect(businessDue(from, 1 * H, hours)).toBe(ny('2026-03-06T17:00'));
    // The hour after Friday's close starts at Sunday's midnight.
    expect(businessDue(from, 1 * H + 1, hours)).toBe(ny('2026-03-08T00:00') + 1);
    expect(businessMs(to, from, hours)).toBe(0);
  });

  it('counts nothing on a closed weekend and the right hours in another zone', () => {
    const weekdays: ServiceHours = {
      timeZone: 'Europe/Berlin',
      days: { 1: ['09:00-12:00', '13:00-17:00'] },
      holidays: [],
    };
    const sat = Temporal.ZonedDateTime.from('2026-10-24T10:00[Europe/Berlin]').epochMilliseconds;
    const mon = Temporal.ZonedDateTime.from('2026-10-26T14:00[Europe/Berlin]').epochMilliseconds;
    // Clocks went back on Sunday 25 October: Monday still counts 9-12 and 13-14.
    expect(businessMs(sat, mon, weekdays)).toBe(4 * H);
  });
});

describe('SLA clocks on service issues', () => {
  let p: TestPlatform;
  let t: ReturnType<typeof paths>;
  let agent: Person;

  beforeAll(async () => {
    p = await trackerPlatform('tracker-sla');
    t = paths(p);
    agent = await p.person('developer');
    await p.post(t.spaces, { key: 'HELP', name: 'Help', template: 'service' });
  });
  afterAll(() => p.close());

  it('starts both clocks, schedules their breach, pauses while waiting for the customer, stops on a reply and on resolution', async () => {
    const issue = (await p.post(t.base, { space: 'HELP', summary: 'VPN down', requestType: 'Report a system problem' }))
      .body.issue;
    expect(issue).toMatchObject({ typeId: 'incident', requestTypeId: 'report-incident', statusId: 'waiting-support' });
    expect(Object.keys(issue.sla)).toEqual(['first-response', 'resolution']);
    expect(issue.sla.resolution).toMatchObject({
      elapsed: expect.any(Number),
      goal: 16 * H,
      calendar: 'business',
      runningSince: issue.createdAt,
    });
    const timer = await getItem<{ at: number; message: { event: { kind: string } } }>({
      pk: TIMER_PK,
      sk: `sla.${issue.issueId}.resolution`,
    });
    expect(timer?.message.event.kind).toBe('issue.sla_breached');
    expect(timer?.at).toBeGreaterThan(issue.createdAt);
    // A reply by someone else stops "first response".
    await p.post(`${t.issue(issue.key)}/comments`, { body: 'Looking into it' }, { token: agent.token });
    const replied = (await p.get(t.issue(issue.key))).body.issue;
    expect(replied.sla['first-response']).toMatchObject({ stopped: true, stoppedAt: expect.any(Number) });
    expect(await getItem({ pk: TIMER_PK, sk: `sla.${issue.issueId}.first-response` })).toBeUndefined();
    // Waiting for the customer pauses "resolution" and cancels its timer; back to support resumes it.
    await p.post(`${t.issue(issue.key)}/transitions`, { transition: 'Respond to customer' });
    const waiting = (await p.get(t.issue(issue.key))).body.issue;
    expect(waiting.sla.resolution).toMatchObject({ paused: true });
    expect(waiting.sla.resolution.runningSince).toBeUndefined();
    expect(await getItem({ pk: TIMER_PK, sk: `sla.${issue.issueId}.resolution` })).toBeUndefined();
    await p.post(`${t.issue(issue.key)}/transitions`, { transition: 'Back to support' });
    const back = (await p.get(t.issue(issue.key))).body.issue;
    expect(back.sla.resolution.runningSince).toEqual(expect.any(Number));
    expect(await getItem({ pk: TIMER_PK, sk: `sla.${issue.issueId}.resolution` })).toBeDefined();
    const resolved = await p.post(`${t.issue(issue.key)}/transitions`, {
      transition: 'resolve',
      fields: { resolution: 'Done' },
    });
    expect(resolved.body.issue.sla.resolution).toMatchObject({ stopped: true });
    expect(await getItem({ pk: TIMER_PK, sk: `sla.${issue.issueId}.resolution` })).toBeUndefined();
  });

  it('marks a clock past its goal breached', async () => {
    await p.patch(t.space('HELP'), {
      config: {
        servicedesk: {
          slas: [
            {
              id: 'instant',
              name: 'Instant',
              start: ['created'],
              pause: [],
              stop: ['resolved'],
              goals: [{ minutes: 0, calendar: 'always' }],
            },
          ],
        },
      },
    });
    const issue = (await p.post(t.base, { space: 'HELP', summary: 'Now!' })).body.issue;
    const timer = await getItem<{ at: number }>({ pk: TIMER_PK, sk: `sla.${issue.issueId}.instant` });
    expect(timer?.at).toBe(issue.createdAt);
    await new Promise((r) => setTimeout(r, 5));
    const got = (await p.get(t.issue(issue.key))).body.issue;
    expect(got.sla.instant).toMatchObject({ breached: true, goal: 0 });
  });

  it('picks each SLA’s goal by its goals’ queries (the first that matches), on create, edits and transitions', async () => {
    await p.post(t.spaces, { key: 'DESK', name: 'Desk', template: 'service' });
    const slas = (goals: { query?: string; minutes: number; calendar: string }[]) => ({
      config: {
        servicedesk: {
          slas: [{ id: 'fix', name: 'Time to fix', start: ['created'], pause: [], stop: ['resolved'], goals }],
        },
      },
    });
    const bad = await p.patch(t.space('DESK'), slas([{ query: 'priority = ', minutes: 60, calendar: 'always' }]));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ line: 1, column: expect.any(Number) });
    const set = await p.patch(
      t.space('DESK'),
      slas([
        { query: 'status = "In Progress"', minutes: 120, calendar: 'always' },
        { query: 'priority = Highest', minutes: 60, calendar: 'always' },
        { query: 'type = "Service request"', minutes: 24 * 60, calendar: 'business' },
        { minutes: 8 * 60, calendar: 'business' },
      ]),
    );
    expect(set.status).toBe(200);
    const urgent = (await p.post(t.base, { space: 'DESK', summary: 'All down', priority: 'Highest' })).body.issue;
    expect(urgent.sla.fix).toMatchObject({ goal: H, calendar: 'always' });
    const request = (await p.post(t.base, { space: 'DESK', summary: 'New laptop', priority: 'Low' })).body.issue;
    expect(request.sla.fix).toMatchObject({ goal: 24 * H, calendar: 'business' });
    const plain = (await p.post(t.base, { space: 'DESK', summary: 'Slow page', priority: 'Low', type: 'Incident' }))
      .body.issue;
    expect(plain.sla.fix).toMatchObject({ goal: 8 * H, calendar: 'business' });
    // Raising the priority brings the tighter goal, and its breach timer moves with it.
    const raised = (await p.put(t.issue(plain.key), { priority: 'Highest' })).body.issue;
    expect(raised.sla.fix).toMatchObject({ goal: H, calendar: 'always' });
    const timer = await getItem<{ at: number }>({ pk: TIMER_PK, sk: `sla.${plain.issueId}.fix` });
    expect(timer?.at).toBeLessThanOrEqual(plain.createdAt + H);
    // A transition moves it too: in progress, the first goal applies.
    const started = await p.post(`${t.issue(request.key)}/transitions`, { transition: 'Start progress' });
    expect(started.body.issue.sla.fix).toMatchObject({ goal: 2 * H, calendar: 'always' });
  });
});
