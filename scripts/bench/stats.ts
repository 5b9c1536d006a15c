/** Nearest-rank percentile of a sample (p in 0..100). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export const median = (values: number[]) => percentile(values, 50);

export const ms = (value: number, digits = 2) => `${value.toFixed(digits)} ms`;
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
export const verdict = (value: number, goal: number) => (value <= goal ? 'met' : '**missed**');
