import { useQueries } from '@tanstack/react-query';
import type { Occurrence } from '../../../../client';
import { api } from '../../lib/api';
import { useMailboxes } from './common';
import { addDays, parseDay, timeOf } from './time';

type Span = { start: number; end: number };

const busy = (o: Occurrence) =>
  !o.allDay && o.busyStatus !== 'free' && o.status !== 'cancelled' && o.myStatus !== 'declined';

/** Wall clock `date`T`time` in `zone` as UTC ms (two passes of the zone's offset, enough for a form's hint). */
function instantOf(date: string, time: string, zone: string): number {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const offset = (at: number) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      })
        .formatToParts(at)
        .map((x) => [x.type, Number(x.value)]),
    ) as Record<string, number>;
    const n = (k: string) => p[k] ?? 0;
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute')) - at;
  };
  const first = guess - offset(guess);
  return guess - offset(first);
}

/**
 * Busy times of the guests on the event's day. The API has no free/busy lookup across mailboxes,
 * so this shows what the viewer can see: a guest whose mailbox the viewer is a member of shows that
 * mailbox's busy times; any other guest is busy at the viewer's own events that list them (as a
 * guest who has not declined, or as the organizer).
 */
export function FreeBusy(props: {
  orgId: string;
  mailboxId: string;
  self: string;
  people: string[];
  day: string;
  proposed: { date: string; start: string; end: string; zone: string };
}) {
  const { orgId } = props;
  const day = parseDay(props.day);
  const from = day.getTime();
  const to = addDays(day, 1).getTime();
  const boxes = useMailboxes(orgId).data?.mailboxes ?? [];
  const lists = useQueries({
    queries: boxes.map((b) => ({
      queryKey: ['calendar', orgId, b.mailboxId, 'occurrences', from, to, 'all'],
      queryFn: () => api().getMailMailboxesEvents({ orgId, mailboxId: b.mailboxId, from, to }),
    })),
  });
  const own = lists[boxes.findIndex((b) => b.mailboxId === props.mailboxId)]?.data?.occurrences ?? [];
  const withGuests = own.filter((o) => busy(o) && (o.attendees > 0 || !o.isOrganizer));
  const details = useQueries({
    queries: [...new Set(withGuests.map((o) => `${o.calendarId}/${o.eventId}`))].map((key) => {
      const [calendarId, eventId] = key.split('/') as [string, string];
      return {
        queryKey: ['calendar', orgId, props.mailboxId, 'event', eventId],
        queryFn: () =>
          api().getMailMailboxesCalendarsEventsByEventId({ orgId, mailboxId: props.mailboxId, calendarId, eventId }),
      };
    }),
  });
  const events = new Map(details.flatMap((d) => (d.data ? [[d.data.event.eventId, d.data.event] as const] : [])));
  const spansOf = (email: string): Span[] | null => {
    const i = boxes.findIndex((b) => b.address === email || b.aliases.includes(email));
    if (i >= 0) return (lists[i]?.data?.occurrences ?? []).filter(busy);
    return withGuests.filter((o) => {
      const e = events.get(o.eventId);
      if (!e) return false;
      if (e.organizer?.email === email) return true;
      return e.attendees.some((a) => a.email === email && a.status !== 'declined');
    });
  };
  const startMs = instantOf(props.proposed.date, props.proposed.start, props.proposed.zone);
  const endMs = instantOf(props.proposed.date, props.proposed.end, props.proposed.zone);
  const pct = (ms: number) => `${(Math.min(Math.max(ms - from, 0), to - from) / (to - from)) * 100}%`;
  const rows = [props.self, ...props.people.filter((p) => p !== props.self)];
  return (
    <section aria-labelledby="free-busy-heading" className="mt-3">
      <h3 id="free-busy-heading" className="text-sm font-semibold">
        Free/busy on this day
      </h3>
      <p className="text-xs text-slate-700">
        From the calendars you can see: your mailboxes', and your events that list the guest.
      </p>
      <ul className="mt-2 space-y-2">
        {rows.map((email) => {
          const spans = spansOf(email) ?? [];
          const clash = spans.some((s) => s.start < endMs && s.end > startMs);
          return (
            <li key={email} className="text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="min-w-0 truncate">{email === props.self ? `${email} (you)` : email}</span>
                <span className={`text-xs ${clash ? 'font-semibold text-red-800' : 'text-slate-700'}`}>
                  {spans.length === 0
                    ? 'No busy times seen'
                    : `Busy ${spans.map((s) => `${timeOf(s.start)}–${timeOf(s.end)}`).join(', ')}${clash ? ' (conflict)' : ''}`}
                </span>
              </div>
              <div aria-hidden="true" className="relative mt-1 h-3 rounded bg-slate-100">
                {spans.map((s) => (
                  <span
                    key={`${s.start}-${s.end}`}
                    className="absolute inset-y-0 rounded bg-slate-600"
                    style={{ left: pct(s.start), width: `calc(${pct(s.end)} - ${pct(s.start)})` }}
                  />
                ))}
                <span
                  className="absolute inset-y-0 rounded border-2 border-blue-700"
                  style={{ left: pct(startMs), width: `calc(${pct(endMs)} - ${pct(startMs)})` }}
                />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
