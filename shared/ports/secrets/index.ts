import { config } from '../../kernel/config';
import { lazyPort } from '../../kernel/ground/lazy';
import type { SecretsPort } from './port';

export type { EncryptionContext } from './envelope';
export { SecretDecryptError } from './envelope';
export type { SecretsPort } from './port';

let adapter: SecretsPort | undefined;

// The local adapter's path is computed: the functions' bundler leaves it out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/**
 * The adapter for PLATFORM_TARGET, loaded on first use (no key is read at import time; KMS's
 * client is a chunk of its own).
 */
export function secrets(): SecretsPort {
  adapter ??= lazyPort<SecretsPort>(() =>
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localSecrets: () => SecretsPort }>).then((m) => m.localSecrets())
      : import('./aws').then((m) => m.awsSecrets()),
  );
  return adapter;
}
