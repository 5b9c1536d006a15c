import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { getItem } from '../../kernel/store/table';
import { builds } from '../../ports/builds';
import { type RuntimeLogLine, runtime } from '../../ports/runtime';
import { deploymentMasker, type Masker } from './log-mask';
import { requireDeployment } from './read';
import { type FunctionRecord, functionKey } from './records';
import { isInProgress } from './schema';

/** Lines per build-log page. */
const PAGE_LINES = 500;
/** The `logs` route answers the first lines of the build, up to this many. */
const ALL_LINES = 5_000;
const HOUR = 3_600_000;
/** Runtime log lines per answer. */
const RUNTIME_LINES = 1_000;
const TAIL_LINES = 500;

/** The build log cuts long lines and ends them with `…`: a value may be cut there too. */
const maskBuildLine = (mask: Masker, m: string) => (m.endsWith('…') ? `${mask(m.slice(0, -1), true)}…` : mask(m));

/**
 * `GET .../build-log`: the build log from the cursor on. `done` once the deployment has finished
 * and every line was read; until then the cursor (signed, bound to the deployment) reads on.
 * The status is read before the lines: a build that finished before this read has written all
 * of its lines, so `done` never hides a last line.
 */
export async function buildLogPage(orgId: string, deploymentId: string, cursor: string | undefined) {
  const scope = `${orgId}:build-log:${deploymentId}`;
  const position = decodeCursor<{ p: string }>(scope, cursor)?.p;
  const d = await requireDeployment(orgId, deploymentId, true);
  const [{ lines, position: next }, mask] = await Promise.all([
    builds().readLog(d, position, PAGE_LINES),
    deploymentMasker(d),
  ]);
  const finished = !isInProgress(d.status);
  const done = finished && lines.length < PAGE_LINES;
  return {
    lines: lines.map((l) => ({ ...l, m: maskBuildLine(mask, l.m) })),
    cursor: done ? null : encodeCursor(scope, { p: next }),
    status: d.status,
    error: d.error ?? null,
    done,
  };
}

/** `GET .../logs`: the build's output from its first step (the first 5,000 lines). */
export async function buildLogLines(orgId: string, deploymentId: string) {
  const d = await requireDeployment(orgId, deploymentId);
  const port = builds();
  const lines: { t?: number; m: string }[] = [];
  let position: string | undefined;
  while (lines.length < ALL_LINES) {
    const page = await port.readLog(d, position, Math.min(PAGE_LINES, ALL_LINES - lines.length));
    lines.push(...page.lines);
    if (page.lines.length === 0 || page.position === position) break;
    position = page.position;
  }
  const mask = await deploymentMasker(d);
  return { lines: lines.map((l) => ({ ...l, m: maskBuildLine(mask, l.m) })) };
}

async function hasFunction(orgId: string, projectId: string, deploymentId: string) {
  const fn = await getItem<FunctionRecord>(functionKey(orgId, projectId, deploymentId));
  // A removed function's logs stay readable while they are kept.
  return fn !== undefined;
}

/**
 * Masks each line's message. With a filter, a line is kept only when its masked message still
 * matches: the backend matched the unmasked text, and a search must not tell whether a line
 * holds a sensitive value (searching for a guess, one character more at a time).
 */
function maskLines(lines: RuntimeLogLine[], mask: Masker, q: string | undefined): RuntimeLogLine[] {
  if (!mask.active) return lines;
  const needle = q?.toLowerCase();
  return lines
    .map((l) => ({ ...l, message: mask(l.message, l.truncated) }))
    .filter((l) => !needle || l.message.toLowerCase().includes(needle));
}

/** `GET .../runtime-logs`: the server function's last hour, newest first. */
export async function runtimeLogs(orgId: string, deploymentId: string, q: string | undefined) {
  const d = await requireDeployment(orgId, deploymentId);
  if (!(await hasFunction(orgId, d.projectId, deploymentId))) return { available: false, lines: [] };
  const to = Date.now();
  const from = to - HOUR;
  const [{ lines, more }, mask] = await Promise.all([
    runtime().logs(deploymentId, { from, to, q: q || undefined, limit: RUNTIME_LINES, order: 'desc' }),
    deploymentMasker(d),
  ]);
  const shown = maskLines(lines, mask, q || undefined).map(({ id: _id, ...line }) => line);
  return { available: true, lines: shown, from, to, limited: more };
}

/**
 * `GET .../runtime-logs/tail`: lines since `since` (default: the last minute; never more than an
 * hour back), oldest first, each with its `id`. `next` is where to read on: the last line's time
 * when the page was cut (`more`), else the end of the window read. Readers re-read a few seconds
 * before `next` and skip ids they have seen: lines can arrive a little late.
 */
export async function tailRuntimeLogs(orgId: string, deploymentId: string, since: number | undefined, q?: string) {
  const d = await requireDeployment(orgId, deploymentId);
  if (!(await hasFunction(orgId, d.projectId, deploymentId))) {
    return { available: false, lines: [], next: since ?? Date.now(), more: false };
  }
  const to = Date.now();
  const from = Math.max(to - HOUR, since ?? to - 60_000);
  const [{ lines, more }, mask] = await Promise.all([
    runtime().logs(deploymentId, { from, to, q: q || undefined, limit: TAIL_LINES, order: 'asc' }),
    deploymentMasker(d),
  ]);
  // From the lines read, before any is left out by the filter.
  const next = more && lines.length > 0 ? (lines[lines.length - 1] as { t: number }).t : to;
  return { available: true, lines: maskLines(lines, mask, q || undefined), next, more };
}
