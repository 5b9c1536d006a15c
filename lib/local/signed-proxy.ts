import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { type AuthFailure, type EngineCredentials, verifyHeaderSignature } from './sigv4';

/**
 * What AWS answers a request it can't authenticate, per service (JSON protocols): DynamoDB with
 * 400, SQS with 403, each with its own `__type`.
 */
const REFUSALS: Record<'dynamodb' | 'sqs', { status: number; errors: Record<AuthFailure, [string, string]> }> = {
  dynamodb: {
    status: 400,
    errors: {
      missing: ['MissingAuthenticationTokenException', 'Request is missing Authentication Token'],
      'unknown-key': ['UnrecognizedClientException', 'The security token included in the request is invalid.'],
      mismatch: [
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      ],
      skewed: ['InvalidSignatureException', 'Signature expired: the request date is more than 15 minutes from now.'],
    },
  },
  sqs: {
    status: 403,
    errors: {
      missing: ['MissingAuthenticationToken', 'Request is missing Authentication Token'],
      'unknown-key': ['InvalidClientTokenId', 'The security token included in the request is invalid.'],
      mismatch: [
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      ],
      skewed: ['SignatureDoesNotMatch', 'Signature expired: the request date is more than 15 minutes from now.'],
    },
  },
};

/** The largest request body forwarded (DynamoDB's own limit is 16 MB). */
const MAX_BODY = 16 * 1024 * 1024;

/** An engine answering a request in this process (no port of its own to find). */
export type InProcess = (request: {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}) => Promise<{ status: number; headers: Record<string, string | string[] | number | undefined>; body: Buffer }>;

/**
 * A proxy in front of a local engine that does not check signatures (DynamoDB Local, the SQS
 * stand-in): a request reaches the engine only when it is signed with the platform's credentials
 * (SigV4, lib/local/sigv4.ts); any other gets the service's own refusal. The engine answers in
 * this process (the SQS stand-in), or on a private port (DynamoDB Local, a Java process); this
 * proxy's port is the endpoint the platform is given.
 */
export function signedProxy(
  service: 'dynamodb' | 'sqs',
  target: { host: string; port: number } | { socketPath: string } | InProcess,
  credentials: EngineCredentials,
): Server {
  const refusal = REFUSALS[service];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const failure = verifyHeaderSignature(
        { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body },
        credentials,
      );
      if (failure) {
        const [type, message] = refusal.errors[failure];
        const text = JSON.stringify({ __type: `com.amazon.coral.service#${type}`, message });
        res.writeHead(refusal.status, {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': Buffer.byteLength(text),
          'x-amzn-errortype': type,
        });
        res.end(text);
        return;
      }
      if (typeof target === 'function') {
        const sent = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
        target(sent).then(
          (answer) => {
            res.writeHead(answer.status, answer.headers);
            res.end(answer.body);
          },
          () => {
            if (!res.headersSent) res.writeHead(502);
            res.end();
          },
        );
        return;
      }
      const upstream = request({ ...target, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    });
  });
  // Idle connections are left to the clients (see lib/local/gateway.ts): no keep-alive timer here.
  server.keepAliveTimeout = 0;
  return server;
}
