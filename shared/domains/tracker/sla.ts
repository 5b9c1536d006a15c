import { Temporal } from 'temporal-polyfill';
import { scheduler, timerKey } from '../../ports/scheduler';
import type { NotifyMessage } from '../notifications/raise';
import { statusById } from './catalog';
import type { ServiceHours, SlaClock, SlaDefinition, SlaGoal, Space, TrackedIssue } from './model';
import type { Actor } from './records';

/**
 * Service SLAs (Jira Service Management's "Time to first response", "Time to resolution"): a clock
 * per SLA on the issue (`issue.sla`). It starts when the issue is created, pauses while the issue
 * is in a `pause` status (`status:<id>`), and stops on a `stop` condition (`commented`: a comment by
 * someone other than the reporter; `resolved`: a done status; `status:<id>`). `elapsed` is the
 * running intervals' overlap with the business-hours calendar (its zone, days and holidays, DST
 * included, with Temporal), or plain time for `always` goals.
 */

const DAY_LIMIT = 3 * 366;

function ranges(hours: ServiceHours, date: Temporal.PlainDate): [number, number][] {
  if (hours.holidays.includes(date.toString())) return [];
  const out: [number, number][] = [];
  for (const range of hours.days[String(date.dayOfWeek)] ?? []) {
    const [a, b] = range.split('-') as [string, string];
    const at = (t: string) =>
      date.toZonedDateTime({
        timeZone: hours.timeZone,
        plainTime: Temporal.PlainTime.from(t === '24:00' ? '23:59:59.999' : t),
      }).epochMilliseconds;
    const start = at(a);
    const end = b === '24:00' ? at(b) + 1 : at(b);
    if (end > start) out.push([start, end]);
  }
  return out;
}

const dateOf = (ms: number, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone).toPlainDate();

/** Business milliseconds between `from` and `to`: their overlap with the calendar's open hours. */
export function businessMs(from: number, to: number, hours: ServiceHours): number {
  if (to <= from) return 0;
  let total = 0;
  let date = dateOf(from, hours.timeZone);
  const last = dateOf(to, hours.timeZone);
  for (let i = 0; i < DAY_LIMIT && Temporal.PlainDate.compare(date, last) <= 0; i++) {
    for (const [s, e] of ranges(hours, date)) total += Math.max(0, Math.min(e, to) - Math.max(s, from));
    date = date.add({ days: 1 });
  }
  return total;
}

/** When `remaining` business milliseconds will have passed after `from` (undefined: never within 3 years). */
export function businessDue(from: number, remaining: number, hours: ServiceHours): number | undefined {
  if (remaining <= 0) return from;
  let left = remaining;
  let date = dateOf(from, hours.timeZone);
  for (let i = 0; i < DAY_LIMIT; i++) {
    for (const [s, e] of ranges(hours, date)) {
      const start = Math.max(s, from);
      if (e <= start) continue;
      if (e - start >= left) return start + left;
      left -= e - start;
    }
    date = date.add({ days: 1 });
  }
  return undefined;
}

const hoursOf = (space: Space, clock: Pick<SlaClock, 'calendar'>) =>
  clock.calendar === 'business' && space.config.servicedesk ? space.config.servicedesk.hours : undefined;

/** Elapsed time of a clock as of `now` (its running interval counted up to now). */
export function elapsedAt(space: Space, clock: SlaClock, now: number): number {
  if (clock.runningSince === undefined) return clock.elapsed;
  const hours = hoursOf(space, clock);
  return clock.elapsed + (hours ? businessMs(clock.runningSince, now, hours) : now - clock.runningSince);
}

/** When a running clock reaches its goal (undefined: not running, no goal, or never). */
export function breachAt(space: Space, clock: SlaClock): number | undefined {
  if (clock.runningSince === undefined || clock.goal === undefined || clock.stopped) return undefined;
  const left = clock.goal - clock.elapsed;
  const hours = hoursOf(space, clock);
  return hours ? businessDue(clock.runningSince, left, hours) : clock.runningSince + Math.max(0, left);
}

const slasOf = (space: Space): SlaDefinition[] => space.config.servicedesk?.slas ?? [];

/** The clocks of a new issue in a service space: each SLA started, unless it starts paused. */
export function startClocks(space: Space, statusId: string, now: number): Record<string, SlaClock> {
  const out: Record<string, SlaClock> = {};
  for (const sla of slasOf(space)) {
    if (!sla.start.includes('created')) continue;
    const goal = sla.goals[0];
    const paused = sla.pause.includes(`status:${statusId}`);
    out[sla.id] = {
      elapsed: 0,
      calendar: goal?.calendar ?? 'always',
      ...(goal ? { goal: goal.minutes * 60_000 } : {}),
      startedAt: now,
      ...(paused ? { paused: true } : { runningSince: now }),
    };
  }
  return out;
}

