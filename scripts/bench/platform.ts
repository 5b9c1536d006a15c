import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoLocal, ensurePlatformTable, startDynamoLocal } from '../../lib/local/dynamodb';
import { listen } from '../../lib/local/gateway';
import { createIdpServer, idpSigner } from '../../lib/local/idp';
import { newEngineCredentials } from '../../lib/local/services';
import type { EngineCredentials } from '../../lib/local/sigv4';
import { freePort } from '../../shared/kernel/net/free-port';

/**
 * The local platform for the bench, as the tests stand it up: DynamoDB Local in memory on a free
 * port, the identity provider on loopback, the environment the handlers read, the platform table,
 * and one seeded organization with an owner (a JWT) and an API key. The modules that read the
 * environment when loaded (config, the store's client) are imported only after it is set.
 */
const OWNER_EMAIL = 'owner@bench.example';

export interface BenchPlatform {
  env: Record<string, string>;
  dynamoEndpoint: string;
  orgId: string;
  jwt: string;
  apiKey: string;
  /** The owner's user id, for the bare calls that read the member item. */
  userId: string;
  /** The owner's email (the load makes the owner an operator too). */
  ownerEmail: string;
  /** The key's SHA-256, for the bare GetItem of the key. */
  keyHash: string;
  stop: () => Promise<void>;
}

/** The environment every handler of the bench runs with (the tests set the same). */
export function platformEnv(
  dynamoEndpoint: string,
  authUrl: string,
  keyFile: string,
  credentials: EngineCredentials,
): Record<string, string> {
  return {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    TABLE_NAME: 'platform-bench',
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
    PLATFORM_TARGET: 'local',
    IDP_KEY_FILE: keyFile,
    AUTH_URL: authUrl,
    LOG_LEVEL: 'silent',
    // Rate limits count (their cost is measured) but never refuse the bench's own load.
    RATE_LIMIT_ORG: '100000000',
    RATE_LIMIT_KEY: '100000000',
  };
}

/**
 * `through` puts something (the load script's fault proxies) in front of an engine's endpoint
 * before any handler or store client sees it.
 */
export type EndpointWrap = (service: 'dynamodb' | 's3' | 'sqs', endpoint: string) => Promise<string>;

export async function startBenchPlatform(
  through: EndpointWrap = async (_service, endpoint) => endpoint,
  options: { dynamoOnDisk?: boolean } = {},
): Promise<BenchPlatform> {
  const dir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    const credentials = newEngineCredentials();
    // In memory for the bench's figures; on disk, as `npm start` keeps it, for the load's memory.
    const dynamo: DynamoLocal = await startDynamoLocal({
      port: await freePort(),
      credentials,
      ...(options.dynamoOnDisk ? { dbPath: join(dir, 'dynamodb') } : {}),
    });
    stops.push(() => dynamo.stop());
    const keyFile = join(dir, 'idp-key.json');
    let authUrl = '';
    const idp: Server = await createIdpServer(keyFile, () => authUrl);
    authUrl = `http://127.0.0.1:${await listen(idp, 0)}`;
    stops.push(() => {
      idp.closeAllConnections();
      idp.close();
    });

    const env = platformEnv(await through('dynamodb', dynamo.endpoint), authUrl, keyFile, credentials);
    Object.assign(process.env, env);
    // One S3 server for the whole run (the storage port's client keeps the endpoint it first saw).
    const { startS3 } = await import('../../lib/local/services');
    const s3 = await startS3({ port: await freePort(), directory: join(dir, 's3'), buckets: [], credentials });
    stops.push(() => s3.stop());
    Object.assign(process.env, { AWS_ENDPOINT_URL_S3: await through('s3', s3.endpoint), S3_FORCE_PATH_STYLE: 'true' });
    // One SQS engine with every worker's queue for the whole run, as `npm start` has: the queue
    // port's client is made once per process, so every figure must reach the same engine.
    const { startSqs, createWorkerQueues } = await import('../../lib/local/sqs');
    const sqs = await startSqs({ port: await freePort(), region: env.AWS_REGION as string, credentials });
    stops.push(() => sqs.stop());
    process.env.AWS_ENDPOINT_URL_SQS = await through('sqs', sqs.endpoint);
    Object.assign(
      process.env,
      await createWorkerQueues({ endpoint: sqs.endpoint, region: env.AWS_REGION as string, credentials }),
    );
    const admin = new DynamoDBClient({ endpoint: dynamo.endpoint });
    await ensurePlatformTable(admin, env.TABLE_NAME as string);
    admin.destroy();

    const { createOrg, addMember } = await import('../../shared/kernel/identity/orgs');
    const [{ createKey }, { hashSecret }] = await Promise.all([
      import('../../shared/kernel/identity/keys'),
      import('../../shared/kernel/identity/key-secrets'),
    ]);
    const { SCOPES } = await import('../../shared/kernel/auth/scopes');
    const org = await createOrg({ slug: 'bench', name: 'Bench organization', kind: 'customer' });
    const owner = await addMember(org.orgId, OWNER_EMAIL, 'owner', 'Bench owner');
    const key = await createKey({ orgId: org.orgId, kind: 'api', scopes: [...SCOPES], name: 'bench' });
    const sign = await idpSigner(keyFile, authUrl);
    const jwt = await sign({ sub: owner.userId, email: owner.email, name: owner.name });
    return {
      env,
      dynamoEndpoint: dynamo.endpoint,
      orgId: org.orgId,
      jwt,
      apiKey: key.secret,
      userId: owner.userId,
      ownerEmail: OWNER_EMAIL,
      keyHash: hashSecret(key.secret),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * `npx tsx scripts/bench/<figure>.ts`: one figure alone, on a bench platform of its own, printed;
 * exits explicitly (SDK sockets stay open).
 */
export function runAlone(figure: (platform: BenchPlatform) => Promise<string>): void {
  (async () => {
    const platform = await startBenchPlatform();
    try {
      process.stdout.write(await figure(platform));
    } finally {
      await platform.stop();
    }
  })()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
}
