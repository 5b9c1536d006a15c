import { performance } from 'node:perf_hooks';
import { type BenchPlatform, runAlone } from './platform';
import { median, ms, ratio } from './stats';

/**
 * The audit log's cost on a write: a page's title changed (`PATCH /v1/orgs/:orgId/pages/:pageId`,
 * a conditional update) with its audit entry written before the answer, against the same request
 * with auditing switched off (`AUDIT_OFF=1`, for this bench only), through the local gateway,
 * interleaved so both see the same machine. Goal: at most 1.25×.
 */
export interface AuditFigures {
  runs: number;
  audited: number;
  off: number;
}

export async function benchAudit(platform: BenchPlatform, runs = 100): Promise<AuditFigures> {
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway = createGateway();
  const port = await listen(gateway, 0);
  const base = `http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/pages`;
  const headers = { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' };
  const audited: number[] = [];
  const off: number[] = [];
  const before = process.env.AUDIT_OFF;
  try {
    const made = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ title: 'Bench' }) });
    const { page } = (await made.json()) as { page: { pageId: string } };
    const patch = async (i: number) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/${page.pageId}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ title: `Bench ${i}` }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`bench patch: ${res.status}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < runs + 10; i++) {
      const order = i % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const mode of order) {
        if (mode === 'off') process.env.AUDIT_OFF = '1';
        else delete process.env.AUDIT_OFF;
        const t = await patch(i);
        if (i >= 10) (mode === 'off' ? off : audited).push(t);
      }
    }
  } finally {
    if (before === undefined) delete process.env.AUDIT_OFF;
    else process.env.AUDIT_OFF = before;
    gateway.closeAllConnections();
    gateway.close();
  }
  return { runs, audited: median(audited), off: median(off) };
}

export function renderAudit(f: AuditFigures): string {
  return [
    `A page title change with its audit entry vs the same request with auditing off, through the local gateway, ` +
      `interleaved, median of ${f.runs} (goal: at most 1.25×):`,
    '',
    '| request | median | vs auditing off |',
    '|---|--:|--:|',
    `| auditing off | ${ms(f.off)} | |`,
    `| with its audit entry | ${ms(f.audited)} | ${ratio(f.audited, f.off)} |`,
    '',
  ].join('\n');
}

// `npx tsx scripts/bench/audit.ts`: this figure alone.
if (require.main === module) runAlone(async (platform) => renderAudit(await benchAudit(platform)));
