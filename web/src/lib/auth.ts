import { config } from './config';

/**
 * Sign-in with OpenID Connect's authorization code flow and PKCE (S256) against the identity
 * provider at `authUrl`. Tokens live in this module's memory only (never in storage): a reload
 * signs in again silently (`prompt=none`, the provider's own session) unless the person signed
 * out. Only the PKCE verifier and state cross the redirect, in sessionStorage, and are removed
 * when the code comes back. A refresh token, when the provider gives one, renews the access token
 * a minute before it expires.
 */
interface Endpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
}

interface Pending {
  state: string;
  verifier: string;
  returnTo: string;
  silent: boolean;
}

interface TokenAnswer {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
}

export type AuthState =
  | { status: 'signed-in'; token: string }
  | { status: 'signed-out'; reason?: 'expired' | 'signed-out' | 'failed'; message?: string };

const PENDING = 'platform.signin';
const SIGNED_OUT = 'platform.signed-out';
const SILENT_TRIED = 'platform.silent-tried';

let state: AuthState = { status: 'signed-out' };
let refreshToken: string | undefined;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let endpoints: Promise<Endpoints> | undefined;
const listeners = new Set<() => void>();

function set(next: AuthState) {
  state = next;
  for (const l of listeners) l();
}

export const authState = () => state;
export const subscribeAuth = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
export const accessToken = () => (state.status === 'signed-in' ? state.token : undefined);

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = () => b64url(crypto.getRandomValues(new Uint8Array(32)));
const challengeOf = async (verifier: string) =>
  b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));

function discover(): Promise<Endpoints> {
  endpoints ??= (async () => {
    const issuer = config().authUrl.replace(/\/+$/, '');
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    if (!res.ok) throw new Error(`The identity provider's configuration could not be read (${res.status}).`);
    return (await res.json()) as Endpoints;
  })().catch((err) => {
    endpoints = undefined;
    throw err;
  });
  return endpoints;
}

/** The app's own path (under its base) to come back to after signing in. */
export const currentPath = () => window.location.pathname + window.location.search + window.location.hash;

/** Sends the browser to the identity provider. `silent`: `prompt=none`, no page shown there. */
export async function signIn(options: { silent?: boolean; returnTo?: string } = {}): Promise<void> {
  const { authorization_endpoint } = await discover();
  const pending: Pending = {
    state: random(),
    verifier: random(),
    returnTo: options.returnTo ?? currentPath(),
    silent: options.silent === true,
  };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  if (pending.silent) sessionStorage.setItem(SILENT_TRIED, '1');
  else sessionStorage.removeItem(SIGNED_OUT);
  const url = new URL(authorization_endpoint);
  const { clientId, redirectUri } = config();
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    state: pending.state,
    code_challenge: await challengeOf(pending.verifier),
    code_challenge_method: 'S256',
    ...(pending.silent ? { prompt: 'none' } : {}),
  }).toString();
  window.location.assign(url.toString());
}

async function tokenRequest(form: Record<string, string>): Promise<TokenAnswer> {
  const { token_endpoint } = await discover();
  const res = await fetch(token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: config().clientId, ...form }).toString(),
  });
  const answer = (await res.json().catch(() => ({}))) as TokenAnswer & { error?: string; error_description?: string };
  if (!res.ok || typeof answer.access_token !== 'string') {
    throw new Error(answer.error_description ?? answer.error ?? `The identity provider answered ${res.status}.`);
  }
  return answer;
}

function hold(answer: TokenAnswer) {
  if (answer.refresh_token) refreshToken = answer.refresh_token;
  clearTimeout(refreshTimer);
  const seconds = answer.expires_in ?? 0;
  if (refreshToken && seconds > 0) {
    refreshTimer = setTimeout(() => void renew(), Math.max(5, seconds - 60) * 1000);
  }
  set({ status: 'signed-in', token: answer.access_token });
}

async function renew(): Promise<void> {
  if (!refreshToken) return;
  try {
    hold(await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }));
  } catch {
    expire();
  }
}

/**
 * The identity provider's answer at the redirect URI: the code exchanged for tokens. Answers the
 * app path to go back to. A silent attempt that the provider refused (no session there) ends
 * signed out, with no message.
 */
export async function completeSignIn(params: URLSearchParams): Promise<string> {
  const raw = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  const pending = raw ? (JSON.parse(raw) as Pending) : undefined;
  const home = import.meta.env.BASE_URL;
  const error = params.get('error');
  if (error) {
    if (!pending?.silent) {
      set({ status: 'signed-out', reason: 'failed', message: params.get('error_description') ?? error });
    }
    return pending?.returnTo ?? home;
  }
  if (!pending || params.get('state') !== pending.state) {
    set({ status: 'signed-out', reason: 'failed', message: 'That sign-in link was not started here. Sign in again.' });
    return home;
  }
  try {
    hold(
      await tokenRequest({
        grant_type: 'authorization_code',
        code: params.get('code') ?? '',
        redirect_uri: config().redirectUri,
        code_verifier: pending.verifier,
      }),
    );
    sessionStorage.removeItem(SILENT_TRIED);
  } catch (err) {
    set({ status: 'signed-out', reason: 'failed', message: (err as Error).message });
  }
  return pending.returnTo;
}

/** On a load with no token: try the provider's session once, unless the person signed out. */
export function shouldTrySilently(): boolean {
  return state.status !== 'signed-in' && !sessionStorage.getItem(SIGNED_OUT) && !sessionStorage.getItem(SILENT_TRIED);
}

/** The API said 401: the session ended (expired or revoked). Drafts stay in sessionStorage. */
export function expire(): void {
  if (state.status !== 'signed-in') return;
  clearTimeout(refreshTimer);
  refreshToken = undefined;
  set({ status: 'signed-out', reason: 'expired' });
}

export async function signOut(): Promise<void> {
  clearTimeout(refreshTimer);
  refreshToken = undefined;
  sessionStorage.setItem(SIGNED_OUT, '1');
  set({ status: 'signed-out', reason: 'signed-out' });
  const found = await discover().catch(() => undefined);
  if (found?.end_session_endpoint) {
    const url = new URL(found.end_session_endpoint);
    url.searchParams.set('client_id', config().clientId);
    url.searchParams.set('post_logout_redirect_uri', new URL(import.meta.env.BASE_URL, window.location.origin).href);
    window.location.assign(url.toString());
  }
}
