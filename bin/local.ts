import { resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensurePlatformTable, JavaMissingError } from '../lib/local/dynamodb';
import { onParentGone } from '../lib/local/lifeline';
import {
  assertPortsFree,
  BUCKETS,
  closeServer,
  engineCredentials,
  ensureSecretFile,
  HOST,
  type LocalInfo,
  type LocalServices,
  LocalSetupError,
  localInfoFile,
  portsFromEnv,
  privateDataDir,
  readLocalInfo,
  startServices,
  writePrivateJson,
} from '../lib/local/services';
import { routeGroups } from '../lib/route-groups';

/** The owner's token lasts a working day; every start signs a new one. */
const TOKEN_TTL_SECONDS = 12 * 3600;

const stoppers: (() => Promise<void>)[] = [];
/** Called first when stopping: no engine is started again from then on. */
let holdEngines: () => void = () => undefined;
let stoppingSince = 0;

/**
 * Stops the gateway first (no new requests), then every service and child process, each engine
 * waited for until it is gone (SIGKILL after 3 s).
 */
async function shutdown(code: number): Promise<never> {
  if (stoppingSince === 0) {
    stoppingSince = Date.now();
    holdEngines();
    // A stop that never settles must not end the process by an empty event loop (exit code 0).
    setTimeout(() => process.exit(code), 10_000);
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  }
  process.exit(code);
}

/**
 * Ctrl-C reaches this process both from the terminal and relayed by npm: a repeat within a second
 * is the same keypress. A later one stops waiting (the exit hooks still kill the child processes).
 */
function onSignal(): void {
  if (stoppingSince === 0) void shutdown(0);
  else if (Date.now() - stoppingSince > 1000) process.exit(1);
}

/**
 * Without DynamoDB or S3 the API only answers errors: when one dies on its own, say so and stop.
 * Ctrl-C reaches the children from the terminal too, so an exit is judged a moment later.
 */

