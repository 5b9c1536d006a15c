import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pendingLogin } from '../../shared/domains/agents/devices';
import { pendingSessionLogin } from '../../shared/kernel/identity/sessions';
import type { LocalRoute } from './gateway';
import { escapeHtml, PLATFORM_CLIENT_ID } from './idp-oauth';

/**
 * The page where a person answers a device code (RFC 8628's verification URI): `GET /device`
 * (`?code=…` prefilled), served by the local platform beside the API, as `/openapi.json` is. The
 * person signs in through the identity provider (`AUTH_URL/authorize`, the platform's own client,
 * code flow with PKCE, back at `/device/callback`); the page keeps the access token server-side,
 * in a session of 15 minutes named by an HttpOnly cookie, never in the page. Then it shows what
 * the code asks for and the person's organizations that may grant it, and answers through the
 * API's own route with the person's token (`POST /device`, with the session's CSRF token).
 *
 * What is approved follows the code's kind (KINDS): an agent device's login (in an organization
 * the person chooses), or a person's `platform login` by device code (no organization: the
 * command line acts as the person).
 */

/** The API, called as the signed-in person. */
type Api = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<{ status: number; body: any }>;

interface CodeKind {
  /** The organizations' scope that answering needs (undefined: no organization is chosen). */
  scope?: string;
  /** What the code asks for, or undefined when the code is not one of this kind. */
  find(code: string): Promise<{ title: string; detail: string; code: string; answered: boolean } | undefined>;
  /** The answer, through the API. */
  answer(api: Api, code: string, approve: boolean, orgId?: string): Promise<{ status: number; body: any }>;
}

const agentDevice: CodeKind = {
  scope: 'agents:write',
  async find(code) {
    const login = await pendingLogin(code);
    if (!login) return undefined;
    const system = login.platform ? ` (${login.platform})` : '';
    const jobs = login.capabilities.length > 1 ? `${login.capabilities.join(', ')} jobs` : 'http jobs only';
    return {
      title: 'Approve an agent device',
      detail: `The agent program "${login.name ?? 'Agent'}"${system} asks to join an organization as your device. It starts with ${jobs}, on an allowlist without hosts.`,
      code: login.userCode,
      answered: login.status !== 'pending',
    };
  },
  answer: (api, code, approve, orgId) =>
    api('POST', `/v1/orgs/${encodeURIComponent(orgId ?? '')}/agents/login`, { userCode: code, approve }),
};

const commandLine: CodeKind = {
  async find(code) {
    const login = await pendingSessionLogin(code);
    if (!login) return undefined;
    const system = login.platform ? ` on ${login.platform}` : '';
    return {
      title: 'Sign in the command line',
      detail: `"${login.name ?? 'platform CLI'}"${system} asks to act as you, with your roles in your organizations, for 90 days (revoke it under your sessions).`,
      code: login.userCode,
      answered: login.status !== 'pending',
    };
  },
  answer: (api, code, approve) => api('POST', '/v1/login/device/answer', { userCode: code, approve }),
};

const KINDS: CodeKind[] = [agentDevice, commandLine];

const SESSION_MS = 15 * 60_000;
const SIGN_IN_MS = 10 * 60_000;
const COOKIE = 'platform_device';

interface Session {
  token: string;
  csrf: string;
  expiresAt: number;
}

interface SignIn {
  verifier: string;
  redirectUri: string;
  code: string;
  expiresAt: number;
}

const CSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function page(res: ServerResponse, status: number, title: string, body: string, headers: Record<string, string> = {}) {
  const text = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1>${body}</html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'content-security-policy': CSP,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
  return true;
}

const redirect = (res: ServerResponse, location: string, headers: Record<string, string> = {}) => {
  res.writeHead(302, { location, 'cache-control': 'no-store', ...headers });
  res.end();
  return true;
};

const codeForm = (message?: string) =>
  `${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}<form method="get" action="/device">` +
  '<label>Code shown on the device <input name="code" autocomplete="off" required></label><button>Continue</button></form>';

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const cookieOf = (req: IncomingMessage, name: string) =>
  (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name)?.[1];

