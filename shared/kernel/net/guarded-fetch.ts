import { lookup as dnsLookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { readEnv } from '../ground/env';

/**
 * THE way the platform fetches a URL a tenant gave (job callbacks, connector servers, webhooks):
 * nothing of the platform, of the cloud's metadata or of a private network can be reached through
 * it. Checked twice: the URL when it is saved (`checkPublicUrl`, with its DNS answer), and the
 * address at connect time (`guardedFetch` connects only to an address it has just checked, so a
 * name that re-resolves elsewhere, DNS rebinding, reaches nothing).
 *
 * - `https` on port 443 only, no user name or password in the URL;
 * - no `localhost`, `*.localhost`, single-label names, `.local`, `.internal`;
 * - every A and AAAA answer unicast and public by ipaddr.js's ranges: loopback, private, CGNAT,
 *   link-local (the metadata service at 169.254.169.254), documentation, benchmarking, multicast
 *   and reserved ranges are refused, IPv6 ULA and link-local too, and IPv4 inside IPv6 (mapped,
 *   compatible, translated, NAT64, 6to4, Teredo) is judged as the IPv4 it carries;
 * - a name without an address is refused with its own error (UnresolvableHostError);
 * - no redirect is followed (a 3xx is the answer), 10 s for the whole exchange, the body capped.
 */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
}

/** The unresolvable name's own refusal: the URL may be fine, its host has no address (yet). */
export class UnresolvableHostError extends UnsafeUrlError {
  override name = 'UnresolvableHostError';
  constructor(
    readonly host: string,
    what?: string,
  ) {
    super(what ? `${what}'s host ${host} does not resolve.` : `${host} does not resolve.`);
  }
}

const v4 = (bytes: number[]) => ipaddr.IPv4.parse(bytes.join('.'));

/**
 * The IPv4 addresses an IPv6 address carries, judged in its place: mapped (`::ffff:a.b.c.d`),
 * compatible (`::a.b.c.d`), translated (RFC 6145), NAT64 (`64:ff9b::/96`), 6to4 (`2002::/16`) and
 * Teredo (`2001::/32`: its server and its client, stored inverted). `[]`: none; undefined: an
 * embedding the platform can't judge (local-use NAT64, `64:ff9b:1::/48`), refused.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  const last = bytes.slice(12, 16);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(last)];
    case 'rfc6052':
      return bytes.slice(4, 12).every((b) => b === 0) ? [v4(last)] : undefined;
    case '6to4':
      return [v4(bytes.slice(2, 6))];
    case 'teredo':
      return [v4(bytes.slice(4, 8)), v4(last.map((b) => b ^ 0xff))];
    default:
      // IPv4-compatible (`::/96`, deprecated): `::` and `::1` are themselves, the rest carry an IPv4.
      return bytes.slice(0, 12).every((b) => b === 0) && bytes.slice(12, 15).some((b) => b !== 0) ? [v4(last)] : [];
  }
}

/** The address parsed (IPv4 and IPv6 in their standard text forms only), or undefined. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (isIP(address) === 0) return undefined;
  try {
    return ipaddr.parse(address);
  } catch {
    return undefined;
  }
}

/**
 * Whether an IP address is unicast and public, by ipaddr.js's special ranges (loopback, private,
 * CGNAT, link-local, documentation, benchmarking, multicast, reserved, ULA, …: anything but
 * `unicast` is refused); IPv4 inside IPv6 judged as the IPv4 it carries.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const inner = embeddedIpv4(parsed as ipaddr.IPv6);
  if (!inner) return false;
  if (inner.length > 0) return inner.every((a) => a.range() === 'unicast');
  return parsed.range() === 'unicast';
}

/** The name rules of a URL's host (no DNS): why it is refused, or undefined. */
export function hostProblem(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  const literal = name.startsWith('[') ? name.slice(1, -1) : name;
  if (isIP(literal)) return isPublicAddress(literal) ? undefined : 'it is not a public address';
  if (name === 'localhost' || name.endsWith('.localhost')) return 'it names this machine';
  if (!name.includes('.')) return 'it is a single-label name';
  if (name.endsWith('.local') || name.endsWith('.internal')) return 'it names a private network';
  return undefined;
}

