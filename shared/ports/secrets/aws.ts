import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { readEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { decryptAll, encryptAll, SecretDecryptError } from './envelope';
import type { SecretsPort } from './port';

/** KMS errors that mean "this ciphertext is not for this key or context", not "KMS failed". */
const UNDECRYPTABLE = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

/**
 * Secrets on AWS: a data key per batch from KMS GenerateDataKey under the secrets key
 * (`SECRETS_KEY_ID`, granted only to the functions whose route group `needs` kms), bound to the
 * encryption context; the wrapped key is stored beside the value and unwrapped with KMS Decrypt
 * under the same context. Other KMS errors (throttling, access) escape as backend errors.
 */
export function awsSecrets(
  client: KMSClient = new KMSClient(sdkSettings('secrets')),
  keyId = readEnv('SECRETS_KEY_ID'),
): SecretsPort {
  const key = () => {
    if (!keyId) throw new Error('SECRETS_KEY_ID is not set');
    return keyId;
  };
  return {
    encrypt: (context, plaintexts) =>
      encryptAll(context, plaintexts, async () => {
        const out = await client.send(
          new GenerateDataKeyCommand({ KeyId: key(), KeySpec: 'AES_256', EncryptionContext: { ...context } }),
        );
        if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
        return { key: Buffer.from(out.Plaintext), wrapped: Buffer.from(out.CiphertextBlob) };
      }),
    decrypt: (context, ciphertexts) =>
      decryptAll(context, ciphertexts, async (wrapped) => {
        try {
          const out = await client.send(
            new DecryptCommand({ KeyId: key(), CiphertextBlob: wrapped, EncryptionContext: { ...context } }),
          );
          if (!out.Plaintext) throw new SecretDecryptError();
          return Buffer.from(out.Plaintext);
        } catch (err) {
          if (UNDECRYPTABLE.has((err as Error).name)) throw new SecretDecryptError();
          throw err;
        }
      }),
  };
}
