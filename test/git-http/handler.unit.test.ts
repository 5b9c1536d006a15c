import { Writable } from 'node:stream';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { serveFunctionUrl } from '../../functions/git/handler';

/**
 * The git function's Lambda side: a function URL event becomes the endpoint's request, and its
 * answer is streamed out (outside Lambda, without the runtime's response metadata).
 */
function event(path: string, query = '', headers: Record<string, string> = {}): LambdaFunctionURLEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers,
    isBase64Encoded: false,
    requestContext: { http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '1.2.3.4', userAgent: 'git/2.39' } },
  } as unknown as LambdaFunctionURLEvent;
}

async function run(e: LambdaFunctionURLEvent): Promise<string> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await serveFunctionUrl(e, out);
  return Buffer.concat(chunks).toString();
}

it('asks for a password before anything else, and serves smart HTTP only', async () => {
  const path = '/git/org_0123456789ab/site.git/info/refs';
  expect(await run(event(path, 'service=git-upload-pack'))).toContain('Sign in with a key or git credential');
  expect(await run(event(path))).toContain('Only smart HTTP is served');
  expect(await run(event('/git/org_0123456789ab/../x.git/info/refs', 'service=git-upload-pack'))).toContain(
    'Repository not found',
  );
});
