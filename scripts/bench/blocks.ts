import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Where the bench's figures live: the full report between the bench markers of docs/benchmarks.md,
 * and its summary (renderSummary) between the summary markers of README.md. `npm run bench --
 * --write` writes both; `npm run bench -- --summary` writes the README's summary again from the
 * report in docs/benchmarks.md, measuring nothing.
 */
export interface Markers {
  start: string;
  end: string;
}

export const REPORT_MARKERS: Markers = { start: '<!-- bench:start -->', end: '<!-- bench:end -->' };
export const SUMMARY_MARKERS: Markers = { start: '<!-- bench-summary:start -->', end: '<!-- bench-summary:end -->' };
/** The comparison with another commit (`npm run bench -- --against <ref>`), in docs/benchmarks.md. */
export const AGAINST_MARKERS: Markers = { start: '<!-- bench-against:start -->', end: '<!-- bench-against:end -->' };

/** Where `text`'s block lies: the offsets just after its start marker and at its end marker. */
function blockOf(text: string, markers: Markers, file: string): [number, number] {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end, start);
  if (start < 0 || end < 0) throw new Error(`${file} has no ${markers.start} … ${markers.end} block`);
  return [start + markers.start.length, end];
}

/** What lies between the markers of `file` (without the newline after the start marker). */
export function readBlock(file: string, markers: Markers = REPORT_MARKERS): string {
  const text = readFileSync(file, 'utf8');
  const [from, to] = blockOf(text, markers, file);
  return text.slice(from, to).replace(/^\n/, '');
}

/** Replaces what lies between the markers of `file`, and nothing else. */
export function writeBlock(file: string, block: string, markers: Markers = REPORT_MARKERS): void {
  const text = readFileSync(file, 'utf8');
  const [from, to] = blockOf(text, markers, file);
  writeFileSync(file, `${text.slice(0, from)}\n${block}${text.slice(to)}`);
}

/** A markdown table: its header cells and its rows' cells. */
interface Table {
  header: string[];
  rows: string[][];
}

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** The first table after the line that starts with `title` (bold, as the report writes its parts). */
function tableAfter(lines: string[], title: string): { intro: string; table: Table } {
  const at = lines.findIndex((l) => l.startsWith(`**${title}**`));
  if (at < 0) throw new Error(`the bench report has no part "${title}"`);
  let i = at + 1;
  while (i < lines.length && !lines[i]?.startsWith('|')) i++;
  const header = cellsOf(lines[i] ?? '');
  const rows: string[][] = [];
  for (i += 2; i < lines.length && lines[i]?.startsWith('|'); i++) rows.push(cellsOf(lines[i] as string));
  return { intro: lines[at] as string, table: { header, rows } };
}

/** The cell of `row` under the `nth` column named `name` (the warm table names two columns "ratio"). */
function cell(table: Table, row: string[], name: string, nth = 0): string {
  const indexes = table.header.flatMap((h, i) => (h === name ? [i] : []));
  const index = indexes[nth];
  if (index === undefined) throw new Error(`the bench report's table has no column "${name}"`);
  return row[index] ?? '';
}

/** The goals a part's introduction states, in order: "goal ≤ 1.15×" → 1.15. */
const goalsOf = (intro: string) => [...intro.matchAll(/goal ≤ ([\d.]+)/g)].map((m) => m[1] as string);

const num = (text: string) => Number.parseFloat(text.replace(/[^\d.]/g, ''));
const isMissed = (text: string) => text.includes('missed') || text.includes('failed');
const isMet = (text: string) => /(^|\()met\)?$/.test(text);

/** Lowest and highest of a column, as the report writes them ("0.361× – 1.200×"). */
function span(values: string[]): string {
  const sorted = [...values].sort((a, b) => num(a) - num(b));
  const lo = sorted[0] ?? '';
  const hi = sorted[sorted.length - 1] ?? '';
  return lo === hi ? lo : `${lo} – ${hi}`;
}

interface Judged {
  name: string;
  value: string;
  verdict: string;
}

/** "23 of 25" met; the missed ones, worst first, at most three. */
function judge(items: Judged[]): { met: string; worst: string } {
  const missed = items.filter((i) => isMissed(i.verdict)).sort((a, b) => num(b.value) - num(a.value));
  const shown = missed.slice(0, 3).map((i) => `${i.name} ${i.value}`);
  if (missed.length > 3) shown.push(`${missed.length - 3} more`);
  return { met: `${items.length - missed.length} of ${items.length}`, worst: shown.join(', ') };
}

/**
 * The README's summary of a bench report (renderReport's markdown): per function, the range of
 * each key figure against its goal, how many functions meet it and which miss it worst; the warm
 * latency and round trips of the request the bench follows; and the verdicts of the groups' own
 * measurements. Read from the report itself, so a summary always matches the report it was made from.
 */
