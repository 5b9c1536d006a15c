import { randomBytes } from 'node:crypto';
import { readEnv } from '../../kernel/ground/env';
import { contextBytes, decryptAll, encryptAll, open, seal } from './envelope';
import type { SecretsPort } from './port';

/** Reads the local master key: `LOCAL_SECRETS_KEY`, base64 of 32 bytes. */
export function localMasterKey(value = readEnv('LOCAL_SECRETS_KEY')): Buffer {
  const key = value ? Buffer.from(value, 'base64') : Buffer.alloc(0);
  if (key.length !== 32) throw new Error('LOCAL_SECRETS_KEY must be set to base64 of 32 random bytes');
  return key;
}

/**
 * Secrets on one machine: the data key is wrapped with AES-256-GCM under the local master key,
 * with the encryption context as additional authenticated data (the role KMS's
 * EncryptionContext plays on AWS).
 */
export function localSecrets(master: Buffer = localMasterKey()): SecretsPort {
  return {
    encrypt: (context, plaintexts) =>
      encryptAll(context, plaintexts, async () => {
        const key = randomBytes(32);
        return { key, wrapped: seal(master, key, contextBytes(context)) };
      }),
    decrypt: (context, ciphertexts) =>
      decryptAll(context, ciphertexts, async (wrapped) => open(master, wrapped, contextBytes(context))),
  };
}
