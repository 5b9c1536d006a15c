import { conflict, invalid } from '../../kernel/ground/errors';
import { type ClientSpec, SigninUnavailableError, signin } from '../../ports/signin';
import {
  type ClientRecord,
  deleteClientRecord,
  putClient,
  rotatedSecrets,
  SIGNIN_CLIENT_MESSAGES,
  updateClient,
} from './clients';

/**
 * The sign-in clients' use cases: each keeps the identity provider's client and the platform's
 * record in step (the provider first; a record that cannot be stored takes the provider's client
 * with it). The provider refusing clients (no identity provider for projects) is 409.
 */
export const SCOPES = ['openid', 'profile', 'email'] as const;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
export const REDIRECT =
  'Redirect URIs are absolute, without a fragment: https, http only for localhost, or a custom scheme with a dot ' +
  '(com.example.app:/callback) for native clients.';
export const ORIGIN = 'Allowed origins are https origins (http only for localhost), without a path.';

/** RFC 8252 and OAuth 2.1: https, loopback http, and for native apps a private-use scheme (reverse domain). */
function redirectAllowed(raw: string, type: ClientSpec['type']): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.hash || raw.includes('#')) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
  return type === 'native' && /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
}

function originAllowed(raw: string): boolean {
  try {
    const url = new URL(raw);
    if (url.origin !== raw.replace(/\/$/, '')) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}

export function checkSpec(spec: ClientSpec): ClientSpec {
  if (!spec.redirectUris.every((u) => redirectAllowed(u, spec.type))) throw invalid(REDIRECT);
  if (!spec.allowedOrigins.every(originAllowed)) throw invalid(ORIGIN);
  return {
    ...spec,
    redirectUris: [...new Set(spec.redirectUris)],
    allowedOrigins: [...new Set(spec.allowedOrigins.map((o) => o.replace(/\/$/, '')))],
    scopes: SCOPES.filter((s) => spec.scopes.includes(s)),
  };
}

/** The provider's call, its refusal to take clients answered as 409. */
async function provider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof SigninUnavailableError) throw conflict(SIGNIN_CLIENT_MESSAGES.unavailable);
    throw err;
  }
}

const specOf = (c: ClientRecord): ClientSpec => ({
  name: c.name,
  type: c.type,
  redirectUris: c.redirectUris,
  allowedOrigins: c.allowedOrigins,
  scopes: c.scopes,
});

/** A new client of a project: its provider client, then its record; the secret of a web client, once. */
export async function createClient(
  owner: { orgId: string; projectId: string; createdBy: string },
  spec: ClientSpec,
): Promise<{ client: ClientRecord; secret?: string }> {
  const checked = checkSpec(spec);
  const made = await provider(() => signin().create(checked));
  try {
    const client = await putClient(owner, checked, made);
    return { client, ...(made.secret ? { secret: made.secret.value } : {}) };
  } catch (err) {
    // Not stored (the limit): the provider's client goes too.
    await signin().remove(made.clientId);
    throw err;
  }
}

/** Changes a client's name, addresses or scopes (its type stays), at the provider and in its record. */
export async function changeClient(
  c: ClientRecord,
  changes: Partial<Omit<ClientSpec, 'type'>> & { type?: string; ifVersion?: number },
): Promise<ClientRecord> {
  if (changes.type !== undefined && changes.type !== c.type) throw invalid(SIGNIN_CLIENT_MESSAGES.typeFixed);
  if (changes.ifVersion !== undefined && changes.ifVersion !== c.version)
    throw conflict(SIGNIN_CLIENT_MESSAGES.changed);
  const { ifVersion: _v, type: _t, ...rest } = changes;
  const spec = checkSpec({
    ...specOf(c),
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  });
  await provider(() => signin().update(c.clientId, spec));
  return updateClient(c, { ...spec });
}

/** Deletes a client: the provider's first, so its users get no more tokens, then the record. */
export async function removeClient(c: ClientRecord): Promise<void> {
  await provider(() => signin().remove(c.clientId));
  await deleteClientRecord(c);
}

/**
 * Rotates a web client's secret: a new one beside the current (two at most, as Cognito holds them:
 * the oldest goes first), or with `revokePrevious` every secret but the newest ends now.
 */
export async function rotateSecret(
  c: ClientRecord,
  revokePrevious: boolean,
): Promise<{ client: ClientRecord; secret?: string }> {
  if (c.type !== 'web') throw invalid(SIGNIN_CLIENT_MESSAGES.onlyWeb);
  if (revokePrevious) {
    const [newest, ...previous] = c.secrets;
    await provider(() => Promise.all(previous.map((s) => signin().removeSecret(c.clientId, s.secretId))));
    return { client: await updateClient(c, { secrets: newest ? [newest] : [] }) };
  }
  const dropped = c.secrets.length >= 2 ? c.secrets[c.secrets.length - 1] : undefined;
  if (dropped) await provider(() => signin().removeSecret(c.clientId, dropped.secretId));
  const kept = dropped ? { ...c, secrets: c.secrets.slice(0, -1) } : c;
  const added = await provider(() => signin().addSecret(c.clientId));
  return { client: await updateClient(c, { secrets: rotatedSecrets(kept, added) }), secret: added.value };
}
