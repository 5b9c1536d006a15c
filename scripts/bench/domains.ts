import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type BenchPlatform, runAlone } from './platform';
import { median, ms, percentile, ratio } from './stats';

/**
 * A static page through the local edge by custom domain, by deployment host, and from a bare
 * file server on the same folder (`http.createServer` + `createReadStream`, no lookup): the edge's
 * own cost (its request handling, file checks) and the host registry's (one GetItem of the host;
 * a custom domain reads its domain record too). Seeded through the store; sequential requests on
 * one kept-alive connection each, after a warm-up.
 */
export interface DomainsFigures {
  runs: number;
  domain: { median: number; p95: number };
  deployment: { median: number; p95: number };
  bare: { median: number; p95: number };
  /** One GetItem of a host's registry item (shared/domains/host-registry/registry.ts getHost), the lookup's share. */
  registry: { median: number; p95: number };
}

const agentGet = (port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${host}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });

async function measure(port: number, host: string, runs: number) {
  for (let i = 0; i < 30; i++) await agentGet(port, host);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await agentGet(port, host));
  return { median: median(times), p95: percentile(times, 95) };
}

export async function benchDomains(platform: BenchPlatform, options: { runs?: number } = {}): Promise<DomainsFigures> {
  const runs = options.runs ?? 300;
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-domains-'));
  const previous = process.env.DATA_DIR;
  process.env.DATA_DIR = dataDir;
  const stops: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const [
      { putNew, keys },
      { transact },
      { newId },
      { getHost, hostEntry, reserveHost },
      { newDeploymentItems },
      paths,
      edgeMod,
    ] = await Promise.all([
      import('../../shared/kernel/store/table'),
      import('../../shared/kernel/store/ops'),
      import('../../shared/kernel/store/ids'),
      import('../../shared/domains/host-registry/registry'),
      import('../../shared/domains/projects/deployments'),
      import('../../shared/kernel/tenancy/paths'),
      import('../../lib/local/edge'),
    ]);
    const orgId = platform.orgId;
    const projectId = newId('prj_');
    const deploymentId = newId('dpl_');
    const now = Date.now();
    const deploymentHost = `bench-${deploymentId.slice(-12).toLowerCase()}.localhost`;
    const domain = `shop.bench-${deploymentId.slice(-8).toLowerCase()}.test`;
    await transact([
      putNew({
        ...keys.org(orgId),
        sk: `PRJ#${projectId}`,
        projectId,
        orgId,
        name: 'Bench',
        slug: 'bench',
        status: 'active',
        version: 1,
        productionDeploymentId: deploymentId,
        createdAt: now,
      }),
      putNew({
        pk: keys.org(orgId).pk,
        sk: `DOM#${domain}`,
        hostname: domain,
        orgId,
        projectId,
        status: 'active',
        version: 1,
        createdAt: now,
      }),
      reserveHost(hostEntry(deploymentHost, 'deployment', { orgId, projectId, deploymentId })),
      reserveHost(hostEntry(domain, 'domain', { orgId, projectId })),
    ]);
    await transact(
      newDeploymentItems({
        deploymentId,
        orgId,
        projectId,
        location: 'fra',
        target: 'production',
        status: 'ready',
        host: deploymentHost,
        createdAt: now,
      } as never),
    );
    const folder = paths.localPaths.static(deploymentId);
    mkdirSync(folder, { recursive: true });
    const page = `<!doctype html><title>Bench</title><h1>A static page</h1><p>${'lorem ipsum '.repeat(200)}</p>\n`;
    writeFileSync(join(folder, 'index.html'), page);

    const edge = await edgeMod.startEdge({ port: 0 });
    stops.push(edge.close);
    const bare = createServer((_req, res) => {
      const file = join(folder, 'index.html');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': statSync(file).size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', () => resolve()));
    stops.push(() => new Promise<void>((resolve) => bare.close(() => resolve())));
    const barePort = (bare.address() as AddressInfo).port;

    const lookups: number[] = [];
    for (let i = 0; i < runs + 30; i++) {
      const started = performance.now();
      await getHost(domain);
      if (i >= 30) lookups.push(performance.now() - started);
    }
    return {
      runs,
      registry: { median: median(lookups), p95: percentile(lookups, 95) },
      domain: await measure(edge.port, domain, runs),
      deployment: await measure(edge.port, deploymentHost, runs),
      bare: await measure(barePort, 'bare', runs),
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
    if (previous === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = previous;
  }
}

export function renderDomains(f: DomainsFigures): string {
  const row = (name: string, x: { median: number; p95: number }) =>
    `| ${name} | ${ms(x.median)} | ${ms(x.p95)} | ${ratio(x.median, f.bare.median)} |`;
  return [
    `A static page (${f.runs} sequential requests after a warm-up) through the local edge by custom domain and by ` +
      'deployment host, and from a bare file server on the same folder:',
    '',
    '| served by | median | p95 | ÷ bare |',
    '|---|--:|--:|--:|',
    row('edge, custom domain (registry + domain record + project)', f.domain),
    row('edge, deployment host (registry)', f.deployment),
    row('bare file server', f.bare),
    row('the registry lookup alone (one GetItem)', f.registry),
    '',
  ].join('\n');
}

// `npx tsx scripts/bench/domains.ts`: this figure alone.
if (require.main === module) runAlone(async (platform) => renderDomains(await benchDomains(platform)));
