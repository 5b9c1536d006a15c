import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ApiError, createClient } from '../client';
import { name as packageName } from '../package.json';
import { configFile, profileName, removeConfig, writeConfig } from './config';
import { CliError, type Io, sleep, USER_AGENT, UsageError, unreachableHint } from './context';

interface Me {
  kind: 'user' | 'api' | 'agent';
  email?: string | null;
  keyId?: string;
  orgs: { orgId: string; slug: string; name: string; kind: 'platform' | 'customer'; role: string | null }[];
}

interface LoginOptions {
  url?: string;
  token?: string;
  org?: string;
  /** Take the address and the API key of the platform `npm start` runs here (`.data/local.json`). */
  local?: boolean;
  /** Read the token from stdin (for scripts; as --token -). */
  withToken?: boolean;
  /** The profile to store it in (default: the one in use). */
  profile?: string;
  json?: boolean;
}

/**
 * The folder of the platform this command line came from: up from this file (the sources' cli/,
 * or the bundle's dist/cli/) to the package.json of this package.
 */
export function platformFolder(): string | undefined {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === packageName)
        return dir;
    } catch {
      // No package.json here (or not JSON): look above.
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Where `npm start` keeps `local.json`: `$DATA_DIR` when set (from the current folder), else
 * `.data` of the current folder when it has one, else `.data` of the platform this command line
 * came from (`npm link` runs it from any folder).
 */
function localInfoFiles(io: Io): string[] {
  if (io.env.DATA_DIR) return [resolve(io.cwd, io.env.DATA_DIR, 'local.json')];
  const home = platformFolder();
  return [...new Set([resolve(io.cwd, '.data', 'local.json'), ...(home ? [join(home, '.data', 'local.json')] : [])])];
}

/** The running local platform's address and API key, from `$DATA_DIR/local.json`. */
function localPlatform(io: Io): { url: string; token: string; org: string } {
  const files = localInfoFiles(io);
  const file = files.find((f) => existsSync(f));
  if (!file)
    throw new CliError(
      `No local platform found (${files.join(' nor ')}): start it with npm start, or set DATA_DIR to the data folder it uses.`,
    );
  const info = JSON.parse(readFileSync(file, 'utf8')) as {
    baseUrl: string;
    apiKey: string;
    orgs: { customer: { orgId: string } };
  };
  return { url: info.baseUrl, token: info.apiKey, org: info.orgs.customer.orgId };
}

/**
 * Checks the token against `GET /v1/me`, picks the organization (`--org` id or slug; else the
 * only one, or the only customer organization), and stores the three in the config file.
 */
export async function login(io: Io, options: LoginOptions): Promise<number> {
  let { url, token, org } = options;
  if (options.local) {
    const local = localPlatform(io);
    url ??= local.url;
    token ??= local.token;
    org ??= local.org;
  }
  if (options.withToken) token ??= '-';
  if (token === '-') token = (await io.stdin()).trim();
  token ??= io.env.PLATFORM_TOKEN;
  url ??= io.env.PLATFORM_URL;
  if (!url) throw new UsageError('Give the API address: --url <base URL> (or --local for npm start).');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`${url} is not an http(s) address.`);
  const baseUrl = url.replace(/\/+$/, '');
  // No token given: a person signs in by device code, as gh and vercel do.
  token ||= await deviceLogin(io, baseUrl);
  const api = createClient({ baseUrl, token, fetch: io.fetch, userAgent: USER_AGENT });
  const me = (await api.getMe().catch((err: unknown) => {
    // No answer at all: say what to do rather than only the socket's error code.
    if (err instanceof ApiError && err.status === 0) throw new CliError(`${err.message}\n${unreachableHint(baseUrl)}`);
    throw err;
  })) as { me: Me };
  const orgs = me.me.orgs;
  let chosen: Me['orgs'][number] | undefined;
  if (org) {
    chosen = orgs.find((o) => o.orgId === org || o.slug === org);
    if (!chosen) throw new CliError(`This token has no organization ${org}. It has: ${names(orgs)}.`);
  } else {
    const customers = orgs.filter((o) => o.kind === 'customer');
    chosen = orgs.length === 1 ? orgs[0] : customers.length === 1 ? customers[0] : undefined;
    if (!chosen && orgs.length === 0 && me.me.kind === 'user') {
      // A new person: signed in, with no organization yet; `platform org create` makes the first.
      const file = writeConfig(io.env, { baseUrl, token, orgId: '' }, options.profile);
      if (options.json) {
        io.stdout(
          `${JSON.stringify({ me: me.me, orgId: null, profile: profileName(io.env, options.profile) }, null, 2)}\n`,
        );
        return 0;
      }
      io.stdout(`Logged in to ${baseUrl} as ${me.me.email ?? 'a person'}, in no organization yet.\n`);
      io.stdout(
        'Create one: platform org create --slug SLUG --name NAME (or accept an invitation: platform org invites list --mine)\n',
      );
      io.stdout(`Saved in ${file}.\n`);
      return 0;
    }
    if (!chosen) {
      throw new UsageError(
        orgs.length === 0 ? 'This token belongs to no organization.' : `Pick one with --org: ${names(orgs)}.`,
      );
    }
  }
  const file = writeConfig(io.env, { baseUrl, token, orgId: chosen.orgId, orgSlug: chosen.slug }, options.profile);
  if (options.json) {
    io.stdout(
      `${JSON.stringify({ me: me.me, orgId: chosen.orgId, profile: profileName(io.env, options.profile) }, null, 2)}\n`,
    );
    return 0;
  }
  const who = me.me.kind === 'user' ? (me.me.email ?? 'a person') : `API key ${me.me.keyId ?? ''}`.trim();
  io.stdout(`Logged in to ${baseUrl} as ${who}, organization ${chosen.slug} (${chosen.orgId}).\n`);
  io.stdout(`Saved in ${file}.\n`);
  return 0;
}

interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUriComplete: string;
  interval: number;
  expiresIn: number;
}

/**
 * A person's login by device code (RFC 8628; POST /v1/login/device): shows the code and the page
 * where the person approves it while signed in, asks for the token every `interval` seconds (5 more
 * after a `slow_down`) until it is approved, denied or expired. The token acts as the person.
 */
async function deviceLogin(io: Io, baseUrl: string): Promise<string> {
  const call = async (path: string, body: unknown) => {
    const res = await (io.fetch ?? fetch)(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: JSON.stringify(body),
    }).catch((err: Error) => {
      throw new CliError(`${err.message}\n${unreachableHint(baseUrl)}`);
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const started = await call('/v1/login/device', {
    name: `platform CLI on ${hostname().slice(0, 48)}`,
    platform: process.platform,
  });
  if (started.status !== 200) throw new CliError(`The platform refused the login (${started.status}).`);
  const code = started.body as unknown as DeviceCode;
  io.stderr(`First copy your one-time code: ${code.userCode}\n`);
  io.stderr(`Then open ${code.verificationUriComplete} and approve it (signed in as yourself).\n`);
  io.stderr('Waiting for the approval…\n');
  let wait = code.interval * 1000;
  const until = Date.now() + code.expiresIn * 1000;
  while (Date.now() < until) {
    await sleep(wait, io.signal);
    const polled = await call('/v1/login/device/token', { deviceCode: code.deviceCode });
    if (polled.status === 200) return String(polled.body.token);
    const error = polled.body.error;
    if (error === 'slow_down') wait += 5000;
    else if (error === 'access_denied') throw new CliError('The login was denied on the approval page.');
    else if (error === 'expired_token') throw new CliError('The code expired. Run platform login again.');
    else if (error !== 'authorization_pending')
      throw new CliError(`The platform refused the login (${polled.status}).`);
  }
  throw new CliError('The code expired. Run platform login again.');
}

const names = (orgs: Me['orgs']) => orgs.map((o) => o.slug).join(', ');

export function logout(io: Io, profile?: string, json = false): number {
  const name = profileName(io.env, profile);
  const removed = removeConfig(io.env, profile);
  if (json) io.stdout(`${JSON.stringify({ removed, profile: name })}\n`);
  else if (!removed) io.stdout('Not logged in.\n');
  else if (existsSync(configFile(io.env))) io.stdout(`Logged out: removed profile ${name}.\n`);
  else io.stdout(`Logged out: removed ${configFile(io.env)}.\n`);
  return 0;
}
