import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { LambdaFunctionURLEvent } from 'aws-lambda';

/** The Lambda Node.js runtime's response streaming (`awslambda`), for functions behind a function URL. */
interface StreamingRuntime {
  streamifyResponse(
    fn: (event: LambdaFunctionURLEvent, stream: Writable) => Promise<void>,
  ): (event: LambdaFunctionURLEvent, stream: Writable) => Promise<void>;
  HttpResponseStream: {
    from(
      stream: Writable,
      metadata: { statusCode: number; headers: Record<string, string>; cookies?: string[] },
    ): Writable;
  };
}

// The Lambda Node.js runtime provides `awslambda`; anywhere else (tests, the bench) there is none.
const provided = (globalThis as unknown as { awslambda?: Partial<StreamingRuntime> }).awslambda;
const streaming =
  typeof provided?.streamifyResponse === 'function' && provided.HttpResponseStream
    ? (provided as StreamingRuntime)
    : undefined;

/** The handler as Lambda runs it: streamed where the runtime streams, else as given (tests). */
export const streamed = (fn: (event: LambdaFunctionURLEvent, out: Writable) => Promise<void>) =>
  streaming ? streaming.streamifyResponse(fn) : fn;

/** Writes an answer to a function URL's response stream: status and headers first, then the body as it comes. */
export async function writeAnswer(
  out: Writable,
  answer: {
    status: number;
    headers: Record<string, string>;
    cookies?: string[];
    body: Buffer | NodeJS.ReadableStream | ReadableStream<Uint8Array>;
  },
): Promise<void> {
  const stream = streaming
    ? streaming.HttpResponseStream.from(out, {
        statusCode: answer.status,
        headers: answer.headers,
        ...(answer.cookies && answer.cookies.length > 0 ? { cookies: answer.cookies } : {}),
      })
    : out;
  const body = answer.body;
  const source = Buffer.isBuffer(body)
    ? Readable.from([body])
    : 'getReader' in body
      ? Readable.fromWeb(body as WebReadableStream<Uint8Array>)
      : (body as NodeJS.ReadableStream);
  await pipeline(source, stream);
}

/** A function URL request's body. */
export const bodyOf = (event: LambdaFunctionURLEvent) =>
  event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
