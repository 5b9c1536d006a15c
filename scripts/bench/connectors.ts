import { performance } from 'node:perf_hooks';
import type { BenchPlatform } from './platform';
import { median, ratio } from './stats';

/**
 * A connector's `test` (`POST …/connectors/:id/test` through the local gateway: the connector read,
 * an MCP session over Streamable HTTP through the guarded fetch, `tools/list`, the tools and status
 * written in one transaction, the connector read again) against the MCP SDK's own connect and
 * `listTools` on the same server: server-everything on loopback, as `npm start` allows connectors.
 */
export interface ConnectorFigures {
  runs: number;
  tools: number;
  test: { api: number; sdk: number };
}

export async function benchConnectors(
  platform: BenchPlatform,
  options: { runs?: number } = {},
): Promise<ConnectorFigures> {
  const runs = options.runs ?? 30;
  process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const { startEverything } = await import('../../test/connectors/servers');
  const { createConnector } = await import('../../shared/domains/connectors/records');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const server = await startEverything('streamableHttp');
  const url = server.url;
  const gateway = createGateway();
  const api = `http://127.0.0.1:${await listen(gateway, 0)}`;
  try {
    const connector = await createConnector(platform.orgId, platform.userId, {
      name: 'Bench',
      slug: `bench-${Date.now().toString(36)}`,
      url,
      transport: 'http',
      authType: 'none',
    });
    const viaApi: number[] = [];
    const viaSdk: number[] = [];
    let tools = 0;
    for (let i = 0; i < runs + 3; i++) {
      const t0 = performance.now();
      const res = await fetch(`${api}/v1/orgs/${platform.orgId}/connectors/${connector.connectorId}/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${platform.jwt}` },
      });
      const body = (await res.json()) as { connector: { status: string; toolCount: number; lastError?: string } };
      const t1 = performance.now();
      if (body.connector?.status !== 'ok') throw new Error(`the bench test failed: ${JSON.stringify(body)}`);
      tools = body.connector.toolCount;

      const t2 = performance.now();
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const listed = await client.listTools();
      await client.close();
      const t3 = performance.now();
      if (listed.tools.length !== tools) throw new Error('the SDK listed other tools');
      if (i >= 3) {
        viaApi.push(t1 - t0);
        viaSdk.push(t3 - t2);
      }
    }
    return { runs, tools, test: { api: median(viaApi), sdk: median(viaSdk) } };
  } finally {
    gateway.closeAllConnections();
    gateway.close();
    await server.stop();
  }
}

export function renderConnectors(f: ConnectorFigures): string {
  return [
    `A connector's \`test\` through the local gateway vs the MCP SDK's connect and \`listTools\` on the same ` +
      `server (server-everything over Streamable HTTP on loopback, ${f.tools} tools), median of ${f.runs} rounds:`,
    '',
    '| operation | through the API | SDK alone | ratio |',
    '|---|--:|--:|--:|',
    `| test (connect, list, cache) | ${f.test.api.toFixed(2)} ms | ${f.test.sdk.toFixed(2)} ms | ${ratio(f.test.api, f.test.sdk)} |`,
    '',
  ].join('\n');
}
