/**
 * The environment contract. A function (a route group's, lib/route-groups.ts, or a worker's,
 * lib/workers.ts) lists the outside systems it reaches as its `needs`; each need brings the
 * variables named here, declared once: the CDK grants set them (lib/aws/grants.ts), the local
 * platform sets them (bin/local.ts), and the code reads them by these names. A variable missing
 * where its need is declared stops the start with its name (`assertNeedsEnv`): the stack's
 * synthesis on AWS, the local platform's start.
 *
 * `aws` and `local` differ where the two targets differ in kind, not in name: the secrets key
 * is KMS on AWS and a master key on one machine; builds are CodeBuild's or the local builder's.
 */
export const NEED_ENV = {
  // The platform table.
  table: { aws: ['TABLE_NAME'], local: ['TABLE_NAME'] },
  // The key that signs page cursors.
  cursorSecret: { aws: ['CURSOR_SECRET'], local: ['CURSOR_SECRET'] },
  // Envelope encryption of secrets: encrypt, decrypt, new data keys.
  kms: { aws: ['SECRETS_KEY_ID'], local: ['LOCAL_SECRETS_KEY'] },
  // Sealing the answers kept for `Idempotency-Key` (shared/kernel/http/idempotency.ts): new data keys
  // and decrypt under the secrets key, for that purpose only. Every route group has it (lib/aws/platform-stack.ts).
  idempotency: { aws: ['SECRETS_KEY_ID'], local: ['LOCAL_SECRETS_KEY'] },
  // Decrypting secrets only (a build's variables when its server function is created).
  secretsDecrypt: { aws: ['SECRETS_KEY_ID'], local: ['LOCAL_SECRETS_KEY'] },
  // The platform's artifacts bucket: read and write.
  buckets: { aws: ['ARTIFACTS_BUCKET'], local: ['ARTIFACTS_BUCKET'] },
  // Git LFS objects (`repo-lfs/` of the artifacts bucket): read, write, delete, and presign links to them.
  repoLfs: { aws: ['ARTIFACTS_BUCKET'], local: ['ARTIFACTS_BUCKET'] },
  // Build outputs (`artifacts/` of the artifacts bucket): read.
  artifactsRead: { aws: ['ARTIFACTS_BUCKET'], local: ['ARTIFACTS_BUCKET'] },
  // Build outputs: read and delete (retention).
  artifactsExpire: { aws: ['ARTIFACTS_BUCKET'], local: ['ARTIFACTS_BUCKET'] },
  // The agent job queue: send and consume.
  queue: { aws: ['AGENT_JOBS_QUEUE_URL'], local: ['AGENT_JOBS_QUEUE_URL'] },
  // Repository archives: send to the repo-archives worker's queue (lib/workers.ts).
  repoArchives: { aws: ['REPO_ARCHIVES_QUEUE_URL'], local: ['REPO_ARCHIVES_QUEUE_URL'] },
  // Agent job callbacks: send to the agent-callbacks worker's queue.
  agentCallbacks: { aws: ['AGENT_CALLBACKS_QUEUE_URL'], local: ['AGENT_CALLBACKS_QUEUE_URL'] },
  // Agent job checks (expiry, a device gone quiet): send to the agent-checks worker's queue.
  agentChecks: { aws: ['AGENT_CHECKS_QUEUE_URL'], local: ['AGENT_CHECKS_QUEUE_URL'] },
  // Notification events: send to the notify worker's queue (lib/workers.ts).
  notify: { aws: ['NOTIFY_QUEUE_URL'], local: ['NOTIFY_QUEUE_URL'] },
  // Domain re-checks: send to the domain-checks worker's queue.
  domainChecks: { aws: ['DOMAIN_CHECKS_QUEUE_URL'], local: ['DOMAIN_CHECKS_QUEUE_URL'] },
  // DNS (shared/ports/dns): lookups through DNS_SERVERS, optional on both targets (unset: public
  // resolvers; npm start sets its local authoritative server); Route 53 of an organization through
  // a role it lets the platform assume (STS), Cloudflare over https.
  dns: { aws: [], local: [] },
  // Timers into the notify queue (shared/ports/scheduler): SQS delays up to 15 minutes, one-time
  // EventBridge Scheduler schedules beyond; locally due records moved by the local platform.
  scheduler: {
    aws: ['NOTIFY_QUEUE_URL', 'NOTIFY_QUEUE_ARN', 'SCHEDULE_GROUP', 'SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN'],
    local: ['NOTIFY_QUEUE_URL'],
  },
  // Sending mail (shared/ports/mail-transport): SES from MAIL_FROM's identity; locally `.eml` files in OUTBOX_DIR.
  mail: { aws: ['MAIL_FROM'], local: ['MAIL_FROM', 'OUTBOX_DIR'] },
  // Mailboxes' mail (shared/ports/mail-transport sendRaw, domain identities, the suppression list): SES identities of
  // organizations' domains, sent through a configuration set that suppresses bounces and complaints;
  // locally the SMTP server of `npm start` (SMTP_PORT).
  mailSend: { aws: ['MAIL_CONFIGURATION_SET'], local: ['SMTP_PORT'] },
  // Received mail (the mail-inbound worker): read and delete the objects SES's receipt rule writes
  // (lib/aws/mail.ts); locally the SMTP server's, in the artifacts bucket (the message names it).
  mailInbound: { aws: [], local: [] },
  // Bounces and complaints of mailboxes' sends (the mail-feedback worker): SES's configuration set
  // publishes them to a topic delivering to its queue (lib/aws/mail.ts); locally the SMTP server
  // sends them for SES's simulator addresses.
  mailFeedback: { aws: [], local: [] },
  // Mail a worker sends for a mailbox (vacation replies): SES raw sends from the account's identities;
  // locally over SMTP_PORT when the local SMTP server runs (a reply is never the delivery's failure).
  mailReply: { aws: ['MAIL_CONFIGURATION_SET'], local: [] },
  // The SES account's sending quota (shared/ports/mail-transport quota: GetAccount); locally the local engine's figures.
  mailQuota: { aws: [], local: [] },
  // Texts and calls (shared/ports/phone): End User Messaging (PHONE_ORIGINATION optional); locally OUTBOX_DIR.
  phone: { aws: [], local: ['OUTBOX_DIR'] },
  // Webhook deliveries: send to the webhooks worker's queue (fan-out, retries, redeliveries).
  webhooks: { aws: ['WEBHOOKS_QUEUE_URL'], local: ['WEBHOOKS_QUEUE_URL'] },
  // Sign-in clients: app clients of the Cognito user pool (`-`: none set up); locally the identity provider's.
  signin: { aws: ['COGNITO_USER_POOL_ID'], local: [] },
  // Customer databases (`cust-*`) and buckets (`plt-*`): known by prefix, no variable.
  customerTables: { aws: [], local: [] },
  customerBuckets: { aws: [], local: [] },
  // Bucket usage figures: list the account's buckets, read their storage metrics.
  bucketMetrics: { aws: [], local: [] },
  // Deployment builds: start and stop them, read their logs.
  builds: { aws: ['BUILD_PROJECT', 'BUILD_LOG_GROUP'], local: [] },
  // Repository imports: start and stop builds of the import project (lib/aws/imports.ts); locally the builder's child process.
  repoImports: { aws: ['IMPORT_PROJECT'], local: [] },
  // Build logs: read only.
  buildLogs: { aws: ['BUILD_LOG_GROUP'], local: [] },
  // Deployed server functions: read, delete, read their logs.
  functions: { aws: ['FUNCTION_PREFIX'], local: [] },
  // Deployed server functions: create them (each with its own role, under the boundary) and delete them.
  serverFunctions: { aws: ['FUNCTION_PREFIX', 'FUNCTION_BOUNDARY_ARN', 'WEB_ADAPTER_LAYER_ARN'], local: [] },
  // Repositories: CodeCommit by name prefix on AWS; bare repositories under DATA_DIR on one machine.
  git: { aws: ['GIT_REPO_PREFIX'], local: [] },
  // Deployed server functions: delete only (retention).
  functionsDelete: { aws: ['FUNCTION_PREFIX'], local: [] },
  // Deployed server functions: invoke (the router, for a server deployment's requests).
  functionsInvoke: { aws: ['FUNCTION_PREFIX'], local: [] },
  // Custom domains at the CDN (shared/ports/cdn): tenants of the multi-tenant CloudFront distribution
  // with their certificates (`-`: the stack serves no domains); locally none.
  cdn: { aws: ['CDN_DISTRIBUTION_ID'], local: [] },
} as const satisfies Record<string, { aws: readonly string[]; local: readonly string[] }>;

export type Need = keyof typeof NEED_ENV;
type Target = 'aws' | 'local';

/** The variables `needs` bring on `target`, each once. */
export const envOfNeeds = (needs: readonly Need[], target: Target): string[] => [
  ...new Set(needs.flatMap((need) => NEED_ENV[need][target])),
];

/** What `needs` ask for that `env` lacks (unset or empty). */
const missingEnv = (needs: readonly Need[], target: Target, env: Record<string, unknown>): string[] =>
  envOfNeeds(needs, target).filter((name) => !env[name]);

/** Refuses to start `what` without a variable its needs declare, naming the variable. */
export function assertNeedsEnv(
  what: string,
  needs: readonly Need[],
  target: Target,
  env: Record<string, unknown>,
): void {
  const missing = missingEnv(needs, target, env);
  if (missing.length > 0) {
    throw new Error(`${what} cannot start: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set.`);
  }
}
