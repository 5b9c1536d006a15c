import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { readEnv } from '../../kernel/ground/env';
import type { Credentials } from '../runtime/iam';
import type { GitHttpRequest, GitHttpResponse } from './http-backend';

const hash = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

export const codecommitHost = (region: string) =>
  readEnv('CODECOMMIT_GIT_HOST') ?? `git-codecommit.${region}.amazonaws.com`;

/**
 * The Basic credentials CodeCommit's HTTPS endpoint takes from an IAM identity, as
 * git-remote-codecommit makes them: the user is the access key id (`%` and the session token for
 * temporary credentials); the password is `<time>Z<signature>`, SigV4 (service `codecommit`) over
 * the canonical request `GIT <path>` with only the host signed.
 */
export function codecommitBasic(
  repositoryName: string,
  region: string,
  credentials: Credentials,
  now = new Date(),
): { user: string; password: string; path: string } {
  const host = codecommitHost(region);
  const path = `/v1/repos/${repositoryName}`;
  const stamp = now
    .toISOString()
    .replace(/[-:]|\.\d{3}/g, '')
    .replace(/Z$/, '');
  const date = stamp.slice(0, 8);
  const scope = `${date}/${region}/codecommit/aws4_request`;
  const canonical = `GIT\n${path}\n\nhost:${host}\n\nhost\n`;
  const toSign = `AWS4-HMAC-SHA256\n${stamp}\n${scope}\n${hash(canonical)}`;
  let key = hmac(`AWS4${credentials.secretAccessKey}`, date);
  for (const part of [region, 'codecommit', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const user = credentials.sessionToken
    ? `${credentials.accessKeyId}%${credentials.sessionToken}`
    : credentials.accessKeyId;
  return { user, password: `${stamp}Z${signature}`, path };
}

/**
 * The AWS transport: the exchange passed on to CodeCommit's smart-HTTP endpoint under the
 * function's own identity (the caller was authenticated by the platform). Request and answer
 * stream; CodeCommit's refusals (status and text) reach git as they are.
 */
export async function codecommitTransport(
  repositoryName: string,
  region: string,
  credentials: Credentials,
  req: GitHttpRequest,
): Promise<GitHttpResponse> {
  const basic = codecommitBasic(repositoryName, region, credentials);
  const url = `https://${codecommitHost(region)}${basic.path}/${req.service}${req.query ? `?${req.query}` : ''}`;
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${basic.user}:${basic.password}`).toString('base64')}`,
    'user-agent': 'git/2.39.5 (platform)',
  };
  if (req.contentType) headers['content-type'] = req.contentType;
  if (req.contentEncoding) headers['content-encoding'] = req.contentEncoding;
  if (req.gitProtocol) headers['git-protocol'] = req.gitProtocol;
  const body =
    req.method === 'POST' && req.body
      ? Buffer.isBuffer(req.body)
        ? req.body
        : (Readable.toWeb(req.body as Readable) as ReadableStream)
      : undefined;
  const res = await fetch(url, {
    method: req.method,
    headers,
    body,
    ...(body && !Buffer.isBuffer(body) ? { duplex: 'half' } : {}),
  } as RequestInit);
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'cache-control', 'expires', 'pragma']) {
    const value = res.headers.get(name);
    if (value) out[name] = value;
  }
  return {
    status: res.status,
    headers: out,
    body: res.body ? Readable.fromWeb(res.body as never) : Readable.from([]),
  };
}
