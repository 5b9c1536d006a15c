import type { Writable } from 'node:stream';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { pageHtml } from '../../shared/domains/serving/pages';
import { type EdgeResponse, routeRequest } from '../../shared/domains/serving/router';
import { describeError, log } from '../../shared/kernel/ground/log';
import { bodyOf, streamed, writeAnswer } from '../../shared/kernel/http/function-url';

/**
 * The router on AWS: CloudFront's origin for every deployed site (`*.<apps domain>` and the
 * custom domains, tenants of the multi-tenant distribution), behind a function URL that only
 * CloudFront may call (IAM auth, origin access control). CloudFront's viewer-request function
 * copies the visitor's Host into `x-forwarded-host` (the origin sees its own host). Answers are
 * streamed: a static file leaves S3 as it is read.
 */
export async function serveRouter(event: LambdaFunctionURLEvent, out: Writable): Promise<void> {
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  if (event.cookies?.length) headers.cookie = event.cookies.join('; ');
  const requestId = event.requestContext.requestId;
  let answer: EdgeResponse;
  try {
    answer = await routeRequest({
      method: event.requestContext.http.method,
      host: headers['x-forwarded-host'] ?? headers.host ?? '',
      path: event.rawPath,
      query: event.rawQueryString,
      headers,
      body: bodyOf(event),
      sourceIp: event.requestContext.http.sourceIp,
      requestId,
    });
  } catch (err) {
    log.error('router_failed', { requestId, error: describeError(err) });
    answer = {
      status: 500,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId },
      body: Buffer.from(pageHtml('Edge error', 'The router failed on this request.')),
    };
  }
  await writeAnswer(out, answer);
}

export const handler = streamed(serveRouter);
