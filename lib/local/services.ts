import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ownChild } from './child';
import { type DynamoLocal, startDynamoLocal } from './dynamodb';
import { createIdpServer } from './idp';
import type { EngineCredentials } from './sigv4';
import { type LocalSqs, startSqs } from './sqs';
import { type Engine, type Supervised, supervise } from './supervise';

/**
 * The embedded AWS stand-ins of the one-machine platform (DynamoDB Local, s3rver, fauxqs, the
 * identity provider's JWKS), where they keep their data, and the `local.json` that tells the
 * local CLI and people where they run. Wiring only: what the platform holds is seeded elsewhere.
 */

/** Every service binds loopback only: the local platform is for the person at this machine. */
export const HOST = '127.0.0.1';

export const BUCKETS = { artifacts: 'platform-artifacts' } as const;

export interface LocalPorts {
  api: number;
  idp: number;
  dynamodb: number;
  s3: number;
  sqs: number;
}

export class LocalSetupError extends Error {
  override name = 'LocalSetupError';
}

function portOf(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new LocalSetupError(`${name} must be a port number, not "${value}".`);
  return port;
}

/** `PORT` (3000) for the API; the others follow it (+1 … +4) unless set on their own. */
export function portsFromEnv(env: NodeJS.ProcessEnv): LocalPorts {
  const api = portOf(env.PORT, 3000, 'PORT');
  const ports: LocalPorts = {
    api,
    idp: portOf(env.IDP_PORT, api + 1, 'IDP_PORT'),
    dynamodb: portOf(env.DYNAMODB_PORT, api + 2, 'DYNAMODB_PORT'),
    s3: portOf(env.S3_PORT, api + 3, 'S3_PORT'),
    sqs: portOf(env.SQS_PORT, api + 4, 'SQS_PORT'),
  };
  const values = Object.values(ports);
  if (values.some((p) => p > 65535))
    throw new LocalSetupError(`PORT ${api} leaves no room for the other services (PORT+1 … PORT+4).`);
  if (new Set(values).size !== values.length) {
    throw new LocalSetupError(`Each service needs its own port: ${JSON.stringify(ports)}.`);
  }
  return ports;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, HOST, () => srv.close(() => resolve(true)));
  });
}

/**
 * Refuses to start on a taken port: a DynamoDB Local left over from an earlier run would answer
 * the readiness probe of the new one, and this run would silently use the old data.
 */
export async function assertPortsFree(ports: LocalPorts): Promise<void> {
  const entries = Object.entries(ports) as [keyof LocalPorts, number][];
  const taken = (
    await Promise.all(entries.map(async ([name, port]) => ((await isFree(port)) ? undefined : `${port} (${name})`)))
  ).filter(Boolean);
  if (taken.length > 0) {
    throw new LocalSetupError(
      `${taken.length > 1 ? 'Ports' : 'Port'} ${taken.join(', ')} ${taken.length > 1 ? 'are' : 'is'} in use. Is the local platform already running? ` +
        'Stop it, or choose other ports with PORT (or IDP_PORT, DYNAMODB_PORT, S3_PORT, SQS_PORT).',
    );
  }
}

/** A random secret kept in `file` (mode 600), created on first use, the same on every later start. */
export function ensureSecretFile(file: string): string {
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value) return value;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('base64url');
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return value;
}

/**
 * `DATA_DIR` and its `keys/` for this user alone (0700), made so before anything is written there,
 * also when an earlier start or a person left them open: the engines' data, the deployments'
 * variables and every key live there.
 */