async function main(): Promise<void> {
  const started = Date.now();
  const env = process.env;
  // The SDK's Node 20 deprecation notice, once per process, says nothing to a local user.
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const ports = portsFromEnv(env);
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-central-1';
  const tableName = env.TABLE_NAME ?? 'platform';
  const ownerEmail = (env.OWNER_EMAIL ?? 'owner@localhost.test').trim().toLowerCase();
  // `localhost`, as shared/kernel/config.ts assumes by default; the issuer in tokens must equal AUTH_URL.
  const authUrl = `http://localhost:${ports.idp}`;
  const baseUrl = `http://localhost:${ports.api}`;
  // The local edge serves deployments at `<name>.localhost:<edge port>` (lib/local/edge.ts).
  const edgePort = Number(env.EDGE_PORT ?? ports.api + 5);
  const edgeUrl = `http://localhost:${edgePort}`;
  // The authoritative DNS server of custom domains' zones (lib/local/dns.ts), loopback UDP.
  const dnsPort = Number(env.DNS_PORT ?? ports.api + 6);
  // The local SMTP server (lib/local/smtp.ts): TCP on the DNS server's number (UDP).
  const smtpPort = Number(env.SMTP_PORT ?? ports.api + 6);

  // Ctrl-C, a stop, a closed terminal. The engines are in process groups of their own (see
  // lib/local/child.ts): only this process stops them, so none is taken for dead and restarted.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  // Whoever started this process gone (even by SIGKILL): stop everything rather than run on unseen.
  onParentGone(() => {
    process.stderr.write('The process that started the local platform is gone; stopping.\n');
    void shutdown(1);
  });

  await assertPortsFree(ports);
  privateDataDir(dataDir);
  // The key pair every engine checks (DATA_DIR/keys/engines-secret), never the engines' defaults.
  const credentials = engineCredentials(dataDir);
  const services: LocalServices = await startServices({
    dataDir,
    ports,
    region,
    authUrl,
    credentials,
    // A dead engine is started again (lib/local/supervise.ts); one that keeps dying stops the platform.
    supervision: {
      say: (line) => process.stderr.write(`${line}\n`),
      giveUp: (reason) => {
        if (stoppingSince !== 0) return;
        process.stderr.write(`${reason}; stopping the local platform.\n`);
        void shutdown(1);
      },
    },
  });
  const servicesAt = Date.now();
  holdEngines = services.hold;
  stoppers.push(services.stop);

  const dynamoClient = new DynamoDBClient({
    endpoint: services.dynamo.endpoint,
    region,
    credentials,
  });
  await ensurePlatformTable(dynamoClient, tableName);
  const tableAt = Date.now();
  dynamoClient.destroy();

  // The queues of the queue workers (lib/workers.ts), made before anything sends to them.
  const { createWorkerQueues } = await import('../lib/local/sqs');
  const workerQueues = await createWorkerQueues({ endpoint: services.sqs.endpoint, region, credentials });

  // PLATFORM_FAULTS (off by default): the fault injector in front of the engines and at the
  // scheduler's and builds' local adapters (lib/local/faults.ts).
  const endpoints = {
    dynamodb: services.dynamo.endpoint,
    s3: services.s3.endpoint,
    sqs: services.sqs.endpoint,
  };
  if (env.PLATFORM_FAULTS) {
    const { parseFaults, startFaultProxy, startPortFaults, WIRE_SERVICES } = await import('../lib/local/faults');
    const rules = parseFaults(env.PLATFORM_FAULTS);
    stoppers.push(startPortFaults(rules).stop);
    for (const service of WIRE_SERVICES) {
      if (!rules.some((r) => r.service === service)) continue;
      const proxy = await startFaultProxy(service, endpoints[service], rules);
      stoppers.push(proxy.stop);
      endpoints[service] = proxy.endpoint;
    }
    console.log(`Faults injected (PLATFORM_FAULTS): ${env.PLATFORM_FAULTS}`);
  }

  const idpKeyFile = resolve(dataDir, 'keys', 'idp.json');
  // The environment the handlers read (shared/kernel/config.ts and the ports' adapters), before they load.
  // One key pair for every engine, the one they check.
  delete env.AWS_SESSION_TOKEN;
  delete env.AWS_PROFILE;
  Object.assign(env, {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: tableName,
    AUTH_URL: authUrl,
    CURSOR_SECRET: ensureSecretFile(resolve(dataDir, 'keys', 'cursor-secret')),
    // The master key of the local secrets adapter (environment values, connector credentials).
    LOCAL_SECRETS_KEY: ensureSecretFile(resolve(dataDir, 'keys', 'secrets-master-key')),
    PLATFORM_TARGET: 'local',
    DATA_DIR: dataDir,
    IDP_KEY_FILE: idpKeyFile,
    ARTIFACTS_BUCKET: BUCKETS.artifacts,
    APPS_DOMAIN: `localhost:${edgePort}`,
    // The names shared/kernel/needs.ts declares (the `queue` need), as on AWS.
    AGENT_JOBS_QUEUE_URL: services.sqs.queueUrls.agentJobs,
    AGENT_DLQ_URL: services.sqs.queueUrls.agentJobsDlq,
    // The queue workers' queues (the `repoArchives` need …).
    REPO_ARCHIVES_QUEUE_URL: workerQueues.REPO_ARCHIVES_QUEUE_URL ?? '',
    AGENT_CALLBACKS_QUEUE_URL: workerQueues.AGENT_CALLBACKS_QUEUE_URL ?? '',
    AGENT_CHECKS_QUEUE_URL: workerQueues.AGENT_CHECKS_QUEUE_URL ?? '',
    NOTIFY_QUEUE_URL: workerQueues.NOTIFY_QUEUE_URL ?? '',
    WEBHOOKS_QUEUE_URL: workerQueues.WEBHOOKS_QUEUE_URL ?? '',
    DOMAIN_CHECKS_QUEUE_URL: workerQueues.DOMAIN_CHECKS_QUEUE_URL ?? '',
    // The SMTP server hands received mail to the mail-inbound worker's queue.
    MAIL_INBOUND_QUEUE_URL: workerQueues.MAIL_INBOUND_QUEUE_URL ?? '',
    // …and what SES would report of sends to its simulator addresses to the mail-feedback worker's.
    MAIL_FEEDBACK_QUEUE_URL: workerQueues.MAIL_FEEDBACK_QUEUE_URL ?? '',
    // Lookups of custom domains go to the local DNS server (the `dns` need).
    DNS_SERVERS: `127.0.0.1:${dnsPort}`,
    // Mail, texts and calls the platform sends land here (.eml, .sms.json, .voice.json).
    MAIL_FROM: env.MAIL_FROM ?? 'notifications@localhost',
    OUTBOX_DIR: resolve(dataDir, 'outbox'),
    // Mailboxes' sends go over SMTP to the local SMTP server (the `mailSend` need).
    SMTP_PORT: String(smtpPort),
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    // Connectors may name MCP servers on this machine (loopback http): here alone, never on AWS.
    LOCAL_CONNECTORS_LOOPBACK: 'true',
    // The web app's address: the identity provider sends its sign-ins back to `<it>/app/callback` only.
    WEB_APP_URL: baseUrl,
  } satisfies Record<string, string>);

  // Every variable the route groups' needs declare (shared/kernel/needs.ts) is set, or the start stops naming it.
  const { assertNeedsEnv } = await import('../shared/kernel/needs');
  const needs = routeGroups.flatMap((g) => g.needs);
  assertNeedsEnv('The local platform', needs, 'local', env);
  const { startDnsServer } = await import('../lib/local/dns');
  const dns = await startDnsServer({ port: dnsPort, host: HOST });
  stoppers.push(dns.close);
  // Hosts made before the host registry are reserved in it, oldest first (once; later starts find them).
  const { reserveExistingHosts } = await import('../shared/domains/hosts/migrate');
  await reserveExistingHosts();
  const [
    { createGateway, listen },
    { seedLocalPlatform },
    { idpSigner },
    { docsRoutes },
    { devicePage },
    { webRoutes },
  ] = await Promise.all([
    import('../lib/local/gateway'),
    import('../lib/local/seed'),
    import('../lib/local/idp'),
    import('../lib/local/docs'),
    import('../lib/local/device-page'),
    import('../lib/local/web'),
  ]);
  // The workers of lib/workers.ts (on AWS: their EventBridge rules and queues): timers, events, queues.
  // Before the edge: the builds it finds interrupted are ended through the build-events worker.
  const { startWorkers } = await import('../lib/local/workers');
  stoppers.push((await startWorkers()).stop);
  // The local SMTP server (lib/local/smtp.ts): mailboxes' sends and outside SMTP clients' mail.
  const { startSmtpServer } = await import('../lib/local/smtp');
  stoppers.push((await startSmtpServer({ port: smtpPort, host: HOST })).close);
  // Timers of the notify worker (shared/ports/scheduler): due records moved to its queue every second.
  const { startTimers } = await import('../lib/local/timers');
  const timers = startTimers();
  stoppers.push(async () => timers.stop());
  const { startEdge } = await import('../lib/local/edge');
  const edge = await startEdge({ port: edgePort, host: HOST, maintenance: true });
  stoppers.push(edge.close);

  const previous = readLocalInfo(dataDir);
  const seedFrom = Date.now();
  const seeded = await seedLocalPlatform({ ownerEmail, previousApiKey: previous?.apiKey });
  const seedMs = Date.now() - seedFrom;
  const sign = await idpSigner(idpKeyFile, authUrl);
  const token = await sign(
    { sub: seeded.owner.userId, email: seeded.owner.email, name: 'Local owner' },
    TOKEN_TTL_SECONDS,
  );
  const expiresAt = (Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS) * 1000;

  const info: LocalInfo = {
    baseUrl,
    authUrl,
    endpoints: { dynamodb: services.dynamo.endpoint, s3: services.s3.endpoint, sqs: services.sqs.endpoint },
    dataDir,
    region,
    tableName,
    buckets: { ...BUCKETS },
    queues: { ...services.sqs.queueUrls },
    orgs: {
      platform: { orgId: seeded.orgs.platform.orgId, slug: seeded.orgs.platform.slug },
      customer: { orgId: seeded.orgs.customer.orgId, slug: seeded.orgs.customer.slug },
    },
    owner: { email: seeded.owner.email, userId: seeded.owner.userId, token, expiresAt },
    apiKey: seeded.apiKey,
    edgeUrl,
    pid: process.pid,
    startedAt: started,
  };
  writePrivateJson(localInfoFile(dataDir), info);

  // Load every route group now, so the first request does not pay for it.
  await Promise.all(
    routeGroups.map((g) =>
      import(`../functions/${g.name}/handler`).catch((err: unknown) => {
        process.stderr.write(`warning: route group ${g.name} failed to load: ${(err as Error).message}\n`);
      }),
    ),
  );
  // The API answers last: whoever waits for /health then finds this start's local.json.
  // GET /openapi.json and GET /docs beside the API (not routes of the table: see lib/local/docs.ts),
  // and /device, where a person answers a device code (lib/local/device-page.ts), and the web app
  // at /app/ (lib/local/web.ts), signing in at the identity provider as `platform-web`.
  const { WEB_CLIENT_ID } = await import('../lib/web-app-policy');
  const { webCallbackOf } = await import('../lib/local/idp-oauth');
  const web = { apiUrl: '', authUrl, clientId: WEB_CLIENT_ID, redirectUri: webCallbackOf(baseUrl) as string };
  const gateway = createGateway({ extra: [...docsRoutes(), devicePage(), ...webRoutes({ config: () => web })] });
  await listen(gateway, ports.api, HOST);
  stoppers.push(() => closeServer(gateway));

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  // Where the start-up time went, so a slow start points at its cause.
  const each = Object.entries(services.startMs).map(([name, ms]) => `${name} ${s(ms)}`);
  const timing = `services ${s(servicesAt - started)} [${each.join(', ')}], table ${s(tableAt - servicesAt)}, seed ${s(seedMs)}`;
  const lines = [
    `Local platform, data in ${dataDir}${seeded.created.length ? ` (created: ${seeded.created.join(', ')})` : ''}`,
    `  api        ${baseUrl}`,
    `  web app    ${baseUrl}/app/  (sign in with an email of this platform; the code lands in the outbox)`,
    `  edge       ${edgeUrl}  (deployments at <name>.localhost:${edgePort})`,
    `  dns        127.0.0.1:${dnsPort} (udp; zones of custom domains: npm run local -- dns set)`,
    `  smtp       127.0.0.1:${smtpPort} (mailboxes' mail in and out; every message as .eml in the outbox)`,
    `  identity   ${authUrl}`,
    `  dynamodb   ${services.dynamo.endpoint}  (table ${tableName})`,
    `  s3         ${services.s3.endpoint}  (bucket ${BUCKETS.artifacts}, path-style, signed with DATA_DIR/keys/engines-secret)`,
    `  sqs        ${services.sqs.endpoint}  (queue ${services.sqs.queueUrls.agentJobs})`,
    `  orgs       ${info.orgs.platform.slug} ${info.orgs.platform.orgId}, ${info.orgs.customer.slug} ${info.orgs.customer.orgId}`,
    `  owner      ${info.owner.email} ${info.owner.userId}`,
    `  token      ${token}`,
    `  api key    ${info.apiKey}`,
    `  reference  ${baseUrl}/docs  (OpenAPI: ${baseUrl}/openapi.json)`,
    `  connectors MCP servers on this machine allowed too (http://localhost:<port>/…, 127.0.0.1, [::1]); elsewhere public https only`,
    `Ready in ${s(Date.now() - started)} (${timing}). Details in ${localInfoFile(dataDir)}. Ctrl-C stops everything.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  // Java missing, a port taken, a bad setting: the message says what to do, a stack adds nothing.
  const known = err instanceof JavaMissingError || err instanceof LocalSetupError;
  const message = known
    ? (err as Error).message
    : `The local platform failed to start: ${(err as Error)?.stack ?? String(err)}`;
  process.stderr.write(`${message}\n`);
  void shutdown(1);
});
