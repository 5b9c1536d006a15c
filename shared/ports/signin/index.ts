import { config } from '../../kernel/config';
import { lazyPort } from '../../kernel/ground/lazy';
import type { SigninPort } from './port';

export { type ClientSpec, type ClientType, type NewSecret, type SigninPort, SigninUnavailableError } from './port';

let adapter: SigninPort | undefined;

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** Cognito app clients on AWS; the local identity provider's own clients on one machine. */
export function signin(): SigninPort {
  adapter ??= lazyPort<SigninPort>(() =>
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localSignin: SigninPort }>).then((m) => m.localSignin)
      : import('./aws').then((m) => m.cognitoSignin),
  );
  return adapter;
}
