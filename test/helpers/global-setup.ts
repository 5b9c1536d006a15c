// First, alone: the environment shared/config reads at import.
import './static-env';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensurePlatformTable, startDynamoLocal } from '../../lib/local/dynamodb';
import { listen } from '../../lib/local/gateway';
import { createIdpServer } from '../../lib/local/idp';
import { newEngineCredentials, startS3 } from '../../lib/local/services';
import * as signinClients from '../../shared/domains/signin-clients/clients';
import { findUserByEmail } from '../../shared/kernel/identity/users';
import { freePort } from '../../shared/kernel/net/free-port';
import { STATIC_ENV } from './static-env';

/**
 * Once per `npm test`: DynamoDB Local in memory with the platform table, and the local identity
 * provider's JWKS. Workers inherit the environment set here.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'platform-test-'));
  // The engines answer only requests signed with this run's key pair, as on `npm start`; the test
  // workers reach DynamoDB Local directly (`direct`), and the signing proxy stays at
  // DYNAMODB_SIGNED_ENDPOINT for the tests of what it refuses.
  const credentials = newEngineCredentials();
  // Both at once (Java takes seconds to start): the local S3 server in its own process (see
  // lib/local/s3-server.ts); buckets are made by tests.
  const dynamoPort = await freePort();
  let s3Port = await freePort();
  // Neither is bound yet: the OS could hand out the same port twice.
  while (s3Port === dynamoPort) s3Port = await freePort();
  const [dynamo, s3] = await Promise.all([
    startDynamoLocal({ port: dynamoPort, credentials, direct: true }),
    startS3({ port: s3Port, directory: join(dir, 's3'), buckets: [], credentials }),
  ]);
  const env: Record<string, string> = {
    ...STATIC_ENV,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.engineEndpoint as string,
    DYNAMODB_SIGNED_ENDPOINT: dynamo.endpoint,
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
    LOCAL_SECRETS_KEY: randomBytes(32).toString('base64'),
    IDP_KEY_FILE: join(dir, 'idp-key.json'),
    TEST_DATA_DIR: dir,
    // Every process the run starts inherits this (tests that hand a child a trimmed environment
    // keep it): the global teardown finds what is left of the run by it (test/helpers/processes.ts).
    PLATFORM_TEST_RUN: dir,
    // Rate limits count only where a test turns them on (test/http/rate-limits.test.ts): the
    // authorization matrix and the fuzz test make thousands of requests in one organization.
    RATE_LIMITS: 'off',
    // As `npm start` sets them: mail, texts and calls land in an outbox folder.
    MAIL_FROM: 'notifications@localhost',
    OUTBOX_DIR: join(dir, 'outbox'),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  Object.assign(process.env, env);
  const client = new DynamoDBClient({ endpoint: dynamo.endpoint });
  await ensurePlatformTable(client, env.TABLE_NAME as string);
  client.destroy();

  let authUrl = '';
  // Jest's global setup imports nothing later: the sign-in clients' and users' store is handed in.
  const idp = await createIdpServer(
    env.IDP_KEY_FILE as string,
    () => authUrl,
    async () => ({ ...signinClients, findUserByEmail }),
  );
  const port = await listen(idp, 0);
  authUrl = `http://127.0.0.1:${port}`;
  process.env.AUTH_URL = authUrl;

  (globalThis as Record<string, unknown>).__platformServices = {
    stop: async () => {
      idp.close();
      await Promise.all([dynamo.stop(), s3.stop()]);
    },
  };
}