export function renderSummary(report: string, fullReport = 'docs/benchmarks.md'): string {
  const lines = report.split('\n');
  const measured = (lines[0] ?? '').replace(/, with `[^`]*` \([^)]*\)\..*$/, '');
  const bundle = tableAfter(lines, 'Bundle size');
  const cold = tableAfter(lines, 'Cold init');
  const warm = tableAfter(lines, 'Warm latency');
  const trips = tableAfter(lines, 'DynamoDB round trips per request');
  const functions = bundle.table.rows.filter((r) => !r.some((c) => c.startsWith('bundle failed')));
  const failed = bundle.table.rows.filter((r) => r.some((c) => c.startsWith('bundle failed'))).map((r) => r[0]);

  const out: string[] = [
    `${measured}: ${functions.length} functions${failed.length ? ` (not measured, the bundle failed: ${failed.join(', ')})` : ''}. ` +
      `The full report and what the figures rest on: [benchmarks](${fullReport}).`,
    '',
    '| figure | goal | range | met | missed, worst first |',
    '|---|---|---|--:|---|',
  ];
  const row = (figure: string, goal: string, values: string[], judged?: Judged[]) => {
    const j = judged ? judge(judged) : undefined;
    out.push(`| ${figure} | ${goal} | ${span(values)} | ${j?.met ?? ''} | ${j?.worst ?? ''} |`);
  };
  const [sizeGoal] = goalsOf(bundle.intro);
  const b = bundle.table;
  row(
    'bundle at start',
    '',
    functions.map((r) => cell(b, r, 'at start')),
  );
  row(
    'bundle at start ÷ bare handler',
    `≤ ${sizeGoal}×`,
    functions.map((r) => cell(b, r, 'ratio at start')),
    functions.map((r) => ({ name: r[0] as string, value: cell(b, r, 'ratio at start'), verdict: cell(b, r, 'goal') })),
  );
  const [initGoal] = goalsOf(cold.intro);
  const c = cold.table;
  const coldRow = (figure: string, ratioCol: string, goalCol: string) =>
    row(
      figure,
      `≤ ${initGoal}×`,
      c.rows.map((r) => cell(c, r, ratioCol)),
      c.rows.map((r) => ({ name: r[0] as string, value: cell(c, r, ratioCol), verdict: cell(c, r, goalCol) })),
    );
  coldRow('cold init ÷ bare handler, wall time', 'ratio', 'goal');
  coldRow('cold init ÷ bare handler, CPU time', 'CPU ratio', 'goal (CPU)');
  row(
    'cold init to a first answer',
    '',
    c.rows.map((r) => cell(c, r, 'to a first answer')),
  );
  const [directGoal, gatewayGoal] = goalsOf(warm.intro);
  const w = warm.table;
  const warmRow = (figure: string, goal: string | undefined, nth: number) =>
    row(
      figure,
      `≤ ${goal}×`,
      w.rows.map((r) => cell(w, r, 'ratio', nth)),
      w.rows.map((r) => ({ name: r[0] as string, value: cell(w, r, 'ratio', nth), verdict: cell(w, r, 'goal', nth) })),
    );
  warmRow('warm `GET /v1/orgs/:orgId`, handler ÷ bare calls', directGoal, 0);
  warmRow('warm, through the gateway ÷ bare calls through it', gatewayGoal, 1);
  const [tripsGoal] = goalsOf(trips.intro);
  const t = trips.table;
  row(
    'DynamoDB round trips per request',
    `≤ ${tripsGoal}`,
    t.rows.map((r) => cell(t, r, 'round trips')),
    t.rows.map((r) => ({
      name: `${cell(t, r, 'route')} (${cell(t, r, 'caller')})`,
      value: cell(t, r, 'round trips'),
      verdict: cell(t, r, 'goal'),
    })),
  );

  // The groups' own measurements: the parts after "What each bundle holds", each a bold title.
  const holds = lines.findIndex((l) => l.startsWith('**What each bundle holds**'));
  let part = '';
  const verdicts = new Map<string, { met: number; missed: number }>();
  for (const line of lines.slice(holds + 1)) {
    const title = /^\*\*([^*]+)\*\*/.exec(line);
    if (title) part = title[1] as string;
    if (!part || !line.startsWith('|')) continue;
    const v = verdicts.get(part) ?? { met: 0, missed: 0 };
    for (const text of cellsOf(line)) {
      if (isMissed(text)) v.missed++;
      else if (isMet(text)) v.met++;
    }
    verdicts.set(part, v);
  }
  const judgedParts = [...verdicts].filter(([, v]) => v.met + v.missed > 0);
  const met = judgedParts.reduce((n, [, v]) => n + v.met, 0);
  const missed = judgedParts.filter(([, v]) => v.missed > 0).map(([p, v]) => `${p} ${v.missed}`);
  out.push(
    '',
    `Goals of the groups' own measurements (${judgedParts.map(([p]) => p).join(', ')}): ${met} met, ` +
      `${missed.length ? `missed: ${missed.join(', ')}` : 'none missed'}.`,
  );
  return `${out.join('\n')}\n`;
}
