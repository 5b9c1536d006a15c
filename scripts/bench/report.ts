import type { RouteGroup } from '../../lib/route-groups';
import { type Bundle, kb, packagesOf } from '../build';
import { bareLabel } from './bare';
import type { ImportTime } from './cold';
import type { RoundTrip } from './roundtrips';
import { median, ms, ratio, verdict } from './stats';
import type { WarmResult } from './warm';

/** The goals of DESIGN.md ("Performance") the figures are judged against. */
export const GOALS = { size: 1.15, init: 1.15, warm: 1.2, direct: 1.1, roundTrips: 2 } as const;

export interface FunctionFigures {
  group: RouteGroup;
  bundle: Bundle;
  bare: Bundle;
  cold: { bundle: ImportTime[]; bare: ImportTime[] };
  /** Import and a first request without a credential (its route's module loaded, 401). */
  first: ImportTime[];
}

export interface Figures {
  date: Date;
  node: string;
  cores: number;
  cpu: string;
  /** 1-minute load average when the bench started and when it ended: other work on the machine. */
  load: [number, number];
  command: string;
  coldRuns: number;
  functions: FunctionFigures[];
  /** Functions whose bundle failed: listed, not measured. */
  failed: { name: string; error: string }[];
  warm: WarmResult;
  roundTrips: RoundTrip[];
  /** Further figures, already in markdown (a group's own measurements). */
  sections: string[];
  elapsedMs: number;
}

/** Bytes a bundle holds beyond its bare handler, per package, largest first. */
export function beyondBare(f: FunctionFigures): { name: string; bytes: number }[] {
  const bare = new Map(packagesOf(f.bare).map((p) => [p.name, p.bytes]));
  return packagesOf(f.bundle)
    .map((p) => ({ name: p.name, bytes: p.bytes - (bare.get(p.name) ?? 0) }))
    .filter((p) => p.bytes !== 0)
    .sort((a, b) => b.bytes - a.bytes);
}

/** `@aws-sdk/client-*` packages a bundle holds and its bare handler does not. */
export function undeclaredClients(f: FunctionFigures): { name: string; bytes: number }[] {
  const bare = new Set(packagesOf(f.bare).map((p) => p.name));
  return packagesOf(f.bundle).filter((p) => p.name.startsWith('@aws-sdk/client-') && !bare.has(p.name));
}