/**
 * Hosts a test may reach on loopback (`host` or `host:port`), from `UNSAFE_TEST_ALLOW_HOSTS`:
 * set only by tests, never by the stack (test/infra holds it) nor by `npm start`.
 */
export const testAllowed = (host: string) =>
  (readEnv('UNSAFE_TEST_ALLOW_HOSTS') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .some((h) => h === host.toLowerCase());

/** The URL if it may be fetched (syntax and names only); UnsafeUrlError with the reason otherwise. */
export function checkUrlSyntax(raw: string, what = 'The URL'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError(`${what} is not a valid URL.`);
  }
  const testHost = testAllowed(url.hostname) || testAllowed(url.host);
  if (url.protocol !== 'https:') throw new UnsafeUrlError(`${what} must use https.`);
  if (url.port !== '' && url.port !== '443' && !testHost) throw new UnsafeUrlError(`${what} must use port 443.`);
  if (url.username || url.password) throw new UnsafeUrlError(`${what} must not hold a user name or password.`);
  const problem = testHost ? undefined : hostProblem(url.hostname);
  if (problem) throw new UnsafeUrlError(`${what} can't be reached from the platform: ${problem}.`);
  return url;
}

/**
 * The certificate of a test's loopback receiver, from `UNSAFE_TEST_CA_FILE` (with the hosts of
 * UNSAFE_TEST_ALLOW_HOSTS): set only by tests, never by the stack nor by `npm start`.
 */
/** The test receiver's certificate, when a test set one (shared with ./streaming-fetch.ts). */
export const testCa = () => {
  const file = readEnv('UNSAFE_TEST_CA_FILE');
  return file ? readFileSync(file) : undefined;
};

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** What `host` resolves to (a literal is its own answer, marked so); UnsafeUrlError when nothing. */
async function resolveAll(
  host: string,
  resolver: Resolver,
  what?: string,
): Promise<{ address: string; family: number }[] & { literal?: boolean }> {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal)) return Object.assign([{ address: literal, family: isIP(literal) }], { literal: true });
  let answers: { address: string; family: number }[];
  try {
    answers = await resolver(host);
  } catch {
    throw new UnresolvableHostError(host, what);
  }
  if (answers.length === 0) throw new UnresolvableHostError(host, what);
  return answers;
}

/** Every address `host` resolves to, each public (a literal is its own answer); UnsafeUrlError otherwise. */
async function publicAddresses(
  host: string,
  resolver: Resolver,
  what?: string,
): Promise<{ address: string; family: number }[]> {
  const answers = await resolveAll(host, resolver, what);
  if (answers.literal) return answers;
  const allowed = testAllowed(host);
  if (!allowed && answers.some((a) => !isPublicAddress(a.address))) {
    throw new UnsafeUrlError(`${host} resolves to an address the platform does not reach.`);
  }
  return answers;
}

/** A URL as it is saved: its syntax, names and today's DNS answer (checked again at each fetch). */
export async function checkPublicUrl(raw: string, options: { what?: string; resolver?: Resolver } = {}): Promise<URL> {
  const url = checkUrlSyntax(raw, options.what);
  await publicAddresses(url.hostname, options.resolver ?? systemResolver, options.what ?? 'The URL');
  return url;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body went past `maxBytes`: the rest was not read. */
  truncated: boolean;
}

export interface GuardedInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** For the whole exchange, connect to last byte; default 10 s. */
  timeoutMs?: number;
  /** The most of the body kept; default 64 KB. */
  maxBytes?: number;
}

/**
 * The socket's lookup: it connects to what `addresses` returns, so the check and the connection
 * can't disagree. Node asks for every address (`all`, to try them in turn) or for one.
 */
export function lookupThrough(
  addresses: (host: string) => Promise<{ address: string; family: number }[]>,
): LookupFunction {
  return ((hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    addresses(hostname).then(
      (answers) => {
        const first = answers[0] as { address: string; family: number };
        if (opts.all) callback(null, answers);
        else callback(null, first.address, first.family);
      },
      (err: Error) => callback(err),
    );
  }) as unknown as LookupFunction;
}

