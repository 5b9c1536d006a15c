import { definePort } from '../adapter';
import type { SecretsPort } from './port';

export type { EncryptionContext } from './envelope';
export { SecretDecryptError } from './envelope';
export type { SecretsPort } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** Envelope encryption: KMS on AWS (its client a chunk of its own), AES-256-GCM under a local key on one machine; no key is read at import. */
export const secrets = definePort<SecretsPort>({
  aws: () => import('./aws').then((m) => m.awsSecrets()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localSecrets()),
});
