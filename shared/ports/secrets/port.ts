import type { EncryptionContext } from './envelope';

/**
 * The secrets port: envelope encryption of values at rest (environment values, credentials).
 * AWS: a data key from KMS GenerateDataKey, wrapped by the platform's secrets key, with the
 * context as KMS EncryptionContext. One machine: a data key wrapped with AES-256-GCM under the
 * local master key (`LOCAL_SECRETS_KEY`), the context as additional authenticated data.
 * On both, values are AES-256-GCM under the data key, the context bound again as AAD.
 *
 * The context names what a value belongs to (e.g. `{ purpose: 'env', orgId, projectId }`): a
 * ciphertext decrypts only under the context it was made for, so a value copied to another
 * project does not decrypt (SecretDecryptError).
 */
export interface SecretsPort {
  /** Encrypts each value under one fresh data key (one KMS call for the batch). */
  encrypt(context: EncryptionContext, plaintexts: readonly string[]): Promise<string[]>;
  /** Decrypts values of one context; values sealed in one batch share one unwrap. */
  decrypt(context: EncryptionContext, ciphertexts: readonly string[]): Promise<string[]>;
}
