/**
 * The local S3 server (s3rver), run as its own process by `lib/local/services.ts`: s3rver encodes
 * ListObjectsV2 continuation tokens with DES, which OpenSSL 3 offers only with
 * `--openssl-legacy-provider`, a flag that exists per process. The parent passes its settings in
 * `S3_SERVER_OPTIONS` (JSON) and waits for `{ ready: true }` over IPC.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<unknown>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
const S3rver = createRequire(__filename)('s3rver') as S3rverClass;

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
    port: options.port,
    address: options.address,
    directory: options.directory,
    silent: true,
    // Clients sign with S3RVER/S3RVER; a browser or proxy that changes the Host header must not
    // turn a valid presigned link into SignatureDoesNotMatch locally.
    allowMismatchedSignatures: true,
    // Path-style only: `<bucket>.localhost` does not resolve everywhere.
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [PERMISSIVE_CORS] })),
  });
  await server.run();
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
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

main().catch((err: unknown) => {
  process.stderr.write(`S3 server failed: ${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
});