/** The device page's routes, for the local gateway's `extra`. AUTH_URL is read at each request. */
export function devicePage(): LocalRoute {
  const sessions = new Map<string, Session>();
  const signIns = new Map<string, SignIn>();
  const forget = () => {
    const now = Date.now();
    for (const [k, v] of sessions) if (v.expiresAt < now) sessions.delete(k);
    for (const [k, v] of signIns) if (v.expiresAt < now) signIns.delete(k);
  };

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname !== '/device' && url.pathname !== '/device/callback') return false;
    forget();
    // The address the person uses (the gateway listens on loopback only), and the API behind it.
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    const apiBase = `http://127.0.0.1:${req.socket.localPort}`;
    const authUrl = process.env.AUTH_URL as string;
    const sid = cookieOf(req, COOKIE);
    const session = sid ? sessions.get(sid) : undefined;

    if (url.pathname === '/device/callback') {
      const state = url.searchParams.get('state') ?? '';
      const signIn = signIns.get(state);
      signIns.delete(state);
      if (!signIn) return page(res, 400, 'Sign-in expired', `<p>Open the device's link again.</p>${codeForm()}`);
      const code = url.searchParams.get('code');
      if (!code) {
        const why = url.searchParams.get('error') ?? 'no code';
        return page(res, 400, "You weren't signed in", `<p>The identity provider answered ${escapeHtml(why)}.</p>`);
      }
      const exchanged = await fetch(`${authUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: PLATFORM_CLIENT_ID,
          code,
          redirect_uri: signIn.redirectUri,
          code_verifier: signIn.verifier,
        }),
      });
      const token = ((await exchanged.json()) as { access_token?: string }).access_token;
      if (!exchanged.ok || !token) return page(res, 400, "You weren't signed in", '<p>Sign in again.</p>');
      const id = randomBytes(32).toString('base64url');
      sessions.set(id, { token, csrf: randomBytes(24).toString('base64url'), expiresAt: Date.now() + SESSION_MS });
      const back = `/device${signIn.code ? `?code=${encodeURIComponent(signIn.code)}` : ''}`;
      const maxAge = Math.floor(SESSION_MS / 1000);
      return redirect(res, back, {
        'set-cookie': `${COOKIE}=${id}; HttpOnly; SameSite=Lax; Path=/device; Max-Age=${maxAge}`,
      });
    }

    if (req.method !== 'GET' && req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST' });
      res.end();
      return true;
    }
    const form = req.method === 'POST' ? await readForm(req) : url.searchParams;
    const typed = (form.get('code') ?? '').trim();

    if (!session) {
      if (req.method === 'POST') return page(res, 403, 'Sign in first', `<p>Your session ended.</p>${codeForm()}`);
      const state = randomBytes(24).toString('base64url');
      const verifier = randomBytes(32).toString('base64url');
      const redirectUri = `${origin}/device/callback`;
      signIns.set(state, { verifier, redirectUri, code: typed.slice(0, 32), expiresAt: Date.now() + SIGN_IN_MS });
      const authorize = new URL(`${authUrl}/authorize`);
      for (const [k, v] of Object.entries({
        client_id: PLATFORM_CLIENT_ID,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }))
        authorize.searchParams.set(k, v);
      return redirect(res, authorize.toString());
    }

    const api: Api = async (method, path, body) => {
      const r = await fetch(`${apiBase}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${session.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: await r.json().catch(() => ({})) };
    };
    if (!typed) return page(res, 200, 'Enter the code', codeForm());
    let kind: CodeKind | undefined;
    let asked: Awaited<ReturnType<CodeKind['find']>>;
    for (const k of KINDS) {
      asked = await k.find(typed);
      if (asked) {
        kind = k;
        break;
      }
    }
    if (!kind || !asked) {
      return page(
        res,
        404,
        'Unknown code',
        codeForm('That code is unknown or expired. Start the login on the device again.'),
      );
    }
    if (asked.answered) return page(res, 409, 'Code already used', '<p>That code was already used.</p>');

    if (req.method === 'POST') {
      if (form.get('csrf') !== session.csrf)
        return page(res, 403, 'Sign in first', "<p>Open the device's link again.</p>");
      const approve = form.get('decision') === 'approve';
      const answered = await kind.answer(api, asked.code, approve, form.get('orgId') ?? undefined);
      if (answered.status !== 200) {
        const why =
          typeof answered.body?.error === 'string' ? answered.body.error : `The platform answered ${answered.status}.`;
        return page(res, answered.status, 'Not answered', `<p role="alert">${escapeHtml(why)}</p>`);
      }
      return approve
        ? page(res, 200, 'Approved', '<p>Approved. Go back to the device: it continues by itself.</p>')
        : page(res, 200, 'Denied', '<p>Denied. The device was told no.</p>');
    }

    const me = await api('GET', '/v1/me');
    if (me.status !== 200) return page(res, 403, 'Sign in first', '<p>Your session ended. Open the link again.</p>');
    const orgs = ((me.body.me?.orgs ?? []) as { orgId: string; name: string; slug: string; scopes: string[] }[]).filter(
      (o) => !kind.scope || o.scopes.includes(kind.scope),
    );
    if (kind.scope && orgs.length === 0) {
      return page(
        res,
        403,
        asked.title,
        `<p>None of your organizations lets you approve this (${escapeHtml(kind.scope)}).</p>`,
      );
    }
    const choose = kind.scope
      ? `<label>Organization <select name="orgId" required>${orgs
          .map((o) => `<option value="${escapeHtml(o.orgId)}">${escapeHtml(o.name)} (${escapeHtml(o.slug)})</option>`)
          .join('')}</select></label>`
      : '';
    return page(
      res,
      200,
      asked.title,
      `<p>${escapeHtml(asked.detail)}</p><p>Code: <strong>${escapeHtml(asked.code)}</strong>. Check that the device shows the same.</p>` +
        `<form method="post" action="/device"><input type="hidden" name="code" value="${escapeHtml(asked.code)}">` +
        `<input type="hidden" name="csrf" value="${escapeHtml(session.csrf)}">${choose}` +
        '<button name="decision" value="approve">Approve</button> <button name="decision" value="deny">Deny</button></form>',
    );
  };
}
