import { Readable, type Writable } from 'node:stream';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { bodyOf, streamed, writeAnswer } from '../../shared/kernel/http/function-url';
import { gitEndpointDeps } from './deps';
import { serveGit } from './serve';

/**
 * The git function on AWS, behind its function URL with response streaming (clones of up to
 * 200 MB stream out as CodeCommit sends them). The URL has no IAM auth (git can't sign its POSTs):
 * every request is authenticated here, with Basic auth, by functions/git/serve.ts.
 */
export async function serveFunctionUrl(event: LambdaFunctionURLEvent, out: Writable): Promise<void> {
  const answer = await serveGit(gitEndpointDeps, {
    method: event.requestContext.http.method,
    path: event.rawPath,
    query: new URLSearchParams(event.rawQueryString),
    headers: event.headers,
    body: Readable.from([bodyOf(event)]),
  });
  await writeAnswer(out, answer);
}

export const handler = streamed(serveFunctionUrl);
