import { db } from '../../kernel/store/client';
import { PutCommand } from '../../kernel/store/commands';
import { getItem, TABLE, userPk } from '../../kernel/store/table';

/**
 * A person's notification settings (not shown in the spec; `GET|PUT /v1/me/notifications/settings`):
 * the phone number texts and calls go to (E.164; none: they go by email), and quiet hours, a daily
 * window in the person's time zone during which only in-app notices arrive, the rest held until it
 * ends (unless a rule overrides quiet hours). None by default.
 */
export interface NotifySettings {
  phone: string | null;
  quietHours: { start: string; end: string; timeZone: string } | null;
}

const settingsKey = (userId: string) => ({ pk: userPk(userId), sk: 'NOTIFYSETTINGS' });

export async function readSettings(userId: string): Promise<NotifySettings> {
  const item = await getItem<NotifySettings>(settingsKey(userId));
  return { phone: item?.phone ?? null, quietHours: item?.quietHours ?? null };
}

export async function writeSettings(userId: string, settings: NotifySettings): Promise<void> {
  await db.send(
    new PutCommand({ TableName: TABLE(), Item: { ...settingsKey(userId), ...settings, updatedAt: Date.now() } }),
  );
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h as number) * 60 + (m as number);
};

/** Minutes since midnight at `now` in `timeZone`. */
function localMinutes(now: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(now));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/**
 * When the quiet hours that hold at `now` end (ms), or undefined outside them. The window may
 * cross midnight (`22:00`–`07:00`); start equal to end is no window.
 */
export function quietUntil(quiet: NotifySettings['quietHours'], now: number): number | undefined {
  if (!quiet) return undefined;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return undefined;
  const at = localMinutes(now, quiet.timeZone);
  const inside = start < end ? at >= start && at < end : at >= start || at < end;
  if (!inside) return undefined;
  const left = (end - at + 1440) % 1440;
  // To the start of the minute the window ends in (seconds of the current minute taken off).
  return now - (now % 60_000) + left * 60_000;
}