const signedKb = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${kb(Math.abs(bytes))}`;
const range = (values: number[]) => {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
};

export function renderReport(x: Figures): string {
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  push(
    `Measured ${x.date.toISOString().replace(/\.\d+Z$/, 'Z')} on Node ${x.node}, ${x.cores} cores (${x.cpu}), ` +
      `load average ${x.load[0].toFixed(1)} → ${x.load[1].toFixed(1)}, ` +
      `with \`${x.command}\` (${(x.elapsedMs / 1000).toFixed(0)} s). Bundles: esbuild with \`lib/bundle.ts\`, ` +
      `as \`npm run build\` makes them (code splitting: \`index.mjs\` and \`chunks/\`). Bundle sizes are compared ` +
      `with a bare handler that creates the same AWS SDK clients and makes one call (\`scripts/bench/bare.ts\`); cold ` +
      `init with one that creates the DynamoDB client alone.`,
    '',
    `**Bundle size**: what loads at start (the entry and its static chunks) and all of it (the chunks loaded ` +
      `with the first route that needs them included), against the bare handler's own (goal ≤ ${GOALS.size}× at start)`,
    '',
    '| function | needs | at start | all chunks | bare handler at start | ratio at start | goal |',
    '|---|---|--:|--:|--:|--:|---|',
  );
  for (const f of x.functions) {
    const r = f.bundle.bytes / f.bare.bytes;
    push(
      `| ${f.group.name} | ${f.group.needs.join(', ')} | ${kb(f.bundle.bytes)} | ${kb(f.bundle.totalBytes)} | ` +
        `${kb(f.bare.bytes)} (${bareLabel(f.group.needs)}) | ${r.toFixed(3)}× | ${verdict(r, GOALS.size)} |`,
    );
  }
  for (const f of x.failed)
    push(`| ${f.name} | | bundle failed: ${(f.error.split('\n')[0] ?? '').replaceAll('|', '\\|')} | | | **failed** |`);
  const undeclared = x.functions.flatMap((f) => {
    const clients = undeclaredClients(f);
    return clients.length ? [`${f.group.name}: ${clients.map((c) => `${c.name} ${kb(c.bytes)}`).join(', ')}`] : [];
  });
  if (undeclared.length > 0) {
    push(
      '',
      `AWS SDK clients in a bundle that its \`needs\` do not bring, so its bare handler lacks them: ${undeclared.join('; ')}.`,
    );
  }
  push(
    '',
    `**Cold init**: \`await import()\` of the bundle in a fresh \`node\` process, median of ${x.coldRuns} runs, ` +
      `against a bare handler with the DynamoDB client alone, bundle and bare alternated (goal ≤ ${GOALS.init}×)`,
    '',
    '| function | bundle | bare handler (DynamoDB alone) | ratio | goal | CPU time: bundle / bare | CPU ratio | goal (CPU) | wall ÷ CPU | to a first answer |',
    '|---|--:|--:|--:|---|--:|--:|---|--:|--:|',
  );
  for (const f of x.functions) {
    const a = median(f.cold.bundle.map((t) => t.ms));
    const b = median(f.cold.bare.map((t) => t.ms));
    const ca = median(f.cold.bundle.map((t) => t.cpuMs));
    const cb = median(f.cold.bare.map((t) => t.cpuMs));
    const stall = median([...f.cold.bundle, ...f.cold.bare].map((t) => t.ms / t.cpuMs));
    push(
      `| ${f.group.name} | ${ms(a, 1)} | ${ms(b, 1)} | ${ratio(a, b)} | ${verdict(a / b, GOALS.init)} | ` +
        `${ms(ca, 1)} / ${ms(cb, 1)} | ${ratio(ca, cb)} | ${verdict(ca / cb, GOALS.init)} | ${stall.toFixed(2)} | ` +
        `${ms(median(f.first.map((t) => t.ms)), 1)} |`,
    );
  }
  push(
    '',
    "To a first answer: the import, then a request to the group's first route that needs a credential, without " +
      "one, answered 401 once the stack has loaded that route's module: a group's routes load with the " +
      'first request that needs them (`functions/<group>/route-index.ts`), not at init. ' +
      'CPU time is user + system time of the importing process over the same interval. Wall ÷ CPU near 1 means the ' +
      'machine was otherwise idle during those runs; well above 1, other work delayed them and the CPU ratio is the ' +
      'steadier figure.',
  );
  const s = x.warm.series;
  push(
    '',
    `**Warm latency** of \`GET /v1/orgs/:orgId\`: ${x.warm.runs} sequential requests after ${x.warm.warmup} warm-up, ` +
      "against the route's own DynamoDB calls made bare with a document client, all series interleaved (DynamoDB Local in memory), at two levels: " +
      `the handler called directly, no HTTP, against the bare calls (goal ≤ ${GOALS.direct}×); and the route through the local gateway ` +
      '(handlers in-process, one kept-alive loopback connection) against the bare calls as a handler of their own behind the same gateway code, ' +
      `so both pay the same HTTP hop and event mapping (goal ≤ ${GOALS.warm}×). The last column sets the route through the gateway against ` +
      'the bare calls made without HTTP.',
    '',
    '| caller | bare calls | bare median | handler direct | ratio | goal | through the gateway (p95) | bare calls through the gateway | ratio | goal | gateway ÷ bare calls |',
    '|---|---|--:|--:|--:|---|--:|--:|--:|---|--:|',
    ...(
      [
        ['JWT', 'BatchGet (org + member)', s.bareJwt, s.handlerJwt, s.gatewayJwt, s.bareGatewayJwt],
        ['API key', 'BatchGet (key + org)', s.bareKey, s.handlerKey, s.gatewayKey, s.bareGatewayKey],
      ] as const
    ).map(
      ([caller, calls, bare, direct, gw, bareGw]) =>
        `| ${caller} | ${calls} | ${ms(bare.median)} | ${ms(direct.median)} | ${ratio(direct.median, bare.median)} | ` +
        `${verdict(direct.median / bare.median, GOALS.direct)} | ${ms(gw.median)} (${ms(gw.p95)}) | ${ms(bareGw.median)} | ` +
        `${ratio(gw.median, bareGw.median)} | ${verdict(gw.median / bareGw.median, GOALS.warm)} | ${ratio(gw.median, bare.median)} |`,
    ),
    '',
    `Rate limits (counted in memory, written in the background): JWT with counting ${ms(s.gatewayJwt.median)}, without ` +
      `${ms(s.gatewayJwtUncounted.median)}: ${ratio(s.gatewayJwt.median, s.gatewayJwtUncounted.median)} ` +
      `(goal ≤ 1.05×, ${verdict(s.gatewayJwt.median / s.gatewayJwtUncounted.median, 1.05)}).`,
    '',
    'Where the time goes (medians): ' +
      `\`authenticate()\` of a JWT already verified once (cached until it expires): ${ms(s.authJwt.median)}; ` +
      `\`GET /health\` through the gateway (no DynamoDB): ${ms(s.health.median)} (p95 ${ms(s.health.p95)}); ` +
      `a bare Node HTTP server on the same kind of connection: ${ms(s.httpFloor.median)}.`,
    '',
    `**DynamoDB round trips per request**, counted by an HTTP proxy in front of DynamoDB Local (goal ≤ ${GOALS.roundTrips}, auth included; ` +
      '"waves": how many times the request waits, calls sent together counting once; "in the background": calls the request started ' +
      'but did not wait for, such as its rate-limit count, written at most once a second)',
    '',
    '| route | caller | round trips | waves | in the background | operations | goal |',
    '|---|---|--:|--:|--:|---|---|',
  );
  for (const r of x.roundTrips) {
    push(
      `| \`${r.route}\` | ${r.caller} | ${range(r.counts)} | ${range(r.waves)} | ${range(r.background)} | ${r.operations.join(', ')} | ` +
        `${verdict(Math.max(...r.counts), GOALS.roundTrips)} |`,
    );
  }
  push(
    '',
    '**What each bundle holds** (bytes in the output, from the esbuild metafile)',
    '',
    '| function | largest packages | beyond the bare handler |',
    '|---|---|---|',
  );
  for (const f of x.functions) {
    const top = packagesOf(f.bundle)
      .slice(0, 6)
      .map((p) => `${p.name} ${kb(p.bytes)}`)
      .join(', ');
    const extra = beyondBare(f);
    const total = f.bundle.bytes - f.bare.bytes;
    const shown = extra
      .slice(0, 8)
      .map((p) => `${p.name} ${signedKb(p.bytes)}`)
      .join(', ');
    push(`| ${f.group.name} | ${top} | ${signedKb(total)} in all: ${shown} |`);
  }
  for (const section of x.sections) push('', section.trimEnd());
  return `${lines.join('\n')}\n`;
}
