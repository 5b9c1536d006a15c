/**
 * `npm run local -- <command>`: organizations, members, tokens and keys on the running local
 * platform of this DATA_DIR (default `.data`), found through its `local.json`. Each command prints
 * one JSON object on stdout; messages go to stderr. Exit 1 for an error, 2 for a usage error.
 *
 * The store reads its environment at import time, so `shared/*` is imported only once the
 * environment points at the running platform.
 */
import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { engineCredentials, type LocalInfo, readLocalInfo } from '../lib/local/services';

const USAGE = `Usage: npm run local -- <command>

  org create --slug S --name N [--kind customer|platform]
  member add --org ORG --email E --role owner|admin|developer|viewer
  token --email E
  key create --org ORG --scopes a,b [--agent] [--name N]
  agent approve CODE [--org ORG]   (the agent program's device login, as the local owner)
  dns set --name N --type A|CNAME|TXT|ALIAS --value V [--zone Z]   (a record of the local DNS server)

ORG is an organization id (org_…) or slug. --scopes takes scope names, or "all".
Works on the platform started by "npm start" with the same DATA_DIR (default .data).`;

const NOT_RUNNING = 'The local platform is not running. Start it with npm start.';

/** A token from `token` lasts as long as the owner's token of `npm start`. */
const TOKEN_TTL_SECONDS = 12 * 3600;

const SLUG = /^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/;

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}
const usage = (message: string) => new CliError(`${message}\n\n${USAGE}`, 2);

type Options = NonNullable<ParseArgsConfig['options']>;
const str = { type: 'string' } as const;

const COMMANDS: Record<string, Options> = {
  'org create': { slug: str, name: str, kind: str },
  'member add': { org: str, email: str, role: str },
  token: { email: str },
  'key create': { org: str, scopes: str, agent: { type: 'boolean' }, name: str },
  'agent approve': { org: str },
  'dns set': { name: str, type: str, value: str, zone: str },
};

function parse(argv: string[]): { command: string; values: Record<string, string | boolean | undefined> } {
  const words: string[] = [];
  while (argv.length > 0 && !argv[0]?.startsWith('-')) words.push(argv.shift() as string);
  if (words.length === 0 && (argv.includes('--help') || argv.includes('-h'))) throw new CliError(USAGE, 2);
  // `agent approve CODE`: the code is the third word.
  const code = words[0] === 'agent' && words[1] === 'approve' ? words.splice(2).join('') : undefined;
  const command = words.join(' ');
  const options = COMMANDS[command];
  if (!options) throw usage(command ? `Unknown command "${command}".` : 'No command given.');
  try {
    const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
    return {
      command,
      values: { ...(values as Record<string, string | boolean | undefined>), ...(code ? { code } : {}) },
    };
  } catch (err) {
    throw usage((err as Error).message);
  }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw usage(`--${name} is required.`);
  return v.trim();
}

/** The running platform of this DATA_DIR, or the message that says how to start it. */
async function connect(): Promise<LocalInfo> {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const info = readLocalInfo(dataDir);
  if (!info) throw new CliError(NOT_RUNNING);
  const port = process.env.PORT;
  if (port && new URL(info.baseUrl).port !== port) {
    process.stderr.write(`warning: the platform of ${dataDir} runs on ${info.baseUrl}, not on PORT ${port}.\n`);
  }
  const credentials = engineCredentials(dataDir);
  const env = process.env;
  delete env.AWS_SESSION_TOKEN;
  delete env.AWS_PROFILE;
  Object.assign(env, {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: info.endpoints.s3,
    AWS_ENDPOINT_URL_SQS: info.endpoints.sqs,
    TABLE_NAME: info.tableName,
    AUTH_URL: info.authUrl,
    PLATFORM_TARGET: 'local',
    // stdout carries the one JSON answer: nothing else may be logged there.
    LOG_LEVEL: 'silent',
  });
  const client = new DynamoDBClient({ endpoint: info.endpoints.dynamodb, region: info.region, maxAttempts: 1 });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(3000) });
  } catch {
    throw new CliError(NOT_RUNNING);
  } finally {
    client.destroy();
  }
  return info;
}

