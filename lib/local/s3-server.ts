/**
 * The local S3 server (s3rver), run as its own process by `lib/local/services.ts`: s3rver encodes
 * ListObjectsV2 continuation tokens with DES, which OpenSSL 3 offers only with
 * `--openssl-legacy-provider`, a flag that exists per process. The parent passes its settings in
 * `S3_SERVER_OPTIONS` (JSON) and waits for `{ ready: true }` over IPC.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { onParentGone } from './lifeline';
import {
  type AuthFailure,
  type EngineCredentials,
  presignedSignature,
  sameSignature,
  verifyHeaderSignature,
} from './sigv4';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverInstance {
  configureBuckets(): Promise<unknown>;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}

/** s3rver's one account: the platform's key pair replaces its published default (S3RVER/S3RVER). */
interface S3rverAccounts {
  DUMMY_ACCOUNT: {
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
    revokeAccessKey(accessKeyId: string): void;
  };
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
const requireHere = createRequire(__filename);

/**
 * s3rver reads request XML (DeleteObjects keys, CORS rules) with fast-xml-parser's default of
 * turning values into numbers and booleans: a key `0x10` became 16 and deleted another object,
 * and `9` or `true` broke the request. S3 keeps every value as text, so the parser s3rver loads
 * (the same module instance) is told to as well.
 */
const xmlParser = createRequire(requireHere.resolve('s3rver'))('fast-xml-parser') as {
  parse: (xml: string, options?: Record<string, unknown>) => unknown;
};
const parseXml = xmlParser.parse.bind(xmlParser);
xmlParser.parse = (xml, options) => parseXml(xml, { ...options, parseNodeValue: false, parseAttributeValue: false });

const S3rver = requireHere('s3rver') as S3rverClass;
const accounts = createRequire(requireHere.resolve('s3rver'))('./models/account') as S3rverAccounts;

interface Options {
  port: number;
  address: string;
  directory: string;
  buckets: string[];
  credentials: EngineCredentials;
}

/**
 * Browsers on other local origins upload and download with presigned links, so every platform
 * bucket answers CORS for any origin and method; the signature still guards the link.
 */
const PERMISSIVE_CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>DELETE</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <ExposeHeader>Content-Length</ExposeHeader>
    <ExposeHeader>Content-Type</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

async function main(): Promise<void> {
  const options = JSON.parse(process.env.S3_SERVER_OPTIONS ?? '{}') as Options;
  // s3rver's filesystem store expects its folder to exist.
  mkdirSync(options.directory, { recursive: true });
  accounts.DUMMY_ACCOUNT.createKeyPair(options.credentials.accessKeyId, options.credentials.secretAccessKey);
  accounts.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  const server = new S3rver({
    directory: options.directory,
    silent: true,
    // s3rver does not implement SigV4 checks: the gate below does, before a request reaches it.
    allowMismatchedSignatures: true,
    // Path-style only: `<bucket>.localhost` does not resolve everywhere.
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [PERMISSIVE_CORS] })),
  });
  // s3rver never listens: its handler is called in this process, behind the gate, so nothing
  // reaches it unsigned (no private port to find).
  await server.configureBuckets();
  const proxy = signatureGate(server.callback(), options.credentials);
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(options.port, options.address, () => resolve());
  });
  // Ends on SIGTERM, SIGINT or SIGHUP: open connections are closed, and whatever still holds the
  // loop, it exits within 2 s; a second signal exits at once (a signal is never swallowed).
  let closing = false;
  const close = () => {
    if (closing) process.exit(0);
    closing = true;
    proxy.close(() => process.exit(0));
    proxy.closeAllConnections();
    setTimeout(() => process.exit(0), 2000);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, close);
  // A stderr nobody reads any more (its reader gone: EPIPE, a closed terminal: EIO) must not turn
  // each write into another uncaught error: the handler below wrote it to that stderr again, a loop
  // that kept an orphaned S3 server busy at three quarters of a core. Such writes are dropped.
  process.stderr.on('error', () => undefined);
  process.stdout.on('error', () => undefined);
  // s3rver writes an object through a stream without an error listener: a bucket's folder removed
  // while a PUT is in flight (a test or a person cleaning up) threw in this process and stopped the
  // engine for every bucket. The one request fails; the server goes on.
  process.on('uncaughtException', (err) => {
    process.stderr.write(`S3 server: a request failed: ${err.message}\n`);
  });
  // The parent went away (even by SIGKILL): never outlive it and keep the port. Its IPC channel
  // closes; its pid is watched too, should the channel outlive it.
  process.on('disconnect', close);
  onParentGone(close);
  process.send?.({ ready: true });
}

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
function signatureGate(handler: (req: IncomingMessage, res: ServerResponse) => void, credentials: EngineCredentials) {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const given = url.searchParams.get('X-Amz-Signature');
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
}

main().catch((err: unknown) => {
  process.stderr.write(`S3 server failed: ${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
});
