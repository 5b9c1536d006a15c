import { ApiError, type Client, createClient } from '../../../client';
import { accessToken, expire } from './auth';
import { apiBase } from './config';

export { ApiError };

/**
 * The typed client (client/, generated from the OpenAPI document) as the app uses it: the
 * person's current access token on every call, and a 401 ends the session (the app shows sign-in;
 * what the person typed is kept as a draft).
 */
let client: Client | undefined;

const authedFetch: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  const token = accessToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(input, { ...init, headers });
  if (res.status === 401) expire();
  return res;
};

export function api(): Client {
  client ??= createClient({ baseUrl: apiBase(), fetch: authedFetch, retries: 1 });
  return client;
}

/** The message to show for a failed call: the API's own, and the fields it names. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    const issues = err.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    return [err.message, ...issues].join(' ');
  }
  return err instanceof Error ? err.message : String(err);
}
