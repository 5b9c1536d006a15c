import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { serveDav } from './serve';

/**
 * The DAV function: an API Gateway v2 / function URL event in, its answer out (whole: DAV answers
 * are small, and a request is at most Lambda's 6 MB). On AWS it sits behind its own function URL
 * (WebDAV's methods don't pass an HTTP API's list); on one machine the local gateway hands it
 * `/dav/…` and `/.well-known/caldav|carddav` (lib/local/dav.ts).
 */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const answer = await serveDav({
    method: event.requestContext.http.method,
    path: event.rawPath,
    headers: event.headers ?? {},
    body,
    ip: event.requestContext.http.sourceIp,
  });
  return { statusCode: answer.status, headers: answer.headers, body: answer.body };
}
