import { performance } from 'node:perf_hooks';
import type { BenchPlatform } from './platform';
import { median, ms, ratio } from './stats';

/**
 * Idempotency keys: a create with a fresh key (the claim, the route's own work, the answer kept)
 * against the same request again (the claim refused, the kept answer read and replayed), both
 * through the local gateway, interleaved.
 */
export interface IdempotencyFigures {
  runs: number;
  original: number;
  replay: number;
}

export async function benchIdempotency(platform: BenchPlatform, runs = 50): Promise<IdempotencyFigures> {
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway = createGateway();
  const port = await listen(gateway, 0);
  const original: number[] = [];
  const replay: number[] = [];
  try {
    for (let i = 0; i < runs + 5; i++) {
      const slug = `idem-${Date.now().toString(36)}-${i}`;
      const send = async () => {
        const t0 = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/projects`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${platform.jwt}`,
            'content-type': 'application/json',
            'idempotency-key': `bench-${slug}`,
          },
          body: JSON.stringify({ name: 'Bench', slug }),
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`bench create: ${res.status}`);
        return { ms: performance.now() - t0, replayed: res.headers.get('idempotent-replayed') === 'true' };
      };
      const a = await send();
      const b = await send();
      if (a.replayed || !b.replayed) throw new Error('the bench replay was not one');
      if (i >= 5) {
        original.push(a.ms);
        replay.push(b.ms);
      }
    }
  } finally {
    gateway.closeAllConnections();
    gateway.close();
  }
  return { runs, original: median(original), replay: median(replay) };
}

export function renderIdempotency(f: IdempotencyFigures): string {
  return [
    `A project create with a fresh \`Idempotency-Key\` and the same request again (replayed), through the local ` +
      `gateway, median of ${f.runs}:`,
    '',
    '| request | median | vs the original |',
    '|---|--:|--:|',
    `| original create | ${ms(f.original)} | |`,
    `| replay | ${ms(f.replay)} | ${ratio(f.replay, f.original)} |`,
    '',
  ].join('\n');
}
