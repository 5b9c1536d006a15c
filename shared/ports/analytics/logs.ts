import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ANALYTICS_MESSAGE, type AnalyticsEvent } from './port';

/** CloudWatch Logs' subscription payload, as the analytics worker receives it (gzipped, base64). */
export interface LogsEvent {
  awslogs: { data: string };
}

interface LogsData {
  messageType: string;
  logGroup: string;
  logStream: string;
  logEvents: { id: string; timestamp: number; message: string }[];
}

/** Makes the payload from log lines: what the local runner hands over, as a subscription would. */
export function logsEvent(
  logGroup: string,
  logStream: string,
  lines: { id: string; at: number; message: string }[],
): LogsEvent {
  const data: LogsData = {
    messageType: 'DATA_MESSAGE',
    logGroup,
    logStream,
    logEvents: lines.map((l) => ({ id: l.id, timestamp: l.at, message: l.message })),
  };
  return { awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') } };
}

/** A log line of an event, as the AWS sink writes it. */
export const eventLine = (event: AnalyticsEvent) =>
  JSON.stringify({ level: 'info', message: ANALYTICS_MESSAGE, event });

/**
 * The analytics events of a payload and the batch's id (the same on every delivery of it: its log
 * group, stream and event ids). Lines that are not events (a control message, other log lines
 * the filter let through, a malformed one) are skipped.
 */
export function readLogsEvent(input: LogsEvent): { batchId: string; events: AnalyticsEvent[] } {
  const data = JSON.parse(gunzipSync(Buffer.from(input.awslogs.data, 'base64')).toString('utf8')) as LogsData;
  const events: AnalyticsEvent[] = [];
  if (data.messageType !== 'DATA_MESSAGE') return { batchId: '', events };
  const hash = createHash('sha256').update(data.logGroup).update('\0').update(data.logStream);
  for (const e of data.logEvents ?? []) {
    hash.update('\0').update(e.id);
    const event = parseLine(e.message);
    if (event) events.push(event);
  }
  return { batchId: hash.digest('base64url').slice(0, 32), events };
}

function parseLine(message: string): AnalyticsEvent | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const line = JSON.parse(message.slice(start)) as { message?: unknown; event?: Partial<AnalyticsEvent> };
    const e = line.event;
    if (line.message !== ANALYTICS_MESSAGE || !e) return undefined;
    if (typeof e.at !== 'number' || typeof e.route !== 'string' || typeof e.status !== 'number') return undefined;
    return {
      at: e.at,
      orgId: typeof e.orgId === 'string' ? e.orgId : null,
      ...(typeof e.projectId === 'string' ? { projectId: e.projectId } : {}),
      group: String(e.group ?? '-'),
      route: e.route,
      action: String(e.action ?? 'unknown'),
      status: e.status,
      durationMs: typeof e.durationMs === 'number' ? e.durationMs : 0,
      caller: String(e.caller ?? 'anonymous'),
    };
  } catch {
    return undefined;
  }
}
