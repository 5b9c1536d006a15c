import { definePort } from '../adapter';
import type { SigninPort } from './port';

export { type ClientSpec, type ClientType, type NewSecret, type SigninPort, SigninUnavailableError } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** Cognito app clients on AWS; the local identity provider's own clients on one machine. */
export const signin = definePort<SigninPort>({
  aws: () => import('./aws').then((m) => m.awsSignin()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localSignin()),
});
