import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { gitEndpointDeps } from './deps';
import { serveGit } from './serve';

/**
 * The git function on AWS, behind its function URL with response streaming (clones of up to
 * 200 MB stream out as CodeCommit sends them). The URL has no IAM auth (git can't sign its POSTs):
 * every request is authenticated here, with Basic auth, by functions/git/serve.ts.
 */
interface StreamingRuntime {
  streamifyResponse(
    fn: (event: LambdaFunctionURLEvent, stream: Writable) => Promise<void>,
  ): (event: LambdaFunctionURLEvent, stream: Writable) => Promise<void>;
  HttpResponseStream: {
    from(stream: Writable, metadata: { statusCode: number; headers: Record<string, string> }): Writable;
  };
}

// The Lambda Node.js runtime provides `awslambda`; anywhere else (tests, the bench) there is none.
const provided = (globalThis as unknown as { awslambda?: Partial<StreamingRuntime> }).awslambda;
const runtime =
  typeof provided?.streamifyResponse === 'function' && provided.HttpResponseStream
    ? (provided as StreamingRuntime)
    : undefined;

export async function serveFunctionUrl(event: LambdaFunctionURLEvent, out: Writable): Promise<void> {
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const answer = await serveGit(gitEndpointDeps, {
    method: event.requestContext.http.method,
    path: event.rawPath,
    query: new URLSearchParams(event.rawQueryString),
    headers: event.headers,
    body: Readable.from([body]),
  });
  const stream = runtime
    ? runtime.HttpResponseStream.from(out, { statusCode: answer.status, headers: answer.headers })
    : out;
  await pipeline(Buffer.isBuffer(answer.body) ? Readable.from([answer.body]) : answer.body, stream);
}

export const handler = runtime ? runtime.streamifyResponse(serveFunctionUrl) : serveFunctionUrl;