export function privateDataDir(dataDir: string): void {
  for (const dir of [dataDir, join(dataDir, 'keys')]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
}

/**
 * The key pair the platform signs its requests to the local engines with (DynamoDB Local, the S3
 * server, the SQS endpoint; each refuses any other): generated once per `DATA_DIR` and kept with
 * the keys. The key id is derived from the secret, so one file holds both.
 */
export function engineCredentials(dataDir: string): EngineCredentials {
  return credentialsFrom(ensureSecretFile(join(dataDir, 'keys', 'engines-secret')));
}

/** Fresh credentials kept nowhere (tests). */
export const newEngineCredentials = (): EngineCredentials => credentialsFrom(randomBytes(32).toString('base64url'));

const credentialsFrom = (secretAccessKey: string): EngineCredentials => ({
  accessKeyId: `LOCAL${createHash('sha256').update(secretAccessKey).digest('hex').slice(0, 15).toUpperCase()}`,
  secretAccessKey,
});

/** Writes a file only its owner reads (tokens and keys inside). */
export function writePrivateJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export interface LocalS3 {
  endpoint: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts s3rver in its own Node process (see `s3-server.ts` for why), persisted under
 * `directory`, with `buckets` created and open to CORS. Resolves once it listens.
 */
export function startS3(options: {
  port: number;
  directory: string;
  buckets: string[];
  credentials: EngineCredentials;
}): Promise<LocalS3> {
  mkdirSync(options.directory, { recursive: true });
  const require = createRequire(__filename);
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '--import', tsx, join(__dirname, 's3-server.ts')],
    {
      env: {
        ...process.env,
        S3_SERVER_OPTIONS: JSON.stringify({
          port: options.port,
          address: HOST,
          directory: options.directory,
          buckets: options.buckets,
          credentials: options.credentials,
        }),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Its own process group: only this process stops it (ownChild), never a Ctrl-C behind the supervisor's back.
      detached: true,
    },
  );
  const { kill, stop, release } = ownChild(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error('The S3 server did not start within 30 s.'));
    }, 30_000);
    child.once('message', () => {
      clearTimeout(timer);
      // Only the readiness message travels over IPC; keeping the channel open lets the child
      // notice when this process dies.
      child.channel?.unref();
      resolve({ endpoint: `http://${HOST}:${options.port}`, process: child, stop });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      release();
      reject(new Error(`The S3 server exited while starting (${signal ?? code}).`));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
}

export interface LocalServices {
  dynamo: DynamoLocal;
  s3: LocalS3;
  sqs: LocalSqs;
  idp: Server;
  /** How long each took to answer, in ms (they start at once): a slow start names its cause. */
  startMs: { dynamodb: number; s3: number; sqs: number; idp: number };
  /** No engine is started again from now on (the platform is stopping). */
  hold: () => void;
  stop: () => Promise<void>;
}

/**
 * Starts DynamoDB Local (persisted under `<dataDir>/dynamodb`), the S3 server (`<dataDir>/s3`),
 * the SQS endpoint (in memory) and the identity provider's JWKS (`<dataDir>/keys/idp.json`), all
 * at once. When one fails, the others are stopped before the error is thrown.
 */
export async function startServices(options: {
  dataDir: string;
  ports: LocalPorts;
  region: string;
  authUrl: string;
  credentials: EngineCredentials;
  /** Start DynamoDB Local and the S3 server again when they die (`npm start`), saying so with `say`. */
  supervision?: { say: (line: string) => void; giveUp: (reason: string) => void };
}): Promise<LocalServices> {
  const { dataDir, ports, credentials } = options;
  const idpServer = async () => {
    const server = await createIdpServer(join(dataDir, 'keys', 'idp.json'), () => options.authUrl);
    await listenOn(server, ports.idp);
    return server;
  };
  const from = Date.now();
  const startMs = { dynamodb: 0, s3: 0, sqs: 0, idp: 0 };
  const timed = <T>(name: keyof typeof startMs, p: Promise<T>) =>
    p.finally(() => {
      startMs[name] = Date.now() - from;
    });
  const startDynamo = () => startDynamoLocal({ port: ports.dynamodb, dbPath: join(dataDir, 'dynamodb'), credentials });
  const startS3Server = () =>
    startS3({ port: ports.s3, directory: join(dataDir, 's3'), buckets: Object.values(BUCKETS), credentials });
  const results = await Promise.allSettled([
    timed('dynamodb', startDynamo()),
    timed('s3', startS3Server()),
    timed('sqs', startSqs({ port: ports.sqs, host: HOST, region: options.region, credentials })),
    timed('idp', idpServer()),
  ] as const);
  const [dynamo, s3, sqs, idp] = results;
  const stops: (() => Promise<void>)[] = [];
  if (idp.status === 'fulfilled') stops.push(() => closeServer(idp.value));
  if (sqs.status === 'fulfilled') stops.push(sqs.value.stop);
  if (s3.status === 'fulfilled') stops.push(s3.value.stop);
  if (dynamo.status === 'fulfilled') stops.push(dynamo.value.stop);
  const stop = async () => {
    await Promise.allSettled(stops.map((s) => s()));
  };
  if (
    dynamo.status === 'rejected' ||
    s3.status === 'rejected' ||
    sqs.status === 'rejected' ||
    idp.status === 'rejected'
  ) {
    await stop();
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    throw failed.reason;
  }
  if (!options.supervision)
    return { dynamo: dynamo.value, s3: s3.value, sqs: sqs.value, idp: idp.value, startMs, hold: () => undefined, stop };
  // Watched as a process manager would: a dead engine is started again on its port and data folder.
  const { say, giveUp } = options.supervision;
  const dynamoWatch = supervise('DynamoDB Local', dynamo.value, startDynamo, { say, giveUp });
  const s3Watch = supervise('The S3 server', s3.value, startS3Server, { say, giveUp });
  const supervised = <E extends { endpoint: string; process: ChildProcess }>(w: Supervised<E & Engine>) => ({
    ...w.current(),
    get process() {
      return w.current().process;
    },
    stop: w.stop,
    restarts: w.restarts,
  });
  stops.splice(stops.indexOf(dynamo.value.stop), 1, dynamoWatch.stop);
  stops.splice(stops.indexOf(s3.value.stop), 1, s3Watch.stop);
  const hold = () => {
    dynamoWatch.hold();
    s3Watch.hold();
  };
  return {
    dynamo: supervised(dynamoWatch),
    s3: supervised(s3Watch),
    sqs: sqs.value,
    idp: idp.value,
    startMs,
    hold,
    stop,
  };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** `<DATA_DIR>/local.json`: what `npm start` started, for the local CLI and for people. */
export interface LocalInfo {
  baseUrl: string;
  authUrl: string;
  endpoints: { dynamodb: string; s3: string; sqs: string };
  dataDir: string;
  region: string;
  tableName: string;
  buckets: { artifacts: string };
  queues: { agentJobs: string; agentJobsDlq: string };
  orgs: { platform: { orgId: string; slug: string }; customer: { orgId: string; slug: string } };
  owner: { email: string; userId: string; token: string; expiresAt: number };
  /** The customer organization's API key with every scope (only its hash is stored in the table). */
  apiKey: string;
  /** The local edge: deployments answer at `<name>.localhost:<its port>`. */
  edgeUrl?: string;
  pid: number;
  startedAt: number;
}

export const localInfoFile = (dataDir: string) => join(dataDir, 'local.json');

export function readLocalInfo(dataDir: string): LocalInfo | undefined {
  const file = localInfoFile(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LocalInfo;
  } catch {
    return undefined;
  }
}
