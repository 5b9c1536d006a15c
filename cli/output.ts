/**
 * Output for people: tables sized to the terminal (cells cut with `…` when a row is wider than
 * it), sizes, rates and durations.
 */

/** The width of the terminal output is sized to: `columns` of the Io, else 80. */
export const widthOf = (columns: number | undefined) => (columns && columns > 20 ? columns : 80);

const cut = (text: string, width: number) =>
  text.length <= width ? text : width <= 1 ? '…'.slice(0, width) : `${text.slice(0, width - 1)}…`;

/**
 * Rows as aligned columns (the first row is the header), two spaces apart, no wider than `width`:
 * the widest columns give up room first (those in `keep`, like times and ids, only when the others
 * can give no more), down to their header's width (at least 4), their cells ending with `…`.
 * Line breaks and tabs in a cell are shown as spaces.
 */
export function table(rows: string[][], width = 80, keep: number[] = []): string {
  const clean = rows.map((r) => r.map((c) => (c ?? '').replace(/[\r\n\t]+/g, ' ')));
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
    let widest = widestOf((i) => !keep.includes(i));
    if (widest < 0) widest = widestOf(() => true);
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    over--;
  }
  return clean
    .map((r) =>
      r
        .map((c, i) => {
          const text = cut(c, widths[i] ?? 0);
          return i === r.length - 1 ? text : text.padEnd(widths[i] ?? 0);
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
