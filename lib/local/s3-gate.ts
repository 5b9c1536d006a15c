import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  type AuthFailure,
  type EngineCredentials,
  presignedSignature,
  sameSignature,
  verifyHeaderSignature,
} from './sigv4';

/** The local S3 server's front door (./s3-server.ts runs it in its own process, in front of s3rver). */
const REFUSALS: Record<AuthFailure, [string, string]> = {
  missing: ['AccessDenied', 'Access Denied'],
  'unknown-key': ['InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'],
  mismatch: [
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  ],
  skewed: ['RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.'],
};

const NOT_SIGNED: [string, string] = [
  'AccessDenied',
  'There were headers present in the request which were not signed',
];

function refuse(res: ServerResponse, [code, message]: [string, string], detail = ''): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${detail}</Error>`;
  res.writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The `x-amz-` headers of a presigned request that its link did not sign. S3 refuses them: an
 * upload link must not become a CopyObject (`x-amz-copy-source`) from a bucket its holder can't read.
 */
function unsignedAmzHeaders(req: IncomingMessage, url: URL): string[] {
  const signed = new Set((url.searchParams.get('X-Amz-SignedHeaders') ?? '').toLowerCase().split(';'));
  return Object.keys(req.headers).filter((h) => h.startsWith('x-amz-') && !signed.has(h));
}

/**
 * In front of s3rver, as S3 authenticates: a request signed in its `Authorization` header must be
 * signed with the platform's key pair (SigV4); a request made with a presigned link
 * (`X-Amz-Signature`) must carry exactly what the link signed (content type, length, host…), with
 * the platform's key id, and no `x-amz-` header the link did not sign (expiry stays s3rver's
 * check); a CORS preflight (OPTIONS) needs neither, as on S3. Anything else is 403 in S3's words.
 */
export function signatureGate(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  credentials: EngineCredentials,
) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    // A browser's CORS preflight of a presigned link carries the link's query but not its
    // signature's method or headers: S3 answers it by the bucket's CORS rules alone.
    const given = req.method === 'OPTIONS' ? null : url.searchParams.get('X-Amz-Signature');
    let failure: AuthFailure | undefined;
    if (given !== null) {
      const keyId = (url.searchParams.get('X-Amz-Credential') ?? '').split('/')[0];
      if (keyId !== credentials.accessKeyId) failure = 'unknown-key';
      else if (
        !sameSignature(
          given,
          presignedSignature(url.href, req.method ?? 'GET', req.headers, credentials.secretAccessKey),
        )
      )
        failure = 'mismatch';
    } else if (req.method !== 'OPTIONS') {
      failure = verifyHeaderSignature(
        { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers },
        credentials,
      );
    }
    const unsigned = given !== null && !failure ? unsignedAmzHeaders(req, url) : [];
    if (failure || unsigned.length > 0) {
      if (failure) refuse(res, REFUSALS[failure]);
      else refuse(res, NOT_SIGNED, `<HeadersNotSigned>${unsigned.join(', ')}</HeadersNotSigned>`);
      req.resume();
      return;
    }
    handler(req, res);
  });
  // Idle connections are left to the clients (see lib/local/gateway.ts): no keep-alive timer here.
  server.keepAliveTimeout = 0;
  return server;
}
