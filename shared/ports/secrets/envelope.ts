import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The AES-256-GCM layer both adapters share: values are encrypted with a data key, and the data
 * key is wrapped by KMS (AWS) or by the local master key. The encryption context is bound to both
 * layers as additional authenticated data, so a ciphertext moved to another context fails.
 */
export type EncryptionContext = Readonly<Record<string, string>>;

/** A value that does not decrypt under the given context (moved, altered, or another key's). */
export class SecretDecryptError extends Error {
  constructor() {
    super('The secret does not decrypt under this context.');
    this.name = 'SecretDecryptError';
  }
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The context as stable bytes: keys sorted, so `{a, b}` and `{b, a}` are the same context. */
export function contextBytes(context: EncryptionContext): Buffer {
  const entries = Object.keys(context)
    .sort()
    .map((k) => [k, context[k]]);
  return Buffer.from(JSON.stringify(entries), 'utf8');
}

/** AES-256-GCM: `iv | ciphertext | tag`. */
export function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

export function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptError();
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const body = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new SecretDecryptError();
  }
}

/** The stored form: `v1.<wrapped data key>.<sealed value>`, base64url parts. */
function formatEnvelope(wrappedKey: Buffer, sealed: Buffer): string {
  return `${VERSION}.${wrappedKey.toString('base64url')}.${sealed.toString('base64url')}`;
}

function parseEnvelope(envelope: string): { wrappedKey: string; sealed: Buffer } {
  const [version, wrappedKey, sealed, extra] = envelope.split('.');
  if (version !== VERSION || !wrappedKey || sealed === undefined || extra !== undefined) throw new SecretDecryptError();
  return { wrappedKey, sealed: Buffer.from(sealed, 'base64url') };
}

/**
 * Encrypts each plaintext under one fresh data key. `wrap` turns the data key into its wrapped
 * form (once per call); the data key is zeroed afterwards.
 */
export async function encryptAll(
  context: EncryptionContext,
  plaintexts: readonly string[],
  newDataKey: () => Promise<{ key: Buffer; wrapped: Buffer }>,
): Promise<string[]> {
  if (plaintexts.length === 0) return [];
  const { key, wrapped } = await newDataKey();
  try {
    const aad = contextBytes(context);
    return plaintexts.map((p) => formatEnvelope(wrapped, seal(key, Buffer.from(p, 'utf8'), aad)));
  } finally {
    key.fill(0);
  }
}

/** Decrypts each envelope; each distinct wrapped data key is unwrapped once. */
export async function decryptAll(
  context: EncryptionContext,
  envelopes: readonly string[],
  unwrap: (wrapped: Buffer) => Promise<Buffer>,
): Promise<string[]> {
  const parsed = envelopes.map(parseEnvelope);
  const keys = new Map<string, Promise<Buffer>>();
  for (const p of parsed) {
    if (!keys.has(p.wrappedKey)) keys.set(p.wrappedKey, unwrap(Buffer.from(p.wrappedKey, 'base64url')));
  }
  try {
    const aad = contextBytes(context);
    const out: string[] = [];
    for (const p of parsed) {
      const key = await (keys.get(p.wrappedKey) as Promise<Buffer>);
      out.push(open(key, p.sealed, aad).toString('utf8'));
    }
    return out;
  } finally {
    for (const k of keys.values()) void k.then((b) => b.fill(0)).catch(() => undefined);
  }
}
