import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { CalendarEvent } from '../../../../client';
import { api } from '../../lib/api';
import { useOrgId } from '../../lib/hooks';
import {
  Button,
  Checkbox,
  ErrorNote,
  Loading,
  PageTitle,
  Section,
  SelectField,
  TextArea,
  TextInput,
} from '../../ui/controls';
import { COLORS, NO_MAILBOX, useMailbox } from './common';
import { FreeBusy } from './free-busy';
import { RespondButtons, statusLabel } from './respond';
import { dayBefore, isoDay, parseDay, viewerZone, wallClock, zoneOptions } from './time';

type Recurrence = NonNullable<CalendarEvent['recurrence']>;
type Freq = Recurrence['freq'] | 'none';
type Ends = 'never' | 'until' | 'count';
type Scope = 'one' | 'following' | 'all';

interface Form {
  calendarId: string;
  summary: string;
  allDay: boolean;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  timeZone: string;
  location: string;
  description: string;
  attendees: string[];
  freq: Freq;
  interval: string;
  ends: Ends;
  until: string;
  count: string;
}

const FREQS: { id: Freq; label: string }[] = [
  { id: 'none', label: 'Does not repeat' },
  { id: 'daily', label: 'Daily' },
  { id: 'weekly', label: 'Weekly' },
  { id: 'monthly', label: 'Monthly' },
  { id: 'yearly', label: 'Yearly' },
];
const UNITS: Record<Recurrence['freq'], string> = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' };

/** Minutes of a `YYYY-MM-DDTHH:MM` wall clock, as if its zone had no offset (for arithmetic on wall clocks). */
const wallMinutes = (s: string) => Date.parse(`${s.slice(0, 16)}Z`) / 60_000;
const wallOf = (minutes: number) => new Date(minutes * 60_000).toISOString().slice(0, 16);

function ruleText(r: Recurrence | null): string {
  if (!r) return '';
  const every = r.interval > 1 ? `Every ${r.interval} ${UNITS[r.freq]}s` : FREQS.find((f) => f.id === r.freq)?.label;
  const end = r.count ? `, ${r.count} times` : r.until ? `, until ${r.until}` : '';
  return `${every}${end}`;
}

function recurrenceOf(f: Form): Recurrence | null {
  if (f.freq === 'none') return null;
  const interval = Math.max(1, Math.min(999, Number(f.interval) || 1));
  return {
    freq: f.freq,
    interval,
    ...(f.ends === 'until' && f.until ? { until: f.until } : {}),
    ...(f.ends === 'count' && f.count ? { count: Math.max(1, Number(f.count) || 1) } : {}),
  };
}

function timesOf(f: Form) {
  // An all-day event's last day is shown; the API's end is the day after it (exclusive).
  return f.allDay
    ? { start: f.startDate, end: isoDay(addOne(later(f.endDate, f.startDate))) }
    : { start: `${f.startDate}T${f.startTime}`, end: `${f.endDate}T${f.endTime}` };
}
/** The later of two `YYYY-MM-DD` dates. */
const later = (a: string, b: string) => [a, b].sort()[1] ?? a;

/** The day after (an all-day event's end is exclusive). */
function addOne(date: string): Date {
  const d = parseDay(date);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);
}

export default function EventPage() {
  const orgId = useOrgId();
  const { calendarId, eventId } = useParams();
  const { boxes, box } = useMailbox(orgId);
  if (boxes.isPending) return <Loading what="your mailboxes" />;
  if (boxes.error) return <ErrorNote error={boxes.error} />;
  if (!box) return <p>{NO_MAILBOX}</p>;
  return calendarId && eventId ? (
    <Existing orgId={orgId} mailboxId={box.mailboxId} address={box.address} calendarId={calendarId} eventId={eventId} />
  ) : (
    <NewEvent orgId={orgId} mailboxId={box.mailboxId} address={box.address} />
  );
}

function useCalendars(orgId: string, mailboxId: string) {
  return useQuery({
    queryKey: ['calendar', orgId, mailboxId, 'calendars'],
    queryFn: () => api().getMailMailboxesCalendars({ orgId, mailboxId }),
  });
}

const back = (orgId: string, mailboxId: string, date?: string) =>
  `/orgs/${orgId}/calendar?mailbox=${mailboxId}${date ? `&date=${date}` : ''}`;