async function run(command: string, values: Record<string, string | boolean | undefined>): Promise<unknown> {
  // Arguments first: a usage error needs no running platform.
  const { ROLES, SCOPES, isScope } = await import('../shared/kernel/auth/scopes');
  if (command === 'org create') {
    const slug = required(values, 'slug');
    const name = required(values, 'name');
    const kind = (values.kind as string | undefined) ?? 'customer';
    if (!SLUG.test(slug))
      throw usage(
        '--slug takes 2-40 lowercase letters, digits and hyphens, starting and ending with a letter or digit.',
      );
    if (name.length > 64) throw usage('--name takes up to 64 characters.');
    if (kind !== 'customer' && kind !== 'platform') throw usage('--kind is customer or platform.');
    await connect();
    const { createOrg } = await import('../shared/kernel/identity/orgs');
    const { toOrganization } = await import('../shared/kernel/identity/schema');
    return { org: toOrganization(await createOrg({ slug, name, kind })) };
  }
  if (command === 'member add') {
    const ref = required(values, 'org');
    const email = required(values, 'email').toLowerCase();
    const role = required(values, 'role');
    if (!email.includes('@')) throw usage('--email takes an email address.');
    if (!(ROLES as readonly string[]).includes(role)) throw usage(`--role is one of ${ROLES.join(', ')}.`);
    await connect();
    const { addMember } = await import('../shared/kernel/identity/orgs');
    const org = await findOrg(ref);
    const member = await addMember(org.orgId, email, role as (typeof ROLES)[number]);
    return { member, orgId: org.orgId };
  }
  if (command === 'token') {
    const email = required(values, 'email').toLowerCase();
    const info = await connect();
    const { findUserByEmail } = await import('../shared/kernel/identity/users');
    const { idpSigner } = await import('../lib/local/idp');
    const user = await findUserByEmail(email);
    if (!user) throw new CliError(`User not found: ${email}. Add them to an organization first (member add).`);
    const sign = await idpSigner(resolve(info.dataDir, 'keys', 'idp.json'), info.authUrl);
    const token = await sign({ sub: user.userId, email: user.email, name: user.name }, TOKEN_TTL_SECONDS);
    const expiresAt = (Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS) * 1000;
    return { token, userId: user.userId, email: user.email, expiresAt };
  }
  if (command === 'dns set') {
    const name = required(values, 'name').toLowerCase().replace(/\.$/, '');
    const type = required(values, 'type').toUpperCase();
    const value = required(values, 'value');
    if (!['A', 'CNAME', 'TXT', 'ALIAS'].includes(type)) throw usage('--type is A, CNAME, TXT or ALIAS.');
    if (!name.includes('.')) throw usage('--name takes a hostname with two labels at least.');
    await connect();
    const { setLocalRecord } = await import('../shared/ports/dns/local');
    const { zoneOf } = await import('../shared/domains/custom-domains/hostnames');
    const zone = typeof values.zone === 'string' ? values.zone : zoneOf(name);
    const record = { name, type: type as 'A' | 'CNAME' | 'TXT' | 'ALIAS', value };
    await setLocalRecord(zone, record);
    return { zone, record };
  }
  if (command === 'agent approve') {
    const code = required(values, 'code');
    const info = await connect();
    const org = typeof values.org === 'string' ? await findOrg(values.org) : { orgId: info.orgs.customer.orgId };
    const { answerLogin } = await import('../shared/domains/agents/devices');
    await answerLogin(org.orgId, { userId: info.owner.userId, name: 'Local owner' }, code, true);
    return { approved: true, orgId: org.orgId, userId: info.owner.userId };
  }
  // key create
  const ref = required(values, 'org');
  const list = required(values, 'scopes')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const scopes = list.length === 1 && list[0] === 'all' ? [...SCOPES] : list;
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0) throw usage('--scopes needs at least one scope.');
  if (unknown.length > 0) {
    throw new CliError(
      `Unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Scopes: ${SCOPES.join(', ')}.`,
      2,
    );
  }
  const agent = values.agent === true;
  await connect();
  const { createKey } = await import('../shared/kernel/identity/keys');
  const org = await findOrg(ref);
  if (agent && org.kind !== 'platform') {
    throw new CliError(
      `Agent keys belong to the platform organization only; ${org.slug} is a ${org.kind} organization.`,
    );
  }
  const name = typeof values.name === 'string' ? values.name : 'local cli';
  const { key, secret } = await createKey({
    orgId: org.orgId,
    kind: agent ? 'agent' : 'api',
    scopes: scopes.filter(isScope),
    name,
  });
  return { key: { keyId: key.keyId, kind: key.kind, orgId: key.orgId, scopes: key.scopes }, secret };
}

/** An organization by id or slug. */
async function findOrg(ref: string) {
  const { findOrgBySlug, getOrg } = await import('../shared/kernel/identity/orgs');
  const org = ref.startsWith('org_') ? await getOrg(ref) : await findOrgBySlug(ref);
  if (!org) throw new CliError(`Organization not found: ${ref}`);
  return org;
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { command, values } = parse(process.argv.slice(2));
  const result = await run(command, values);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((err: unknown) => {
  if (err instanceof CliError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(err.exitCode);
  }
  // Errors the API answers with a status (a slug already taken) are the user's, not a crash.
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status < 500) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stderr.write(`The command failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
