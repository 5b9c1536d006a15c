/**
 * Output for people and for scripts: on a terminal, tables sized to it (cells cut with `…` when a
 * row is wider than it) and colour where it carries meaning; elsewhere, whole tab-separated cells.
 * Sizes, rates and durations.
 */

/** The width tables are sized to: the terminal's (at least 20); undefined when stdout is not one. */
export const widthOf = (columns: number | undefined) => (columns === undefined ? undefined : Math.max(20, columns));

const COLOURS = { red: 31, green: 32, yellow: 33, blue: 34, grey: 90 } as const;

/** The colour a status word carries: done green, failed red, under way yellow, stopped grey. */
function colourOf(status: string): keyof typeof COLOURS | undefined {
  const s = status.toLowerCase();
  if (/^(ready|succeeded|success|merged|done|approved|active|verified|open|accepted|delivered|live)$/.test(s))
    return 'green';
  if (/^(error|failed|failure|denied|refused|rejected|declined|expired|invalid)$/.test(s)) return 'red';
  if (/^(queued|building|deploying|pending|waiting|running|in progress|assigned|claimed|tentative)$/.test(s))
    return 'yellow';
  if (/^(canceled|cancelled|closed|superseded|revoked)$/.test(s)) return 'grey';
  return undefined;
}

/** A status word in its colour when `colour` is on (a terminal, no NO_COLOR, no --no-color). */
export function paintStatus(text: string, colour: boolean | undefined): string {
  const c = colour ? colourOf(text.replace(/…$/, '').trim()) : undefined;
  return c ? `\x1b[${COLOURS[c]}m${text}\x1b[0m` : text;
}

/** How a table is shown: the terminal's width (none: not a terminal) and whether colour is on. */
export interface TableOut {
  columns?: number;
  color?: boolean;
}

const cut = (text: string, width: number) =>
  text.length <= width ? text : width <= 1 ? '…'.slice(0, width) : `${text.slice(0, width - 1)}…`;

/**
 * Rows as aligned columns (the first row is the header), two spaces apart, no wider than `width`:
 * the widest columns give up room, down to their header's width (at least 4), their cells ending
 * with `…`; those in `keep` (ids, URLs, times) never do: a row that still does not fit runs over.
 * Line breaks and tabs in a cell are shown as spaces.
 */
export function table(
  rows: string[][],
  out: TableOut | number | undefined,
  keep: number[] = [],
  status?: number,
): string {
  const clean = rows.map((r) => r.map((c) => (c ?? '').replace(/[\r\n\t]+/g, ' ')));
  const { columns, color } = typeof out === 'number' ? { columns: out, color: false } : (out ?? {});
  const width = widthOf(columns);
  // Not a terminal: every cell whole, tab-separated, no header (as gh prints for scripts).
  if (width === undefined)
    return clean
      .slice(1)
      .map((r) => r.join('\t'))
      .join('\n');
  const n = Math.max(0, ...clean.map((r) => r.length));
  const widths = Array.from({ length: n }, (_, i) => Math.max(0, ...clean.map((r) => (r[i] ?? '').length)));
  const floor = widths.map((_, i) => Math.max(4, Math.min(widths[i] ?? 0, (clean[0]?.[i] ?? '').length)));
  let over = widths.reduce((a, b) => a + b, 0) + 2 * (n - 1) - width;
  const widestOf = (allowed: (i: number) => boolean) => {
    let widest = -1;
    for (let i = 0; i < n; i++) {
      if (!allowed(i) || (widths[i] ?? 0) <= (floor[i] ?? 0)) continue;
      if (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i;
    }
    return widest;
  };
  while (over > 0) {
    // The widest column that can still give room gives one character.
    const widest = widestOf((i) => !keep.includes(i));
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    over--;
  }
  return clean
    .map((r) =>
      r
        .map((c, i) => {
          const text = cut(c, widths[i] ?? 0);
          const padded = i === r.length - 1 ? text : text.padEnd(widths[i] ?? 0);
          return i === status && r !== clean[0] ? paintStatus(padded, color) : padded;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `812 B`, `1.5 KB`, `50.0 MB`. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/** `42 s`, `3 min 5 s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** A time as `2026-11-26 08:25` (UTC), from epoch milliseconds or an ISO string. */
export function when(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : d.toISOString().slice(0, 16).replace('T', ' ');
}
