import { ruleFits, stepDue } from '../../shared/domains/notifications/deliver';
import { noticeIdOf } from '../../shared/domains/notifications/notices';
import { quietUntil } from '../../shared/domains/notifications/settings';

/** The pure rules of delivery: which rule fits, when a step is due, quiet hours, notice ids. */
const at = (iso: string) => Date.parse(iso);

describe('ruleFits', () => {
  const rule = { events: ['deployment.failed' as const], steps: [{ afterMinutes: 0, channels: ['inapp' as const] }] };
  it('needs the kind, and one listed value of each match attribute', () => {
    const event = { kind: 'deployment.failed' as const, attributes: { target: 'production', projectId: 'prj_1' } };
    expect(ruleFits(rule, event)).toBe(true);
    expect(ruleFits({ ...rule, events: ['deployment.ready'] }, event)).toBe(false);
    expect(ruleFits({ ...rule, match: { target: ['production', 'staging'] } }, event)).toBe(true);
    expect(ruleFits({ ...rule, match: { target: ['preview'] } }, event)).toBe(false);
    expect(ruleFits({ ...rule, match: { branch: ['main'] } }, event)).toBe(false);
  });
});

describe('stepDue', () => {
  const steps = [
    { afterMinutes: 15, channels: ['inapp' as const] },
    { afterMinutes: 5, channels: ['email' as const] },
  ];
  it('counts after the event, or before the time it is about; step 0 at once', () => {
    const from = at('2026-03-01T10:00:00Z');
    expect(stepDue({ steps, stepsFrom: from, beforeEvent: false }, 0)).toBe(0);
    expect(stepDue({ steps, stepsFrom: from, beforeEvent: false }, 1)).toBe(from + 5 * 60_000);
    expect(stepDue({ steps, stepsFrom: from, beforeEvent: true }, 1)).toBe(from - 5 * 60_000);
  });
});

describe('quietUntil', () => {
  const night = { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' };
  it('holds across midnight in the person’s zone, until the end of the window', () => {
    // 23:30 in Berlin (UTC+1 in winter): quiet until 07:00 Berlin, 06:00 UTC.
    expect(quietUntil(night, at('2026-01-15T22:30:00Z'))).toBe(at('2026-01-16T06:00:00Z'));
    // 06:59 Berlin: one minute left.
    expect(quietUntil(night, at('2026-01-16T05:59:00Z'))).toBe(at('2026-01-16T06:00:00Z'));
    // 07:00 and noon: not quiet.
    expect(quietUntil(night, at('2026-01-16T06:00:00Z'))).toBeUndefined();
    expect(quietUntil(night, at('2026-01-16T11:00:00Z'))).toBeUndefined();
  });
  it('follows summer time, and takes a window within one day', () => {
    // 23:00 in Berlin in July is 21:00 UTC.
    expect(quietUntil(night, at('2026-07-15T21:00:00Z'))).toBe(at('2026-07-16T05:00:00Z'));
    const lunch = { start: '12:00', end: '13:00', timeZone: 'UTC' };
    expect(quietUntil(lunch, at('2026-07-15T12:30:15Z'))).toBe(at('2026-07-15T13:00:00Z'));
    expect(quietUntil(lunch, at('2026-07-15T13:00:00Z'))).toBeUndefined();
    expect(quietUntil({ ...lunch, end: '12:00' }, at('2026-07-15T12:00:00Z'))).toBeUndefined();
    expect(quietUntil(null, at('2026-07-15T12:00:00Z'))).toBeUndefined();
  });
});

describe('noticeIdOf', () => {
  it('one id per event and person, sorted by the event’s time', () => {
    const a = { eventId: 'evt_01m8b4xv73e4kqqe0g6qfrsy6c' };
    const b = { eventId: 'evt_01m8b4xz00e4kqqe0g6qfrsy6c' };
    expect(noticeIdOf(a, 'usr_1')).toBe(noticeIdOf(a, 'usr_1'));
    expect(noticeIdOf(a, 'usr_1')).not.toBe(noticeIdOf(a, 'usr_2'));
    expect(noticeIdOf(a, 'usr_1') < noticeIdOf(b, 'usr_1')).toBe(true);
    expect(noticeIdOf(a, 'usr_1')).toMatch(/^nte_01m8b4xv73[0-9a-f]{16}$/);
  });
});
