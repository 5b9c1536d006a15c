import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Metafile } from 'esbuild';
import { type Bundle, initialOutputs, ROOT } from '../build';
import { firstAnswerTime, importTime } from './cold';

/**
 * `npm run bench -- --against <ref>`: this tree's bundles side by side with those of another commit
 * (a clean worktree of `ref`, built by its own `scripts/build.ts` with this tree's node_modules),
 * measured in the same minutes and alternated run by run. Absolute cold-init times follow the
 * machine (the same bare handler measured 22 ms one day and 61 ms another on this 2-core host);
 * a change is judged by the pair, not by figures of two different days.
 */

export interface AgainstRow {
  name: string;
  startBytes: [number, number];
  importMs: [number, number];
  importCpuMs: [number, number];
  /** CPU time to a first answer; undefined for the ref when its bundle answered that request otherwise. */
  firstCpuMs: [number | undefined, number];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/** A clean worktree of `ref` with its route bundles built in its own dist/; returns its root and a cleanup. */
export function buildRef(ref: string): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'bench-ref-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, stdio: 'pipe' });
  git('worktree', 'add', '--detach', root, ref);
  const remove = () => {
    git('worktree', 'remove', '--force', root);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts')], {
      cwd: root,
      stdio: 'pipe',
    });
  } catch (err) {
    remove();
    throw err;
  }
  return { root, remove };
}

/** Bytes loaded at start of the bundle whose metafile lies beside `outfile` under `root`. */
function startBytes(root: string, outfile: string): number {
  const metafile = JSON.parse(readFileSync(join(outfile, '..', 'meta.json'), 'utf8')) as Metafile;
  const entry = relative(root, outfile).split('\\').join('/');
  return initialOutputs(metafile, entry).reduce((n, p) => n + (metafile.outputs[p]?.bytes ?? 0), 0);
}

/**
 * Each of `bundles` against the same function of the ref built under `refRoot`: `runs` imports and
 * first answers of each, alternated ref, now, now, ref … so that load and drift fall on both alike.
 */
export async function compareAgainst(
  refRoot: string,
  bundles: Bundle[],
  firsts: Record<string, unknown>,
  runs: number,
  say: (line: string) => void,
): Promise<AgainstRow[]> {
  const rows: AgainstRow[] = [];
  for (const b of bundles) {
    const refFile = join(refRoot, relative(ROOT, b.outfile));
    if (!existsSync(refFile)) continue;
    say(`against the ref: ${b.name}`);
    const t = {
      ref: { ms: [] as number[], cpu: [] as number[], first: [] as number[] },
      now: { ms: [] as number[], cpu: [] as number[], first: [] as number[] },
    };
    let refAnswers = true;
    await importTime(refFile);
    await importTime(b.outfile);
    for (let i = 0; i < runs; i++) {
      for (const side of i % 2 === 0 ? (['ref', 'now'] as const) : (['now', 'ref'] as const)) {
        const file = side === 'ref' ? refFile : b.outfile;
        const imported = await importTime(file);
        t[side].ms.push(imported.ms);
        t[side].cpu.push(imported.cpuMs);
        if (side === 'ref' && !refAnswers) continue;
        try {
          t[side].first.push((await firstAnswerTime(file, firsts[b.name])).cpuMs);
        } catch (err) {
          // The ref's route table may differ (a route added since): its first answer is not compared.
          if (side === 'now') throw err;
          refAnswers = false;
        }
      }
    }
    rows.push({
      name: b.name,
      startBytes: [startBytes(refRoot, refFile), b.bytes],
      importMs: [median(t.ref.ms), median(t.now.ms)],
      importCpuMs: [median(t.ref.cpu), median(t.now.cpu)],
      firstCpuMs: [refAnswers ? median(t.ref.first) : undefined, median(t.now.first)],
    });
  }
  return rows;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const change = (a: number, b: number) => `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)} %`;

export function renderAgainst(ref: string, runs: number, rows: AgainstRow[]): string {
  const lines = [
    `Against \`${ref}\`: each function's bundle and the ref's, ${runs} fresh processes each, alternated (medians).`,
    '',
    '| function | start bytes: ref → now | import (wall): ref → now | import (CPU): ref → now | change (CPU) | first answer (CPU): ref → now | change |',
    '|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    const [fr, fn] = r.firstCpuMs;
    lines.push(
      `| ${r.name} | ${kb(r.startBytes[0])} → ${kb(r.startBytes[1])} | ${ms(r.importMs[0])} → ${ms(r.importMs[1])} | ${ms(r.importCpuMs[0])} → ${ms(r.importCpuMs[1])} | ${change(...r.importCpuMs)} | ${fr === undefined ? 'n/a' : ms(fr)} → ${ms(fn)} | ${fr === undefined ? 'n/a' : change(fr, fn)} |`,
    );
  }
  const sum = (pick: (r: AgainstRow) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const compared = rows.filter((r) => r.firstCpuMs[0] !== undefined);
  lines.push(
    '',
    `All functions: import CPU ${change(
      sum((r) => r.importCpuMs[0]),
      sum((r) => r.importCpuMs[1]),
    )}, first answer CPU ${
      compared.length === 0
        ? 'n/a'
        : change(
            compared.reduce((n, r) => n + (r.firstCpuMs[0] as number), 0),
            compared.reduce((n, r) => n + r.firstCpuMs[1], 0),
          )
    } (${compared.length} of ${rows.length} compared), start bytes ${change(
      sum((r) => r.startBytes[0]),
      sum((r) => r.startBytes[1]),
    )}.`,
  );
  return `${lines.join('\n')}\n`;
}
