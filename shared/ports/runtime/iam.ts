import { createHash, createHmac } from 'node:crypto';
import { readEnv } from '../../kernel/ground/env';

/**
 * The four IAM calls that give each server function a role of its own (shared/ports/runtime/aws.ts):
 * CreateRole, PutRolePolicy, DeleteRolePolicy, DeleteRole. IAM's Query API, signed with SigV4 by
 * hand: the project has no IAM client among its dependencies, and four form posts don't justify
 * one in every worker bundle. IAM is global: one endpoint per partition (`IAM_ENDPOINT` overrides
 * it, for a stand-in).
 */

/** What signs a call: the SDK's resolved credentials have this shape. */
export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export class IamError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = code;
  }
}

const hash = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** The endpoint and signing region of IAM in the partition of `region`. */
export function iamEndpoint(region: string): { url: string; region: string } {
  const configured = readEnv('IAM_ENDPOINT');
  if (configured) return { url: configured, region: 'us-east-1' };
  if (region.startsWith('cn-')) return { url: 'https://iam.cn-north-1.amazonaws.com.cn/', region: 'cn-north-1' };
  if (region.startsWith('us-gov-')) return { url: 'https://iam.us-gov.amazonaws.com/', region: 'us-gov-west-1' };
  return { url: 'https://iam.amazonaws.com/', region: 'us-east-1' };
}

/** The form body of an IAM action (`Version` 2010-05-08); values are percent-encoded as SigV4 wants. */
function formBody(action: string, params: Record<string, string>): string {
  const encode = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return Object.entries({ Action: action, Version: '2010-05-08', ...params })
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
}

/** Headers of a SigV4-signed POST of `body` to `url` (service `iam`). */
function signedHeaders(
  url: URL,
  body: string,
  region: string,
  credentials: Credentials,
  now: Date,
): Record<string, string> {
  const stamp = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
  const date = stamp.slice(0, 8);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    host: url.host,
    'x-amz-date': stamp,
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    'POST',
    url.pathname || '/',
    '',
    ...names.map((n) => `${n}:${headers[n]}`),
    '',
    names.join(';'),
    hash(body),
  ].join('\n');
  const scope = `${date}/${region}/iam/aws4_request`;
  let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, date);
  for (const part of [region, 'iam', 'aws4_request']) key = hmac(key, part);
  const signature = hmac(key, ['AWS4-HMAC-SHA256', stamp, scope, hash(canonical)].join('\n')).toString('hex');
  const { host: _host, ...sent } = headers;
  return {
    ...sent,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

export interface Iam {
  createRole(input: { name: string; trustPolicy: object; boundaryArn: string; description: string }): Promise<void>;
  putRolePolicy(role: string, policyName: string, policy: object): Promise<void>;
  deleteRolePolicy(role: string, policyName: string): Promise<void>;
  deleteRole(role: string): Promise<void>;
}

export function iamClient(region: string, credentials: () => Promise<Credentials>, retry = { ms: 200, tries: 5 }): Iam {
  const endpoint = iamEndpoint(region);
  async function call(action: string, params: Record<string, string>): Promise<string> {
    const url = new URL(endpoint.url);
    const body = formBody(action, params);
    // IAM's write calls are throttled at a low rate: a busy retention sweep backs off and retries.
    for (let attempt = 1; ; attempt++) {
      const headers = signedHeaders(url, body, endpoint.region, await credentials(), new Date());
      const res = await fetch(url, { method: 'POST', headers, body });
      const text = await res.text();
      if (res.ok) return text;
      const err = new IamError(
        tag(text, 'Code') ?? 'IamError',
        tag(text, 'Message') ?? `IAM ${action}: ${res.status}`,
        res.status,
      );
      if (!(err.code === 'Throttling' || res.status >= 500) || attempt >= retry.tries) throw err;
      await new Promise((done) => setTimeout(done, retry.ms * 2 ** (attempt - 1)));
    }
  }
  return {
    async createRole({ name, trustPolicy, boundaryArn, description }) {
      await call('CreateRole', {
        RoleName: name,
        AssumeRolePolicyDocument: JSON.stringify(trustPolicy),
        PermissionsBoundary: boundaryArn,
        Description: description,
      });
    },
    async putRolePolicy(role, policyName, policy) {
      await call('PutRolePolicy', { RoleName: role, PolicyName: policyName, PolicyDocument: JSON.stringify(policy) });
    },
    async deleteRolePolicy(role, policyName) {
      await call('DeleteRolePolicy', { RoleName: role, PolicyName: policyName });
    },
    async deleteRole(role) {
      await call('DeleteRole', { RoleName: role });
    },
  };
}
