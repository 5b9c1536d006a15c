import { type BackendError, backendError } from '../../kernel/ground/backend-errors';

/**
 * Calls to presigned links (no SDK, so none of its retries): a 5xx answer (S3's SlowDown,
 * InternalError, ServiceUnavailable) or a connection that failed is tried again, three times at
 * most, with a fresh link each time; what still fails is the backend-error table's answer (429 for
 * SlowDown, else 502, with Retry-After), never a 500. Every domain that moves bytes through a link
 * goes through here.
 */
const ATTEMPTS = 3;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 50));

/** The answer (its body unread, to stream) once it is below 500. A body sent must be bytes, not a stream. */
export const presignedResponse = (link: () => Promise<string>, init?: RequestInit): Promise<Response> =>
  tried(link, init, async (res) => res);

/** The answer read whole: an answer cut part-way is tried again too. */
export const presignedCall = (
  link: () => Promise<string>,
  init?: RequestInit,
): Promise<{ status: number; body: Buffer }> =>
  tried(link, init, async (res) => ({ status: res.status, body: Buffer.from(await res.arrayBuffer()) }));

/** One loop of tries: `read` takes an answer below 500; a 5xx, a failed connection or a failed read is tried again. */
async function tried<T>(
  link: () => Promise<string>,
  init: RequestInit | undefined,
  read: (res: Response) => Promise<T>,
) {
  for (let attempt = 1; ; attempt++) {
    const answer = await fetch(await link(), init)
      .then(async (res) => (res.status < 500 ? { value: await read(res) } : await errorOf(res)))
      .catch(networkError);
    if ('value' in answer) return answer.value;
    if (attempt >= ATTEMPTS) throw backendError(answer);
    await pause(attempt);
  }
}

/** A body streamed from a presigned GET, its failure part-way the backend's (502), not a 500. */
export async function* streamedBody(res: Response): AsyncGenerator<Uint8Array> {
  if (!res.body) return;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) yield chunk;
  } catch (err) {
    throw backendError(networkError(err));
  }
}

/** What S3 said in a 5xx answer (its XML `Code`), as the SDK would name it. */
async function errorOf(res: Response): Promise<BackendError> {
  const body = await res
    .arrayBuffer()
    .then((b) => Buffer.from(b).toString('utf8'))
    .catch(() => '');
  const code = /<Code>([A-Za-z]+)<\/Code>/.exec(body)?.[1];
  return { name: code ?? `HTTP${res.status}`, $metadata: { httpStatusCode: res.status } };
}

/**
 * A connection that failed or an answer cut part-way. Not told apart by `instanceof Error`: fetch's
 * errors may come from another realm (a test runner's sandbox), where that is false.
 */
const networkError = (err: unknown): BackendError => ({
  name: 'NetworkingError',
  message: String((err as { message?: unknown } | undefined)?.message ?? err),
});
