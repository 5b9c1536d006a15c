/**
 * The local S3 server (s3rver), run as its own process by `lib/local/services.ts`: s3rver encodes
 * ListObjectsV2 continuation tokens with DES, which OpenSSL 3 offers only with
 * `--openssl-legacy-provider`, a flag that exists per process. The parent passes its settings in
 * `S3_SERVER_OPTIONS` (JSON) and waits for `{ ready: true }` over IPC.
 */
import { mkdirSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { presignedSignature } from './sigv4';

/** The secret key of the local S3 server's one account (s3rver's default). */
const SECRET = 'S3RVER';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<unknown>;
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

interface Options {
  port: number;
  address: string;
  directory: string;
  buckets: string[];
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
  const server = new S3rver({
    // s3rver listens on a private port; the public one is the signature-checking proxy.
    port: 0,
    address: '127.0.0.1',
    directory: options.directory,
    silent: true,
    // s3rver does not implement SigV4 checks: presigned links are checked by the proxy below,
    // requests the platform signs itself with S3RVER/S3RVER pass.
    allowMismatchedSignatures: true,
    // Path-style only: `<bucket>.localhost` does not resolve everywhere.
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [PERMISSIVE_CORS] })),
  });
  const { port: internalPort } = (await server.run()) as unknown as AddressInfo;
  const proxy = signatureCheckingProxy(internalPort);
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(options.port, options.address, () => resolve());
  });
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    proxy.close();
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  // The parent went away (even by SIGKILL): never outlive it and keep the port.
  process.on('disconnect', close);
  process.send?.({ ready: true });
}

const SIGNATURE_MISMATCH = `<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided. Check your key and signing method.</Message></Error>`;

/**
 * In front of s3rver: a request made with a presigned link (`X-Amz-Signature` in the query) must
 * carry exactly what the link signed (content type, length, host…), as S3 requires; otherwise
 * 403 `SignatureDoesNotMatch`. Expiry stays s3rver's check. Everything else is passed through.
 */
function signatureCheckingProxy(target: number): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const given = url.searchParams.get('X-Amz-Signature');
    if (given !== null && given !== presignedSignature(url.href, req.method ?? 'GET', req.headers, SECRET)) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(SIGNATURE_MISMATCH);
      req.resume();
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`S3 server failed: ${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
});