/**
 * Each running SLA's goal for the issue, picked as Jira picks it: the first of its goals whose JQL
 * `query` matches the issue (a goal without one matches every issue; none matching: no goal). A
 * query that can no longer run (a catalog value deleted since) is passed over. Answers the clocks
 * with the goals that changed, or undefined when none did (or no SLA has goal queries).
 */
export async function clocksWithGoals(
  actor: Actor,
  space: Space,
  issue: TrackedIssue,
): Promise<Record<string, SlaClock> | undefined> {
  const slas = slasOf(space).filter((s) => s.goals.some((g) => g.query?.trim()));
  if (slas.length === 0) return undefined;
  const [{ compileJql }, { jqlContext }] = await Promise.all([import('./jql'), import('./jql-context')]);
  const ctx = await jqlContext(actor, [space]);
  const matches = async (goal: SlaGoal) => {
    if (!goal.query?.trim()) return true;
    try {
      return (await compileJql(goal.query, ctx)).matches(issue);
    } catch {
      return false;
    }
  };
  const out = { ...issue.sla };
  let changed = false;
  for (const sla of slas) {
    const clock = out[sla.id];
    if (!clock || clock.stopped) continue;
    let chosen: SlaGoal | undefined;
    for (const goal of sla.goals) {
      if (await matches(goal)) {
        chosen = goal;
        break;
      }
    }
    const goal = chosen ? chosen.minutes * 60_000 : undefined;
    const calendar = chosen?.calendar ?? clock.calendar;
    if (goal === clock.goal && calendar === clock.calendar) continue;
    const { goal: _old, ...rest } = clock;
    out[sla.id] = { ...rest, calendar, ...(goal !== undefined ? { goal } : {}) };
    changed = true;
  }
  return changed ? out : undefined;
}

export type SlaEvent = { kind: 'status'; to: string } | { kind: 'commented'; byReporter: boolean };

/**
 * The clocks after an event: a stop condition stops a clock (its elapsed time fixed, `breached`
 * when past its goal); a pause status pauses it, leaving one resumes it. Unchanged: undefined.
 */
export function clocksAfter(
  space: Space,
  issue: TrackedIssue,
  event: SlaEvent,
  now: number,
): Record<string, SlaClock> | undefined {
  let changed = false;
  const out: Record<string, SlaClock> = { ...issue.sla };
  for (const sla of slasOf(space)) {
    const clock = out[sla.id];
    if (!clock || clock.stopped) continue;
    const stops =
      event.kind === 'commented'
        ? !event.byReporter && sla.stop.includes('commented')
        : sla.stop.includes(`status:${event.to}`) ||
          (sla.stop.includes('resolved') && statusById(event.to)?.category === 'done');
    const pauses = event.kind === 'status' && sla.pause.includes(`status:${event.to}`);
    const elapsed = elapsedAt(space, clock, now);
    const over = clock.goal !== undefined && elapsed > clock.goal;
    let next: SlaClock | undefined;
    if (stops) {
      next = { ...clock, elapsed, stopped: true, stoppedAt: now, ...(over ? { breached: true } : {}) };
      delete next.runningSince;
      delete next.paused;
    } else if (pauses && clock.runningSince !== undefined) {
      next = { ...clock, elapsed, paused: true, ...(over ? { breached: true } : {}) };
      delete next.runningSince;
    } else if (event.kind === 'status' && !pauses && clock.paused) {
      next = { ...clock, runningSince: now };
      delete next.paused;
    }
    if (next) {
      out[sla.id] = next;
      changed = true;
    }
  }
  return changed ? out : undefined;
}

/** The breach timer of an issue's SLA. */
export const slaTimer = (issueId: string, slaId: string) => timerKey('sla', issueId, slaId);

/**
 * Keeps each clock's breach timer in step (shared/ports/scheduler): a running clock with a goal gets
 * `issue.sla_breached` scheduled for the moment it reaches it (a fixed event id per issue and SLA:
 * raised once); a paused, stopped or breached clock has its timer cancelled.
 */
export async function syncSlaTimers(space: Space, issue: TrackedIssue): Promise<void> {
  if (!space.config.servicedesk) return;
  for (const sla of slasOf(space)) {
    const clock = issue.sla[sla.id];
    if (!clock) continue;
    const key = slaTimer(issue.issueId, sla.id);
    const at = breachAt(space, clock);
    if (at === undefined) {
      await scheduler().cancel(key);
      continue;
    }
    const message: NotifyMessage = {
      type: 'event',
      event: {
        eventId: `evt_sla_${issue.issueId.slice(4)}_${sla.id}`.slice(0, 64),
        kind: 'issue.sla_breached',
        orgId: issue.orgId,
        at,
        resources: [{ type: 'space', id: space.spaceId }],
        attributes: { space: space.key, key: `${space.key}-${issue.number}`, sla: sla.name },
        people: issue.assigneeId ? [issue.assigneeId] : [],
        title: `${space.key}-${issue.number} breached "${sla.name}": ${issue.summary}`,
      },
    };
    await scheduler().schedule(key, at, message);
  }
}
