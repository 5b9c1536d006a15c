import { join } from 'node:path';
import { type Markers, writeBlock } from '../bench/blocks';
import { ROOT } from '../build';

/**
 * Where a load report goes with `--write`: the whole report between its markers in the "Load"
 * section of docs/benchmarks.md, and a few lines (what ran, the goals and their verdicts) between
 * its markers in the README's bench block. One block per kind of run: `short` (a run without faults),
 * `faults` (with `--faults`) and `soak` (10 minutes or more).
 */
export type LoadKind = 'short' | 'faults' | 'soak';

export const loadKind = (seconds: number, faultRate: number): LoadKind =>
  seconds >= 600 ? 'soak' : faultRate > 0 ? 'faults' : 'short';

export const loadMarkers = (kind: LoadKind, place: 'report' | 'summary'): Markers => {
  const name = place === 'report' ? `load:${kind}` : `load-summary:${kind}`;
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
};

/** The README's lines of a load report: its first line and its goals' verdicts. */
export function renderLoadSummary(report: string): string {
  const lines = report.split('\n');
  const goals = lines
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Goal') && /: (met|\*\*missed\*\*) \|$/.test(l))
    .map((l) => l.replace(/^\| /, '').replace(/ \|$/, '').replace(' | ', ' → '));
  return `${lines[0]} Goals: ${goals.join('; ')}. Details: [benchmarks](docs/benchmarks.md#load).\n`;
}

export function writeLoad(report: string, kind: LoadKind): void {
  writeBlock(join(ROOT, 'docs', 'benchmarks.md'), report, loadMarkers(kind, 'report'));
  writeBlock(join(ROOT, 'README.md'), renderLoadSummary(report), loadMarkers(kind, 'summary'));
}
