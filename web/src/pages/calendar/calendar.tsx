import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Calendar, Occurrence } from '../../../../client';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useOrgId } from '../../lib/hooks';
import { Button, Checkbox, Done, ErrorNote, Loading, PageTitle, SelectField, TextInput } from '../../ui/controls';
import { COLOR_IDS, COLORS, FilePicker, fileName, MailboxPicker, NO_MAILBOX, saveFile, useMailbox } from './common';
import { RespondButtons } from './respond';
import {
  addDays,
  dayOf,
  hourLabel,
  isoDay,
  minutesInDay,
  parseDay,
  rangeOf,
  sameDay,
  shortDayOf,
  step,
  timeOf,
  titleOf,
  VIEWS,
  type View,
  zoneLabel,
} from './time';

const HOUR_PX = 48;

type Ctx = { orgId: string; mailboxId: string; calendars: Calendar[] };

/** Which calendars the viewer hid (kept in the browser, per mailbox). */
function useHidden(mailboxId: string) {
  const key = `calendar.hidden.${mailboxId}`;
  const [hidden, setHidden] = useState<string[]>(() => {
    try {
      return JSON.parse(localStorage.getItem(key) ?? '[]') as string[];
    } catch {
      return [];
    }
  });
  const toggle = (id: string, shown: boolean) => {
    const next = shown ? hidden.filter((h) => h !== id) : [...hidden, id];
    setHidden(next);
    localStorage.setItem(key, JSON.stringify(next));
  };
  return { hidden, toggle };
}

export default function CalendarPage() {
  const orgId = useOrgId();
  const { boxes, list, box, choose } = useMailbox(orgId);
  if (boxes.isPending) return <Loading what="your mailboxes" />;
  if (boxes.error) return <ErrorNote error={boxes.error} />;
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle title="Calendar">Calendar</PageTitle>
        {box && <MailboxPicker list={list} value={box.mailboxId} onChange={choose} />}
      </div>
      {box ? (
        <Mailbox key={box.mailboxId} orgId={orgId} mailboxId={box.mailboxId} />
      ) : (
        <p className="mt-4">{NO_MAILBOX}</p>
      )}
    </div>
  );
}