function NewEvent({ orgId, mailboxId, address }: { orgId: string; mailboxId: string; address: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const cals = useCalendars(orgId, mailboxId);
  const date = isoDay(parseDay(params.get('date')));
  const initial: Form = {
    calendarId: '',
    summary: '',
    allDay: false,
    startDate: date,
    startTime: '09:00',
    endDate: date,
    endTime: '10:00',
    timeZone: viewerZone(),
    location: '',
    description: '',
    attendees: [],
    freq: 'none',
    interval: '1',
    ends: 'never',
    until: '',
    count: '10',
  };
  const create = useMutation({
    mutationFn: (f: Form) =>
      api().postMailMailboxesCalendarsEvents({
        orgId,
        mailboxId,
        calendarId: f.calendarId || (cals.data?.calendars[0]?.calendarId ?? ''),
        body: {
          summary: f.summary,
          allDay: f.allDay,
          ...timesOf(f),
          timeZone: f.timeZone,
          location: f.location,
          description: f.description,
          attendees: f.attendees.map((email) => ({ email })),
          recurrence: recurrenceOf(f),
        },
      }),
    onSuccess: async (_r, f) => {
      await client.invalidateQueries({ queryKey: ['calendar', orgId, mailboxId] });
      navigate(back(orgId, mailboxId, f.startDate));
    },
  });
  if (cals.isPending) return <Loading what="calendars" />;
  if (cals.error) return <ErrorNote error={cals.error} />;
  return (
    <div>
      <p className="text-sm">
        <Link to={back(orgId, mailboxId, date)}>Back to the calendar</Link>
      </p>
      <PageTitle title="New event">New event</PageTitle>
      <EventForm
        orgId={orgId}
        mailboxId={mailboxId}
        self={address}
        initial={initial}
        calendars={cals.data.calendars}
        submitLabel="Save"
        pending={create.isPending}
        error={create.error}
        onSubmit={(f) => create.mutate(f)}
      />
    </div>
  );
}

function Existing(props: { orgId: string; mailboxId: string; address: string; calendarId: string; eventId: string }) {
  const { orgId, mailboxId, calendarId, eventId } = props;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const occurrence = params.get('occurrence') ? Number(params.get('occurrence')) : undefined;
  const ids = { orgId, mailboxId, calendarId, eventId };
  const q = useQuery({
    queryKey: ['calendar', orgId, mailboxId, 'event', eventId],
    queryFn: () => api().getMailMailboxesCalendarsEventsByEventId(ids),
  });
  const cals = useCalendars(orgId, mailboxId);
  const [scope, setScope] = useState<Scope>('one');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const done = async (date?: string) => {
    await client.invalidateQueries({ queryKey: ['calendar', orgId, mailboxId] });
    navigate(back(orgId, mailboxId, date));
  };
  const save = useMutation({
    mutationFn: (f: Form) => saveEvent(ids, q.data?.event as CalendarEvent, occurrence, scope, f),
    onSuccess: (_r, f) => done(f.startDate),
  });
  const remove = useMutation({
    mutationFn: () => deleteEvent(ids, q.data?.event as CalendarEvent, occurrence, scope),
    onSuccess: () => done(),
  });
  if (q.isPending || cals.isPending) return <Loading what="the event" />;
  if (q.error) return <ErrorNote error={q.error} />;
  if (cals.error) return <ErrorNote error={cals.error} />;
  const e = q.data.event;
  const ex = occurrence !== undefined ? e.exceptions.find((x) => x.recurrenceId === occurrence) : undefined;
  const start = ex?.start ?? occurrence ?? e.start;
  const end = ex?.end ?? start + (e.end - e.start);
  const summary = ex?.summary ?? e.summary;
  const recurring = e.recurrence !== null && occurrence !== undefined;
  const calendar = cals.data.calendars.find((c) => c.calendarId === e.calendarId);
  const attendees = ex?.attendees ?? e.attendees;
  const myStatus = ex?.myStatus ?? e.myStatus;
  const zone = e.timeZone;
  const startWall = e.allDay
    ? (ex?.startLocal ?? (occurrence ? wallClock(start, zone) : e.startLocal))
    : wallClock(start, zone);
  const days = Math.round((Date.parse(e.endLocal.slice(0, 10)) - Date.parse(e.startLocal.slice(0, 10))) / 86_400_000);
  const lastDay = e.allDay
    ? dayBefore(
        ex?.endLocal?.slice(0, 10) ??
          new Date(Date.parse(startWall.slice(0, 10)) + days * 86_400_000).toISOString().slice(0, 10),
      )
    : '';
  const endWall = e.allDay ? lastDay : wallClock(end, zone);
  const initial: Form = {
    calendarId: e.calendarId,
    summary,
    allDay: e.allDay,
    startDate: startWall.slice(0, 10),
    startTime: startWall.slice(11, 16) || '09:00',
    endDate: endWall.slice(0, 10),
    endTime: endWall.slice(11, 16) || '10:00',
    timeZone: e.timeZone,
    location: ex?.location ?? e.location,
    description: e.description,
    attendees: e.attendees.map((a) => a.email),
    freq: e.recurrence?.freq ?? 'none',
    interval: String(e.recurrence?.interval ?? 1),
    ends: e.recurrence?.count ? 'count' : e.recurrence?.until ? 'until' : 'never',
    until: e.recurrence?.until ?? '',
    count: String(e.recurrence?.count ?? 10),
  };
  const editable = e.isOrganizer || e.attendees.length === 0;
  const whenText = e.allDay
    ? new Intl.DateTimeFormat(undefined, { dateStyle: 'full' }).formatRange(
        parseDay(startWall.slice(0, 10)),
        parseDay([startWall.slice(0, 10), lastDay].sort()[1] ?? lastDay),
      )
    : new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' }).formatRange(start, end);
  return (
    <div>
      <p className="text-sm">
        <Link to={back(orgId, mailboxId, isoDay(new Date(start)))}>Back to the calendar</Link>
      </p>
      <PageTitle title={summary || 'Event'}>{summary || '(No title)'}</PageTitle>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
        <dt className="font-medium">When</dt>
        <dd>
          {whenText}
          {!e.allDay && e.timeZone !== viewerZone() && (
            <span className="text-slate-700">
              {' '}
              ({e.timeZone.replace(/_/g, ' ')}: {startWall.slice(11)})
            </span>
          )}
        </dd>
        {e.recurrence && (
          <>
            <dt className="font-medium">Repeats</dt>
            <dd>{ruleText(e.recurrence)}</dd>
          </>
        )}
        {calendar && (
          <>
            <dt className="font-medium">Calendar</dt>
            <dd className="flex items-center gap-2">
              <span aria-hidden="true" className={`size-3 rounded-sm ${COLORS[calendar.color].bg}`} />
              {calendar.name}
            </dd>
          </>
        )}
        {(ex?.location ?? e.location) && (
          <>
            <dt className="font-medium">Location</dt>
            <dd>{ex?.location ?? e.location}</dd>
          </>
        )}
        {e.organizer && (
          <>
            <dt className="font-medium">Organizer</dt>
            <dd>{e.organizer.name ? `${e.organizer.name} <${e.organizer.email}>` : e.organizer.email}</dd>
          </>
        )}
      </dl>
      {e.description && <p className="mt-3 whitespace-pre-wrap text-sm">{e.description}</p>}
      {attendees.length > 0 && (
        <Section title="Guests">
          <ul className="space-y-1 text-sm">
            {attendees.map((a) => (
              <li key={a.email} className="flex flex-wrap gap-2">
                <span>{a.name ? `${a.name} <${a.email}>` : a.email}</span>
                <span
                  className="rounded-full bg-slate-100 px-2 text-xs leading-5 text-slate-900"
                  data-status={a.status}
                >
                  {statusLabel[a.status] ?? a.status}
                </span>
                {a.role === 'optional' && <span className="text-xs text-slate-700">optional</span>}
              </li>
            ))}
          </ul>
        </Section>
      )}
      {!e.isOrganizer && e.organizer && (
        <Section title="Going?">
          <p className="mb-2 text-sm">Your answer: {myStatus ? (statusLabel[myStatus] ?? myStatus) : 'none'}</p>
          <RespondButtons
            orgId={orgId}
            mailboxId={mailboxId}
            calendarId={calendarId}
            eventId={eventId}
            summary={summary}
            current={myStatus}
            recurrenceId={recurring && scope === 'one' ? occurrence : undefined}
          />
          {recurring && (
            <ScopeChoice
              value={scope === 'following' ? 'all' : scope}
              onChange={setScope}
              following={false}
              what="Answer for"
            />
          )}
        </Section>
      )}
      {editable && (
        <Section title="Edit event" id="edit-event">
          {recurring && <ScopeChoice value={scope} onChange={setScope} following what="Change" />}
          <EventForm
            orgId={orgId}
            mailboxId={mailboxId}
            self={props.address}
            initial={initial}
            calendars={cals.data.calendars}
            submitLabel="Save"
            pending={save.isPending}
            error={save.error}
            onSubmit={(f) => save.mutate(f)}
            lockCalendar
            occurrenceOnly={recurring && scope === 'one'}
          />
          <div className="mt-6">
            {confirmDelete ? (
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span>
                  Delete{' '}
                  {recurring
                    ? { one: 'this event', following: 'this and following events', all: 'all events' }[scope]
                    : 'this event'}
                  {attendees.length ? ' (guests are told)' : ''}?
                </span>
                <Button tone="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
                  Delete event
                </Button>
                <Button onPress={() => setConfirmDelete(false)}>Keep</Button>
              </div>
            ) : (
              <Button tone="danger" onPress={() => setConfirmDelete(true)}>
                Delete…
              </Button>
            )}
            <ErrorNote error={remove.error} />
          </div>
        </Section>
      )}
    </div>
  );
}

function ScopeChoice(props: { value: Scope; onChange: (s: Scope) => void; following: boolean; what: string }) {
  const name = useId();
  const options: { id: Scope; label: string }[] = [
    { id: 'one', label: 'This event' },
    ...(props.following ? [{ id: 'following' as Scope, label: 'This and following events' }] : []),
    { id: 'all', label: 'All events' },
  ];
  return (
    <fieldset className="min-w-0 mb-3 mt-2 text-sm">
      <legend className="font-medium">{props.what} (a repeating event)</legend>
      <div className="mt-1 flex flex-wrap gap-4">
        {options.map((o) => (
          <label key={o.id} className="flex min-h-8 items-center gap-2">
            <input
              type="radio"
              name={name}
              checked={props.value === o.id}
              onChange={() => props.onChange(o.id)}
              className="size-4"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

type Ids = { orgId: string; mailboxId: string; calendarId: string; eventId: string };

/** How many occurrences of the series start before `before` (the API's expansion, 399 days a call). */
async function occurrencesBefore(ids: Ids, e: CalendarEvent, before: number): Promise<number> {
  let n = 0;
  for (let from = e.start; from < before; from += 399 * 86_400_000) {
    const to = Math.min(before, from + 399 * 86_400_000);
    const { occurrences } = await api().getMailMailboxesEvents({
      orgId: ids.orgId,
      mailboxId: ids.mailboxId,
      from,
      to,
      calendarId: ids.calendarId,
    });
    n += occurrences.filter((o) => o.eventId === e.eventId && (o.recurrenceId ?? o.start) < before).length;
  }
  return n;
}

/**
 * Saves the form as the scope says: one occurrence (an exception, `recurrenceId`), the whole
 * series, or this and the following ones. The API has no "this and following": the series is
 * ended the day before this occurrence (UNTIL, in its own zone) and a new series starts here,
 * with what is left of a counted rule.
 */
async function saveEvent(ids: Ids, e: CalendarEvent, occurrence: number | undefined, scope: Scope, f: Form) {
  const times = timesOf(f);
  const recurrence = recurrenceOf(f);
  const attendees = f.attendees.map((email) => ({ email }));
  if (e.recurrence && occurrence !== undefined && scope === 'one') {
    return api().putMailMailboxesCalendarsEventsByEventId({
      ...ids,
      body: { recurrenceId: occurrence, summary: f.summary, location: f.location, ...times, timeZone: f.timeZone },
    });
  }
  const first = occurrence === undefined || occurrence === e.start;
  if (!e.recurrence || scope === 'all' || first) {
    // The series: its times move by as much as this occurrence's did.
    let seriesTimes: { start?: string; end?: string; timeZone?: string; allDay?: boolean } = {};
    const orig = occurrence !== undefined && !e.allDay ? wallClock(occurrence, e.timeZone) : e.startLocal;
    const moved =
      f.allDay !== e.allDay ||
      f.timeZone !== e.timeZone ||
      times.start !== orig.slice(0, times.start.length) ||
      times.end !== timesOfEvent(e, occurrence).slice(0, times.end.length);
    if (moved) {
      if (f.allDay) seriesTimes = { ...times, allDay: true, timeZone: f.timeZone };
      else {
        const delta = wallMinutes(times.start) - wallMinutes(orig);
        const length = wallMinutes(times.end) - wallMinutes(times.start);
        const start = wallOf(wallMinutes(e.allDay ? `${e.startLocal}T00:00` : e.startLocal) + delta);
        seriesTimes = { start, end: wallOf(wallMinutes(start) + length), timeZone: f.timeZone, allDay: false };
      }
    }
    const sameRule = JSON.stringify(recurrence) === JSON.stringify(e.recurrence ? normal(e.recurrence) : null);
    return api().putMailMailboxesCalendarsEventsByEventId({
      ...ids,
      body: {
        summary: f.summary,
        location: f.location,
        description: f.description,
        attendees,
        ...seriesTimes,
        ...(sameRule ? {} : { recurrence }),
      },
    });
  }
  // This and following.
  const day = e.allDay ? wallClock(occurrence, 'UTC').slice(0, 10) : wallClock(occurrence, e.timeZone).slice(0, 10);
  const until = dayBefore(day);
  let next = recurrence;
  if (next?.count && e.recurrence?.count && next.count === e.recurrence.count) {
    const before = await occurrencesBefore(ids, e, occurrence);
    next = { ...next, count: Math.max(1, e.recurrence.count - before) };
  }
  const { count: _count, ...rest } = normal(e.recurrence);
  await api().putMailMailboxesCalendarsEventsByEventId({ ...ids, body: { recurrence: { ...rest, until } } });
  return api().postMailMailboxesCalendarsEvents({
    orgId: ids.orgId,
    mailboxId: ids.mailboxId,
    calendarId: ids.calendarId,
    body: {
      summary: f.summary,
      allDay: f.allDay,
      ...times,
      timeZone: f.timeZone,
      location: f.location,
      description: f.description,
      attendees,
      recurrence: next,
    },
  });
}

/** A rule as the form writes it (the fields it knows), to tell whether the form changed it. */
function normal(r: Recurrence): Recurrence {
  const { freq, interval, count, until, ...more } = r;
  return {
    freq,
    interval,
    ...(until ? { until } : {}),
    ...(count ? { count } : {}),
    ...Object.fromEntries(Object.entries(more).filter(([, v]) => v !== undefined && (!Array.isArray(v) || v.length))),
  };
}

function timesOfEvent(e: CalendarEvent, occurrence: number | undefined): string {
  if (occurrence === undefined || e.allDay) return e.endLocal;
  return wallClock(occurrence + (e.end - e.start), e.timeZone);
}

async function deleteEvent(ids: Ids, e: CalendarEvent, occurrence: number | undefined, scope: Scope) {
  if (!e.recurrence || occurrence === undefined || scope === 'all' || occurrence === e.start) {
    if (e.recurrence && occurrence !== undefined && scope === 'one')
      return api().deleteMailMailboxesCalendarsEventsByEventId({ ...ids, recurrenceId: occurrence });
    return api().deleteMailMailboxesCalendarsEventsByEventId(ids);
  }
  if (scope === 'one') return api().deleteMailMailboxesCalendarsEventsByEventId({ ...ids, recurrenceId: occurrence });
  const day = e.allDay ? wallClock(occurrence, 'UTC').slice(0, 10) : wallClock(occurrence, e.timeZone).slice(0, 10);
  const { count: _count, ...rest } = normal(e.recurrence);
  return api().putMailMailboxesCalendarsEventsByEventId({
    ...ids,
    body: { recurrence: { ...rest, until: dayBefore(day) } },
  });
}

function DateTimeInput(props: { label: string; type: 'date' | 'time'; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="block text-sm">
      <label htmlFor={id} className="font-medium">
        {props.label}
      </label>
      <input
        id={id}
        type={props.type}
        required
        value={props.value}
        onChange={(ev) => props.onChange(ev.target.value)}
        className="mt-1 block min-h-10 w-full rounded-md border border-slate-400 bg-white px-2.5 py-1.5 text-sm outline-none focus:border-blue-700 focus:ring-2 focus:ring-blue-600"
      />
    </div>
  );
}

function EventForm(props: {
  orgId: string;
  mailboxId: string;
  self: string;
  initial: Form;
  calendars: { calendarId: string; name: string }[];
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (f: Form) => void;
  lockCalendar?: boolean;
  occurrenceOnly?: boolean;
}) {
  const [f, setF] = useState<Form>({
    ...props.initial,
    calendarId: props.initial.calendarId || (props.calendars[0]?.calendarId ?? ''),
  });
  const [guest, setGuest] = useState('');
  const set = (patch: Partial<Form>) => setF({ ...f, ...patch });
  const addGuest = () => {
    const emails = guest
      .split(/[\s,;]+/)
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s && !f.attendees.includes(s));
    if (emails.length) set({ attendees: [...f.attendees, ...emails] });
    setGuest('');
  };
  const zones = zoneOptions(props.initial.timeZone, viewerZone());
  return (
    <form
      className="mt-4 grid max-w-3xl gap-4"
      aria-label="Event"
      onSubmit={(ev) => {
        ev.preventDefault();
        props.onSubmit(f);
      }}
    >
      <TextInput label="Title" value={f.summary} onChange={(summary) => set({ summary })} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <DateTimeInput
          label="Start date"
          type="date"
          value={f.startDate}
          onChange={(startDate) => set({ startDate, endDate: later(f.endDate, startDate) })}
        />
        {!f.allDay && (
          <DateTimeInput
            label="Start time"
            type="time"
            value={f.startTime}
            onChange={(startTime) => set({ startTime })}
          />
        )}
        <DateTimeInput label="End date" type="date" value={f.endDate} onChange={(endDate) => set({ endDate })} />
        {!f.allDay && (
          <DateTimeInput label="End time" type="time" value={f.endTime} onChange={(endTime) => set({ endTime })} />
        )}
      </div>
      <div className="flex flex-wrap items-end gap-4">
        {!props.occurrenceOnly && (
          <Checkbox isSelected={f.allDay} onChange={(allDay) => set({ allDay })}>
            All day
          </Checkbox>
        )}
        {!f.allDay && (
          <SelectField
            label="Time zone"
            className="w-full sm:w-72"
            value={f.timeZone}
            onChange={(timeZone) => set({ timeZone })}
            options={zones.map((z) => ({ id: z, label: z.replace(/_/g, ' ') }))}
          />
        )}
      </div>
      {!props.occurrenceOnly && (
        <fieldset className="min-w-0 grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-3">
          <legend className="px-1 text-sm font-medium">Repeat</legend>
          <SelectField label="Repeats" value={f.freq} onChange={(freq) => set({ freq })} options={FREQS} />
          {f.freq !== 'none' && (
            <>
              <TextInput
                label={`Every (${UNITS[f.freq]}s)`}
                type="number"
                value={f.interval}
                onChange={(interval) => set({ interval })}
              />
              <SelectField
                label="Ends"
                value={f.ends}
                onChange={(ends) => set({ ends })}
                options={[
                  { id: 'never', label: 'Never' },
                  { id: 'until', label: 'On a date' },
                  { id: 'count', label: 'After a number of times' },
                ]}
              />
              {f.ends === 'until' && (
                <DateTimeInput label="Last date" type="date" value={f.until} onChange={(until) => set({ until })} />
              )}
              {f.ends === 'count' && (
                <TextInput label="Times" type="number" value={f.count} onChange={(count) => set({ count })} />
              )}
            </>
          )}
        </fieldset>
      )}
      {!props.lockCalendar && props.calendars.length > 1 && (
        <SelectField
          label="Calendar"
          value={f.calendarId}
          onChange={(calendarId) => set({ calendarId })}
          options={props.calendars.map((c) => ({ id: c.calendarId, label: c.name }))}
        />
      )}
      <TextInput label="Location" value={f.location} onChange={(location) => set({ location })} />
      {!props.occurrenceOnly && (
        <TextArea label="Description" value={f.description} onChange={(description) => set({ description })} />
      )}
      {!props.occurrenceOnly && (
        <fieldset className="min-w-0 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium">Guests</legend>
          <div className="flex flex-wrap items-end gap-2">
            <TextInput
              label="Add guests (email addresses)"
              className="min-w-0 flex-1"
              value={guest}
              onChange={setGuest}
            />
            <Button onPress={addGuest} isDisabled={!guest.trim()}>
              Add guest
            </Button>
          </div>
          {f.attendees.length > 0 && (
            <ul className="mt-2 space-y-1 text-sm">
              {f.attendees.map((a) => (
                <li key={a} className="flex items-center gap-2">
                  <span className="min-w-0 flex-1 truncate">{a}</span>
                  <Button
                    className="min-h-8 px-2 text-xs"
                    aria-label={`Remove ${a}`}
                    onPress={() => set({ attendees: f.attendees.filter((x) => x !== a) })}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {f.attendees.length > 0 && !f.allDay && (
            <FreeBusy
              orgId={props.orgId}
              mailboxId={props.mailboxId}
              self={props.self}
              people={f.attendees}
              day={f.startDate}
              proposed={{ start: f.startTime, end: f.endTime, zone: f.timeZone, date: f.startDate }}
            />
          )}
        </fieldset>
      )}
      <div>
        <Button type="submit" tone="primary" isDisabled={props.pending}>
          {props.pending ? 'Saving…' : props.submitLabel}
        </Button>
        <ErrorNote error={props.error} />
      </div>
    </form>
  );
}
