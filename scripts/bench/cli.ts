import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, ms, percentile, verdict } from './stats';

/**
 * The command line's start: `platform --help` as the package's bin runs it (node, the bundle,
 * V8's code cache), a fresh process each time, against `node -e 0` (Node's own start). The
 * first run (which may bundle and writes the code cache) is not counted. Goal: under 300 ms.
 */
export interface CliFigures {
  runs: number;
  help: { median: number; p90: number };
  node: number;
}

const GOAL_MS = 300;
const BIN = join(__dirname, '..', '..', 'cli', 'bin.cjs');

function time(args: string[]): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH } });
  const took = performance.now() - started;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  return took;
}

export function benchCli(runs = 15): CliFigures {
  time([BIN, '--help']);
  const help: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < runs; i++) {
    help.push(time([BIN, '--help']));
    node.push(time(['-e', '0']));
  }
  return { runs, help: { median: median(help), p90: percentile(help, 90) }, node: median(node) };
}

export const renderCli = (f: CliFigures) =>
  `| | median | p90 | goal |\n|---|---|---|---|\n` +
  `| \`platform --help\` (${f.runs} runs) | ${ms(f.help.median, 0)} | ${ms(f.help.p90, 0)} | < ${GOAL_MS} ms: ${verdict(f.help.p90, GOAL_MS)} |\n` +
  `| \`node -e 0\` (Node's own start) | ${ms(f.node, 0)} | | |`;

// `npx tsx scripts/bench/cli.ts`: this figure alone.
if (require.main === module) process.stdout.write(`${renderCli(benchCli())}\n`);