function Mailbox({ orgId, mailboxId }: { orgId: string; mailboxId: string }) {
  const [params, setParams] = useSearchParams();
  const view = (VIEWS.find((v) => v.id === params.get('view'))?.id ?? 'week') as View;
  const day = parseDay(params.get('date'));
  const { hidden, toggle } = useHidden(mailboxId);
  const cals = useQuery({
    queryKey: ['calendar', orgId, mailboxId, 'calendars'],
    queryFn: () => api().getMailMailboxesCalendars({ orgId, mailboxId }),
  });
  const calendars = cals.data?.calendars ?? [];
  const shown = calendars.filter((c) => !hidden.includes(c.calendarId)).map((c) => c.calendarId);
  const { first, end } = rangeOf(view, day);
  const occ = useQuery({
    queryKey: ['calendar', orgId, mailboxId, 'occurrences', first.getTime(), end.getTime(), shown.join(',')],
    queryFn: () =>
      api().getMailMailboxesEvents({
        orgId,
        mailboxId,
        from: first.getTime(),
        to: end.getTime(),
        calendarId: shown.join(','),
      }),
    enabled: shown.length > 0,
  });
  const go = (next: Partial<{ view: View; date: Date }>) => {
    const p = new URLSearchParams(params);
    p.set('view', next.view ?? view);
    p.set('date', isoDay(next.date ?? day));
    setParams(p);
  };
  const link = (v: View, d: Date) => {
    const p = new URLSearchParams(params);
    p.set('view', v);
    p.set('date', isoDay(d));
    return `?${p}`;
  };
  const ctx: Ctx = { orgId, mailboxId, calendars };
  const occurrences = shown.length ? (occ.data?.occurrences ?? []) : [];
  const newEvent = `/orgs/${orgId}/calendar/new?mailbox=${mailboxId}&date=${isoDay(day)}`;
  return (
    <div className="mt-4 grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <div className="order-2 lg:order-1">
        <Link
          to={newEvent}
          className="mb-4 inline-flex min-h-10 items-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white no-underline hover:bg-blue-800"
        >
          New event
        </Link>
        {cals.isPending && <Loading what="calendars" />}
        <ErrorNote error={cals.error} />
        {cals.data && <Calendars ctx={ctx} hidden={hidden} toggle={toggle} />}
        <Invitations ctx={ctx} />
        {cals.data && <ImportIcs ctx={ctx} />}
      </div>
      <section aria-labelledby="view-title" className="order-1 min-w-0 lg:order-2">
        <div className="flex flex-wrap items-center gap-2">
          <Button onPress={() => go({ date: parseDay(null) })}>Today</Button>
          <Button aria-label={`Previous ${view}`} onPress={() => go({ date: step(view, day, -1) })}>
            <span aria-hidden="true">‹</span>
          </Button>
          <Button aria-label={`Next ${view}`} onPress={() => go({ date: step(view, day, 1) })}>
            <span aria-hidden="true">›</span>
          </Button>
          <h2 id="view-title" className="text-lg font-semibold">
            {titleOf(view, day)}
          </h2>
          <nav aria-label="Views" className="ml-auto">
            <ul className="flex overflow-hidden rounded-md border border-slate-300">
              {VIEWS.map((v) => (
                <li key={v.id}>
                  <Link
                    to={link(v.id, day)}
                    aria-current={v.id === view ? 'page' : undefined}
                    className={`inline-block px-3 py-2 text-sm no-underline ${v.id === view ? 'bg-blue-700 text-white' : 'bg-white text-slate-900'}`}
                  >
                    {v.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <p className="mt-1 text-xs text-slate-700">Times in {zoneLabel(undefined, first.getTime())}</p>
        {occ.isFetching && (
          <p className="sr-only" role="status">
            Loading events…
          </p>
        )}
        <ErrorNote error={occ.error} />
        <div className="mt-3">
          {view === 'month' ? (
            <MonthView ctx={ctx} day={day} occurrences={occurrences} link={link} />
          ) : view === 'agenda' ? (
            <AgendaView ctx={ctx} first={first} end={end} occurrences={occurrences} />
          ) : (
            <TimeGrid
              ctx={ctx}
              days={Array.from({ length: view === 'day' ? 1 : 7 }, (_, i) => addDays(first, i))}
              occurrences={occurrences}
              link={link}
            />
          )}
        </div>
      </section>
    </div>
  );
}

/** The event page of an occurrence. */
export function eventHref(ctx: { orgId: string; mailboxId: string }, o: Occurrence) {
  const q = new URLSearchParams({ mailbox: ctx.mailboxId });
  if (o.recurrenceId !== null) q.set('occurrence', String(o.recurrenceId));
  return `/orgs/${ctx.orgId}/calendar/events/${o.calendarId}/${o.eventId}?${q}`;
}

const colorOf = (ctx: Ctx, o: Occurrence) =>
  COLORS[ctx.calendars.find((c) => c.calendarId === o.calendarId)?.color ?? 'blue'];

/** Whether an all-day occurrence covers `day` (its dates, end exclusive). */
function allDayOn(o: Occurrence, day: Date): boolean {
  const d = isoDay(day);
  const start = o.startDate ?? isoDay(new Date(o.start));
  const end = o.endDate ?? isoDay(new Date(o.end));
  return start <= d && (d < end || (start === end && d === start));
}
const timedOn = (o: Occurrence, day: Date) =>
  !o.allDay && o.start < addDays(day, 1).getTime() && (o.end > day.getTime() || o.start === day.getTime());

const declined = (o: Occurrence) => o.myStatus === 'declined' || o.status === 'cancelled';

/** What a screen reader hears for an occurrence: its name, time and answer. */
function spoken(o: Occurrence): string {
  const when = o.allDay ? 'all day' : `${timeOf(o.start)} to ${timeOf(o.end)}`;
  const extra = o.myStatus === 'needs-action' && !o.isOrganizer ? ', invitation' : o.recurring ? ', repeats' : '';
  return `${o.summary || '(No title)'}, ${when}${o.location ? `, ${o.location}` : ''}${extra}`;
}

function Chip({ ctx, o }: { ctx: Ctx; o: Occurrence }) {
  const c = colorOf(ctx, o);
  const pending = o.myStatus === 'needs-action' && !o.isOrganizer;
  return (
    <Link
      to={eventHref(ctx, o)}
      aria-label={spoken(o)}
      className={`block truncate rounded px-1.5 py-0.5 text-xs no-underline ${pending ? `border ${c.border} bg-white text-slate-900` : `${c.bg} text-white`} ${declined(o) ? 'line-through' : ''}`}
    >
      {o.summary || '(No title)'}
    </Link>
  );
}

/** Side by side where they overlap: each occurrence's lane and its cluster's lane count. */
function layout(items: { o: Occurrence; top: number; bottom: number }[]) {
  const sorted = [...items].sort((a, b) => a.top - b.top || b.bottom - a.bottom);
  const out: { o: Occurrence; top: number; bottom: number; lane: number; lanes: number }[] = [];
  let cluster: typeof out = [];
  let clusterEnd = -1;
  const close = () => {
    const lanes = Math.max(1, ...cluster.map((c) => c.lane + 1));
    for (const c of cluster) c.lanes = lanes;
    cluster = [];
  };
  for (const it of sorted) {
    if (it.top >= clusterEnd) close();
    const ends: number[] = [];
    for (const c of cluster) ends[c.lane] = Math.max(ends[c.lane] ?? 0, c.bottom);
    let lane = ends.findIndex((e) => e <= it.top);
    if (lane < 0) lane = ends.length;
    const placed = { ...it, lane, lanes: 1 };
    cluster.push(placed);
    out.push(placed);
    clusterEnd = Math.max(clusterEnd, it.bottom);
  }
  close();
  return out;
}

function TimeGrid(props: { ctx: Ctx; days: Date[]; occurrences: Occurrence[]; link: (v: View, d: Date) => string }) {
  const { ctx, days, occurrences } = props;
  const today = new Date();
  const cols = `3.5rem repeat(${days.length}, minmax(0, 1fr))`;
  const allDay = days.map((d) => occurrences.filter((o) => o.allDay && allDayOn(o, d)));
  return (
    <div className="rounded-lg border border-slate-200">
      <div className="grid border-b border-slate-200" style={{ gridTemplateColumns: cols }}>
        <span />
        {days.map((d) => (
          <div key={isoDay(d)} className="min-w-0 border-l border-slate-200 p-1 text-center text-xs">
            <Link
              to={props.link('day', d)}
              aria-label={dayOf(d)}
              className={`inline-block rounded px-1 no-underline ${sameDay(d, today) ? 'bg-blue-700 text-white' : 'text-slate-900'}`}
            >
              {shortDayOf(d)}
            </Link>
          </div>
        ))}
      </div>
      {allDay.some((l) => l.length > 0) && (
        <div className="grid border-b border-slate-200" style={{ gridTemplateColumns: cols }}>
          <span className="p-1 text-right text-xs text-slate-700">All day</span>
          {days.map((d, i) => (
            <ul
              key={isoDay(d)}
              aria-label={`All day, ${dayOf(d)}`}
              className="min-w-0 space-y-0.5 border-l border-slate-200 p-0.5"
            >
              {allDay[i]?.map((o) => (
                <li key={`${o.eventId}:${o.recurrenceId}`}>
                  <Chip ctx={ctx} o={o} />
                </li>
              ))}
            </ul>
          ))}
        </div>
      )}
      {/* Scrolled by keyboard too (focusable, as a scrolling region must be). */}
      <section
        aria-label="Hours of the day"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        tabIndex={0}
        className="max-h-[70vh] overflow-y-auto outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
      >
        <div className="relative grid" style={{ gridTemplateColumns: cols, height: 24 * HOUR_PX }}>
          <div className="relative">
            {Array.from({ length: 24 }, (_, h) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: the hours of a day
                key={h}
                data-hour={h}
                className="absolute right-1 -translate-y-1/2 text-[0.7rem] text-slate-700"
                style={{ top: h * HOUR_PX }}
              >
                {h === 0 ? '' : hourLabel(h)}
              </span>
            ))}
          </div>
          {days.map((d) => {
            const items = layout(
              occurrences
                .filter((o) => timedOn(o, d))
                .map((o) => {
                  const top = minutesInDay(o.start, d);
                  return { o, top, bottom: Math.max(minutesInDay(o.end, d), top + 15) };
                }),
            );
            return (
              <ul
                key={isoDay(d)}
                aria-label={dayOf(d)}
                className="relative min-w-0 border-l border-slate-200"
                style={{
                  backgroundImage: `repeating-linear-gradient(to bottom, #e2e8f0 0, #e2e8f0 1px, transparent 1px, transparent ${HOUR_PX}px)`,
                }}
              >
                {items.map(({ o, top, bottom, lane, lanes }) => {
                  const c = colorOf(ctx, o);
                  const pending = o.myStatus === 'needs-action' && !o.isOrganizer;
                  return (
                    <li
                      key={`${o.eventId}:${o.recurrenceId}`}
                      className="absolute px-0.5"
                      style={{
                        top: (top / 60) * HOUR_PX,
                        height: ((bottom - top) / 60) * HOUR_PX,
                        left: `${(lane / lanes) * 100}%`,
                        width: `${100 / lanes}%`,
                      }}
                    >
                      <Link
                        to={eventHref(ctx, o)}
                        aria-label={spoken(o)}
                        data-start={o.start}
                        className={`block h-full overflow-hidden rounded px-1 py-0.5 text-xs leading-tight no-underline ${pending ? `border ${c.border} bg-white text-slate-900` : `${c.bg} text-white`} ${declined(o) ? 'line-through opacity-80' : ''}`}
                      >
                        <span className="block truncate font-medium">{o.summary || '(No title)'}</span>
                        <span className="block truncate">
                          {timeOf(o.start)} – {timeOf(o.end)}
                        </span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            );
          })}
        </div>
      </section>
    </div>
  );
}

function MonthView(props: { ctx: Ctx; day: Date; occurrences: Occurrence[]; link: (v: View, d: Date) => string }) {
  const { first, end } = rangeOf('month', props.day);
  const days: Date[] = [];
  for (let d = first; d < end; d = addDays(d, 1)) days.push(d);
  const today = new Date();
  const names = days.slice(0, 7).map((d) => new Intl.DateTimeFormat(undefined, { weekday: 'short' }).format(d));
  return (
    <div className="rounded-lg border border-slate-200">
      <div className="grid grid-cols-7 border-b border-slate-200 text-center text-xs font-medium" aria-hidden="true">
        {names.map((n) => (
          <span key={n} className="p-1">
            {n}
          </span>
        ))}
      </div>
      <ol className="grid grid-cols-7">
        {days.map((d) => {
          const here = props.occurrences.filter((o) => (o.allDay ? allDayOn(o, d) : timedOn(o, d)));
          const shown = here.slice(0, 3);
          const other = d.getMonth() !== props.day.getMonth();
          return (
            <li
              key={isoDay(d)}
              className={`min-h-24 min-w-0 border-b border-l border-slate-200 p-0.5 ${other ? 'bg-slate-50' : ''}`}
            >
              <Link
                to={props.link('day', d)}
                aria-label={dayOf(d)}
                className={`inline-block rounded px-1 text-xs no-underline ${sameDay(d, today) ? 'bg-blue-700 text-white' : other ? 'text-slate-700' : 'text-slate-900'}`}
              >
                {d.getDate()}
              </Link>
              <ul className="space-y-0.5">
                {shown.map((o) => (
                  <li key={`${o.eventId}:${o.recurrenceId}`} className="flex min-w-0 items-center gap-1">
                    {!o.allDay && (
                      <span className="hidden shrink-0 text-[0.7rem] text-slate-700 sm:inline" aria-hidden="true">
                        {timeOf(o.start)}
                      </span>
                    )}
                    <span className="min-w-0 flex-1">
                      <Chip ctx={props.ctx} o={o} />
                    </span>
                  </li>
                ))}
              </ul>
              {here.length > shown.length && (
                <Link to={props.link('day', d)} className="text-[0.7rem] text-slate-900">
                  {here.length - shown.length} more
                  <span className="sr-only"> on {dayOf(d)}</span>
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function AgendaView(props: { ctx: Ctx; first: Date; end: Date; occurrences: Occurrence[] }) {
  const days: { d: Date; items: Occurrence[] }[] = [];
  for (let d = props.first; d < props.end; d = addDays(d, 1)) {
    const items = props.occurrences.filter((o) => (o.allDay ? allDayOn(o, d) : timedOn(o, d)));
    if (items.length) days.push({ d, items });
  }
  if (days.length === 0) return <p className="text-sm text-slate-700">Nothing in these 30 days.</p>;
  return (
    <div className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      {days.map(({ d, items }) => (
        <section key={isoDay(d)} aria-label={dayOf(d)} className="flex flex-col gap-1 p-3 sm:flex-row sm:gap-6">
          <h3 className="w-44 shrink-0 text-sm font-semibold">{dayOf(d)}</h3>
          <ul className="min-w-0 flex-1 space-y-1">
            {items.map((o) => {
              const c = colorOf(props.ctx, o);
              return (
                <li key={`${o.eventId}:${o.recurrenceId}`} className="flex min-w-0 items-baseline gap-3 text-sm">
                  <span aria-hidden="true" className={`inline-block size-2.5 shrink-0 rounded-full ${c.bg}`} />
                  <span className="w-40 shrink-0 text-slate-700">
                    {o.allDay ? 'All day' : `${timeOf(o.start)} – ${timeOf(o.end)}`}
                  </span>
                  <Link
                    to={eventHref(props.ctx, o)}
                    aria-label={spoken(o)}
                    className={`min-w-0 truncate ${declined(o) ? 'line-through' : ''}`}
                  >
                    {o.summary || '(No title)'}
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}

function Calendars(props: { ctx: Ctx; hidden: string[]; toggle: (id: string, shown: boolean) => void }) {
  const { orgId, mailboxId, calendars } = props.ctx;
  const client = useQueryClient();
  const [form, setForm, clear] = useDraft('new-calendar', { name: '', color: 'green' as Calendar['color'] });
  const create = useMutation({
    mutationFn: () =>
      api().postMailMailboxesCalendars({ orgId, mailboxId, body: { name: form.name, color: form.color } }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['calendar', orgId, mailboxId] });
    },
  });
  return (
    <section aria-labelledby="calendars-heading">
      <h2 id="calendars-heading" className="mb-2 text-base font-semibold">
        My calendars
      </h2>
      <ul className="space-y-1">
        {calendars.map((c) => (
          <CalendarRow
            key={c.calendarId}
            ctx={props.ctx}
            c={c}
            shown={!props.hidden.includes(c.calendarId)}
            toggle={props.toggle}
          />
        ))}
      </ul>
      <form
        className="mt-3 grid gap-2 rounded-md border border-slate-200 p-2"
        aria-label="New calendar"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput label="New calendar" isRequired value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <SelectField
          label="Color"
          value={form.color}
          onChange={(color) => setForm({ ...form, color })}
          options={COLOR_IDS.map((id) => ({ id, label: COLORS[id].label }))}
        />
        <div>
          <Button type="submit" isDisabled={create.isPending}>
            Create calendar
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </section>
  );
}

function CalendarRow(props: { ctx: Ctx; c: Calendar; shown: boolean; toggle: (id: string, shown: boolean) => void }) {
  const { orgId, mailboxId } = props.ctx;
  const { c } = props;
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [name, setName] = useState(c.name);
  const [color, setColor] = useState(c.color);
  const done = () => client.invalidateQueries({ queryKey: ['calendar', orgId, mailboxId] });
  const save = useMutation({
    mutationFn: () =>
      api().patchMailMailboxesCalendarsByCalendarId({
        orgId,
        mailboxId,
        calendarId: c.calendarId,
        body: { name, color },
      }),
    onSuccess: async () => {
      setEditing(false);
      await done();
    },
  });
  const remove = useMutation({
    mutationFn: () => api().deleteMailMailboxesCalendarsByCalendarId({ orgId, mailboxId, calendarId: c.calendarId }),
    onSuccess: done,
  });
  const exp = useMutation({
    mutationFn: () => api().getMailMailboxesCalendarsExport({ orgId, mailboxId, calendarId: c.calendarId }),
    onSuccess: (text) => saveFile(fileName(c.name, 'ics'), 'text/calendar', text),
  });
  return (
    <li className="rounded-md text-sm">
      <div className="flex items-center gap-1">
        <span aria-hidden="true" className={`size-3 shrink-0 rounded-sm ${COLORS[c.color].bg}`} />
        <span className="min-w-0 flex-1">
          <Checkbox isSelected={props.shown} onChange={(on) => props.toggle(c.calendarId, on)}>
            <span className="truncate">{c.name}</span>
          </Checkbox>
        </span>
        <Button
          className="min-h-8 px-2 text-xs"
          aria-label={`Edit ${c.name}`}
          aria-expanded={editing}
          onPress={() => setEditing(!editing)}
        >
          Edit
        </Button>
      </div>
      {editing && (
        <div className="mt-1 grid gap-2 rounded-md border border-slate-200 p-2">
          <form
            className="grid gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
          >
            <TextInput label={`Name of ${c.name}`} isRequired value={name} onChange={setName} />
            <SelectField
              label="Color"
              value={color}
              onChange={setColor}
              options={COLOR_IDS.map((id) => ({ id, label: COLORS[id].label }))}
            />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" tone="primary" isDisabled={save.isPending}>
                Save
              </Button>
              <Button onPress={() => exp.mutate()} isDisabled={exp.isPending} aria-label={`Export ${c.name} (.ics)`}>
                Export .ics
              </Button>
            </div>
            <ErrorNote error={save.error ?? exp.error} />
          </form>
          {!c.isDefault &&
            (confirm ? (
              <div className="flex flex-wrap items-center gap-2">
                <span>Delete {c.name} and its events?</span>
                <Button tone="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
                  Delete calendar
                </Button>
                <Button onPress={() => setConfirm(false)}>Keep</Button>
              </div>
            ) : (
              <Button tone="danger" onPress={() => setConfirm(true)}>
                Delete…
              </Button>
            ))}
          <ErrorNote error={remove.error} />
        </div>
      )}
    </li>
  );
}

/** Invitations waiting for an answer, the coming year. */
function Invitations({ ctx }: { ctx: Ctx }) {
  const { orgId, mailboxId } = ctx;
  const [from] = useState(() => Date.now() - 86_400_000);
  const q = useQuery({
    queryKey: ['calendar', orgId, mailboxId, 'invitations', from],
    queryFn: () => api().getMailMailboxesEvents({ orgId, mailboxId, from, to: from + 399 * 86_400_000 }),
  });
  const seen = new Set<string>();
  const pending = (q.data?.occurrences ?? []).filter((o) => {
    if (o.isOrganizer || o.myStatus !== 'needs-action' || o.status === 'cancelled' || seen.has(o.eventId)) return false;
    seen.add(o.eventId);
    return true;
  });
  return (
    <section aria-labelledby="invitations-heading" className="mt-6">
      <h2 id="invitations-heading" className="mb-2 text-base font-semibold">
        Invitations
      </h2>
      <ErrorNote error={q.error} />
      {q.data && pending.length === 0 && <p className="text-sm text-slate-700">No invitations waiting.</p>}
      <ul className="space-y-3">
        {pending.map((o) => (
          <li key={o.eventId} className="rounded-md border border-slate-200 p-2 text-sm">
            <Link to={eventHref(ctx, { ...o, recurrenceId: null })} className="font-medium">
              {o.summary || '(No title)'}
            </Link>
            <p className="text-slate-700">
              {dayOf(new Date(o.start))}
              {o.allDay ? '' : `, ${timeOf(o.start)}`}
              {o.recurring ? ' (repeats)' : ''}
            </p>
            <div className="mt-1">
              <RespondButtons
                orgId={orgId}
                mailboxId={mailboxId}
                calendarId={o.calendarId}
                eventId={o.eventId}
                summary={o.summary}
                current={o.myStatus}
              />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

const MAX_INLINE = 4 * 1024 * 1024;

/** Imports an .ics file into a calendar: the file's text, then `next` while the API isn't done. */
function ImportIcs({ ctx }: { ctx: Ctx }) {
  const { orgId, mailboxId, calendars } = ctx;
  const client = useQueryClient();
  const [calendarId, setCalendarId] = useState(calendars[0]?.calendarId ?? '');
  const [file, setFile] = useState<File | null>(null);
  const run = useMutation({
    mutationFn: async () => {
      if (!file) throw new Error('Choose an .ics file first.');
      if (file.size > MAX_INLINE) throw new Error('Files over 4 MB can be imported with the API or the command line.');
      const ids = { orgId, mailboxId, calendarId: calendarId || (calendars[0]?.calendarId ?? '') };
      let r = await api().postMailMailboxesCalendarsImport({ ...ids, body: { content: await file.text() } });
      const total = { imported: r.imported, updated: r.updated, skipped: r.skipped, warnings: [...r.warnings] };
      while (!r.done && r.next) {
        r = await api().postMailMailboxesCalendarsImport({ ...ids, body: { next: r.next } });
        total.imported += r.imported;
        total.updated += r.updated;
        total.skipped += r.skipped;
        total.warnings.push(...r.warnings);
      }
      return total;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['calendar', orgId, mailboxId] }),
  });
  return (
    <section aria-labelledby="import-heading" className="mt-6">
      <h2 id="import-heading" className="mb-2 text-base font-semibold">
        Import
      </h2>
      <form
        className="grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          run.mutate();
        }}
      >
        <FilePicker id="ics-file" label="iCalendar file (.ics)" accept=".ics,text/calendar" onFile={setFile} />
        <SelectField
          label="Into calendar"
          value={calendarId}
          onChange={setCalendarId}
          options={calendars.map((c) => ({ id: c.calendarId, label: c.name }))}
        />
        <div>
          <Button type="submit" isDisabled={run.isPending || !file}>
            {run.isPending ? 'Importing…' : 'Import'}
          </Button>
        </div>
        <ErrorNote error={run.error} />
        {run.data && (
          <Done>
            Imported {run.data.imported}, updated {run.data.updated}, skipped {run.data.skipped}.
          </Done>
        )}
        {run.data && run.data.warnings.length > 0 && (
          <ul className="list-disc pl-5 text-xs text-amber-900">
            {run.data.warnings.slice(0, 20).map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
      </form>
    </section>
  );
}
