/**
 * The local S3 server (s3rver), run as its own process by `lib/local/services.ts`: s3rver encodes
 * ListObjectsV2 continuation tokens with DES, which OpenSSL 3 offers only with
 * `--openssl-legacy-provider`, a flag that exists per process. The parent passes its settings in
 * `S3_SERVER_OPTIONS` (JSON) and waits for `{ ready: true }` over IPC.
 */
import { mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { onParentGone } from './lifeline';
import { signatureGate } from './s3-gate';
import type { EngineCredentials } from './sigv4';

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

main().catch((err: unknown) => {
  process.stderr.write(`S3 server failed: ${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
});
