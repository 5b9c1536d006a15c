import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type DnsServer, startDnsServer } from '../../lib/local/dns';
import { type Edge, startEdge } from '../../lib/local/edge';
import { hostEntry, reserveHost } from '../../shared/domains/host-registry/registry';
import { db } from '../../shared/kernel/store/client';
import { newId } from '../../shared/kernel/store/ids';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { addDeployment, setProduction } from '../projects/fixtures';

export { until } from '../helpers/until';

/**
 * A domains test file's world: the platform through the local gateway, the local authoritative
 * DNS server the platform's lookups go to (`DNS_SERVERS`), the local edge, and the queue workers
 * (domain checks, notify) on their own SQS endpoint. Deployment files under a DATA_DIR of its own.
 */
export interface DomainsWorld {
  p: TestPlatform;
  dns: DnsServer;
  edge: Edge;
  close(): Promise<void>;
}

export async function startWorld(workers: string[] = ['domain-checks', 'notify']): Promise<DomainsWorld> {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'domains-'));
  process.env.OUTBOX_DIR = join(process.env.DATA_DIR, 'outbox');
  const dns = await startDnsServer({ port: 0 });
  process.env.DNS_SERVERS = `127.0.0.1:${dns.port}`;
  const running = await startQueueWorker(...workers);
  const p = await TestPlatform.start();
  const edge = await startEdge({ port: 0 });
  return {
    p,
    dns,
    edge,
    close: async () => {
      await p.close();
      await edge.close();
      await running.stop();
      await dns.close();
    },
  };
}

let n = 0;
/** A name no other test file uses. */
export const unique = (base = 'd') =>
  `${base}-${process.pid.toString(36)}${Date.now().toString(36)}${(n++).toString(36)}`;

/**
 * A production deployment of the project whose static output is one page saying `text`, written
 * as a finished build leaves it (the record, its folder, the project's pointer).
 */
export async function staticProduction(orgId: string, projectId: string, text: string) {
  const d = await addDeployment(orgId, projectId, { target: 'production', status: 'ready' });
  const dir = localPaths.static(d.deploymentId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), `<!doctype html><p>${text}</p>\n`);
  await setProduction(orgId, projectId, d.deploymentId);
  return d;
}

/** A deployment host held in the registry, as a deployment's create reserves it. */
export async function reserveDeploymentHost(orgId: string, projectId: string, host: string) {
  const deploymentId = newId('dpl_');
  await db.send(new PutCommand(reserveHost(hostEntry(host, 'deployment', { orgId, projectId, deploymentId })).Put));
  return deploymentId;
}

/** What `check` answers once it answers something, polled every 100 ms for `ms`. */