/**
 * Fetches a tenant's URL: checked as `checkPublicUrl` checks it, then connected only to an address
 * resolved and checked at connect time. Redirects are answers, never followed. UnsafeUrlError when
 * the URL or its address is refused; other errors (timeouts, TLS, resets) as Node reports them.
 */
export async function guardedFetch(
  raw: string,
  init: GuardedInit = {},
  options: { resolver?: Resolver; ca?: string | Buffer } = {},
): Promise<GuardedResponse> {
  const url = checkUrlSyntax(raw);
  const resolver = options.resolver ?? systemResolver;
  const timeoutMs = init.timeoutMs ?? 10_000;
  const maxBytes = init.maxBytes ?? 64 * 1024;
  const lookup = lookupThrough((hostname) => publicAddresses(hostname, resolver));
  return new Promise<GuardedResponse>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        servername: isIP(url.hostname) ? undefined : url.hostname,
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? 'GET',
        headers: init.headers,
        lookup,
        agent: false,
        ...(options.ca ? { ca: options.ca } : testCa() ? { ca: testCa() } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          if (size + chunk.length > maxBytes) {
            chunks.push(chunk.subarray(0, maxBytes - size));
            size = maxBytes;
            truncated = true;
            // Enough: the rest is never read.
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated }),
        );
        res.on('error', (err) => {
          if (!truncated) reject(err);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`No answer within ${timeoutMs} ms.`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err) => {
      clearTimeout(timer);
      // The lookup's refusal (UnsafeUrlError) comes out of the socket as itself.
      reject(err);
    });
    req.end(init.body);
  });
}

/** Whether a URL's host names this machine's loopback (`localhost`, `*.localhost`, 127/8, ::1). */
function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const literal = name.startsWith('[') ? name.slice(1, -1) : name;
  if (isIP(literal)) return isLoopbackAddress(literal);
  return name === 'localhost' || name.endsWith('.localhost');
}

const isLoopbackAddress = (address: string) => {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const inner = parsed.kind() === 'ipv6' ? (embeddedIpv4(parsed as ipaddr.IPv6) ?? []) : [];
  const judged = inner.length > 0 ? inner : [parsed];
  return judged.every((a) => a.range() === 'loopback');
};

/**
 * A URL as `checkUrlSyntax` checks it; with `loopback`, also `http` or `https` on any port of this
 * machine's loopback (servers on the person's own machine, allowed by `npm start` alone).
 */
export function checkUrlSyntaxFor(raw: string, what = 'The URL', loopback = false): URL {
  if (loopback) {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      // The refusal below says why.
    }
    if (url && isLoopbackHost(url.hostname) && (url.protocol === 'http:' || url.protocol === 'https:')) {
      if (url.username || url.password) throw new UnsafeUrlError(`${what} must not hold a user name or password.`);
      return url;
    }
  }
  return checkUrlSyntax(raw, what);
}

/** `checkPublicUrl` with the loopback allowance of `checkUrlSyntaxFor`: a loopback name must resolve to loopback only. */
export async function checkPublicUrlFor(
  raw: string,
  options: { what?: string; resolver?: Resolver; loopback?: boolean } = {},
): Promise<URL> {
  const url = checkUrlSyntaxFor(raw, options.what, options.loopback);
  await addressesFor(url.hostname, options.resolver ?? systemResolver, options.loopback === true, options.what);
  return url;
}

/** The addresses a connection may use: public ones (publicAddresses), or loopback ones for a loopback name when allowed. */
export async function addressesFor(
  host: string,
  resolver: Resolver,
  loopback: boolean,
  what?: string,
): Promise<{ address: string; family: number }[]> {
  if (!loopback || !isLoopbackHost(host)) return publicAddresses(host, resolver, what);
  const answers = await resolveAll(host, resolver, what);
  if (answers.some((a) => !isLoopbackAddress(a.address))) {
    throw new UnsafeUrlError(`${host} resolves to an address the platform does not reach.`);
  }
  return answers;
}
